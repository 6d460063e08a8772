package io.sluice.files.source;

import io.sluice.api.ReadLimit;

import java.util.ArrayList;
import java.util.List;

/**
 * Admission control of the file source, as pure functions over candidate files and limits (no file system, no
 * state): the order new files are taken in (latestFirst), the watermark maxFileAge sets, how many files a batch
 * takes (maxFilesPerTrigger, maxBytesPerTrigger), which of the rest are kept for the next batches
 * (maxCachedFiles, discardCachedInputRatio), and how an availableNow run walks the list it fixed at start.
 * Spark's rules ({@code FileStreamSource.fetchMaxOffset}).
 */
final class FileAdmission {
    private FileAdmission() {
    }

    /** What a read limit allows: at most so many files and so many bytes (at least one file). */
    record Caps(int files, long bytes) {

        static Caps of(ReadLimit limit) {
            int files = Integer.MAX_VALUE;
            long bytes = Long.MAX_VALUE;
            List<ReadLimit> all = limit instanceof ReadLimit.Composite c ? c.limits() : List.of(limit);
            for (ReadLimit l : all) {
                if (l instanceof ReadLimit.MaxFiles f) {
                    files = Math.min(files, f.files());
                } else if (l instanceof ReadLimit.MaxBytes b) {
                    bytes = Math.min(bytes, b.bytes());
                }
                // Other kinds (rows, minimums) mean nothing for files: all available, as Spark does.
            }
            return new Caps(files, bytes);
        }

        boolean capped() {
            return files != Integer.MAX_VALUE || bytes != Long.MAX_VALUE;
        }

        /** How many of {@code list}, from {@code from}, fit: the first always; stop at the first that does not. */
        int fit(List<ListedFile> list, int from) {
            int n = 0;
            long total = 0;
            for (int i = from; i < list.size() && n < files; i++) {
                long size = list.get(i).size();
                if (n > 0 && (total + size < 0 || total + size > bytes)) {
                    break;
                }
                total += size;
                n++;
            }
            return n;
        }
    }

    /**
     * The limits of one batch.
     *
     * @param latestFirst             newest files first; nothing is cached then (a later listing may hold newer)
     * @param maxCachedFiles          at most so many files left by a capped batch are kept for the next ones
     * @param discardCachedInputRatio the rest is kept only while it holds at least this share of a batch
     */
    record Limits(Caps caps, boolean latestFirst, int maxCachedFiles, float discardCachedInputRatio) {
    }

    /**
     * A batch's choice.
     *
     * @param taken  the files of the batch, in order
     * @param rest   the candidates not taken, in order
     * @param cached the first of {@code rest} to take by the next batches without listing, or null to list again
     */
    record Selection(List<ListedFile> taken, List<ListedFile> rest, List<ListedFile> cached) {
    }

    /** maxFileAge: a file older than the watermark is not new (the watermark only rises). */
    static boolean tooOld(ListedFile f, long watermark) {
        return f.timestamp() < watermark;
    }

    /**
     * Orders new files in place: by modification time (newest first with latestFirst), then URI. One plain
     * comparator rather than a chain of composed ones: the first trigger sorts up to every listed file in a cold
     * JVM, where each level of indirection is paid per comparison.
     */
    static void order(List<ListedFile> files, boolean latestFirst) {
        files.sort((a, b) -> {
            int c = latestFirst ? Long.compare(b.timestamp(), a.timestamp())
                    : Long.compare(a.timestamp(), b.timestamp());
            return c != 0 ? c : a.uri().compareTo(b.uri());
        });
    }

    /**
     * The files of the next batch out of {@code candidates} (new files, in order), and those kept for the next
     * batches: with a cap and without latestFirst, the rest (at most maxCachedFiles of it) is kept unless it is
     * too little for a batch of ordinary size (fewer files than maxFilesPerTrigger, or fewer bytes than
     * maxBytesPerTrigger, times discardCachedInputRatio), so that new files join it at the next listing.
     */
    static Selection admit(List<ListedFile> candidates, Limits limits) {
        Caps caps = limits.caps();
        int n = caps.fit(candidates, 0);
        List<ListedFile> taken = new ArrayList<>(candidates.subList(0, n));
        List<ListedFile> rest = candidates.subList(n, candidates.size());
        boolean keep = !limits.latestFirst() && caps.capped() && !rest.isEmpty() && limits.maxCachedFiles() > 0;
        if (keep && caps.files() != Integer.MAX_VALUE
                && rest.size() < caps.files() * limits.discardCachedInputRatio()) {
            keep = false;
        }
        if (keep && caps.bytes() != Long.MAX_VALUE) {
            long restBytes = 0;
            for (ListedFile f : rest) {
                restBytes += f.size();
            }
            if (restBytes < caps.bytes() * (double) limits.discardCachedInputRatio()) {
                keep = false;
            }
        }
        List<ListedFile> cached = keep
                ? new ArrayList<>(rest.subList(0, Math.min(rest.size(), limits.maxCachedFiles()))) : null;
        return new Selection(taken, rest, cached);
    }

    /**
     * availableNow: the position in the list fixed at start past the files from {@code from} on that fell below
     * the watermark since (files before the position were taken already).
     */
    static int skipTooOld(List<ListedFile> fixedAtStart, int from, long watermark) {
        int pos = from;
        while (pos < fixedAtStart.size() && tooOld(fixedAtStart.get(pos), watermark)) {
            pos++;
        }
        return pos;
    }
}
