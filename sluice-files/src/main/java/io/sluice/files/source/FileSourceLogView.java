package io.sluice.files.source;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.function.LongPredicate;

/**
 * A read-only view of a file source's own log in its checkpoint folder ({@code <checkpoint>/sources/<i>/}): the
 * files each log offset took, as the source logged them (Spark's {@code FileStreamSourceLog}: a file {@code N}
 * per log offset, or Spark's {@code N.compact} holding every entry up to N). For tools such as
 * {@code sluice checkpoint show}.
 *
 * <p>It reads with the source's own code (the same file names, parser and checks), so it takes exactly the files
 * and entries a restarted query would. It takes no lock, creates and writes nothing, and is safe beside the query
 * that owns the folder: the source writes each log file atomically, so a file is either absent or complete; a file
 * the running query deletes (once a snapshot covers it) after {@link #open} listed the folder reads as not
 * retained. The folder's file names are listed once, by {@link #open}; log files are read when asked for. An
 * instance is immutable and may be used from any thread.
 */
public final class FileSourceLogView {

    /**
     * One logged file, Spark's {@code FileEntry}.
     *
     * @param path      the file's URI as logged ({@code file:///in/a.json})
     * @param timestamp its modification time in epoch milliseconds when it was selected
     * @param logOffset the log offset ({@code batchId} in the entry) of the batch that took it
     */
    public record LoggedFile(String path, long timestamp, long logOffset) {
        public LoggedFile {
            Objects.requireNonNull(path, "path");
        }
    }

    /**
     * The files of one log offset.
     *
     * @param logOffset the log offset
     * @param file      the log file they were read from: {@code <folder>/N}, or the first {@code M.compact} with
     *                  {@code M >= N} when there is no plain file
     * @param files     its entries in log order (from a compact file: those whose {@code batchId} is N); may be
     *                  empty
     */
    public record Batch(long logOffset, Path file, List<LoggedFile> files) {
        public Batch {
            Objects.requireNonNull(file, "file");
            files = List.copyOf(files);
        }
    }

    private final Path folder;
    private final SeenFilesLog.Listing listing;

    private FileSourceLogView(Path folder, SeenFilesLog.Listing listing) {
        this.folder = folder;
        this.listing = listing;
    }

    /**
     * Lists a file source's log folder ({@code <checkpoint>/sources/<i>/}). Names that are not the log's
     * ({@code 04}, {@code 5.tmp}) are ignored with a warning, as the source ignores them.
     *
     * @throws IllegalArgumentException when {@code sourceFolder} is not a folder:
     *                                  {@code "No file source log at D: no such folder"}
     * @throws UncheckedIOException     when the folder cannot be listed, in the source's words
     *                                  ({@code "Cannot read the file source's seen-files state in D: ..."})
     */
    public static FileSourceLogView open(Path sourceFolder) {
        if (!Files.isDirectory(sourceFolder)) {
            throw new IllegalArgumentException("No file source log at " + sourceFolder + ": no such folder");
        }
        try {
            return new FileSourceLogView(sourceFolder, SeenFilesLog.Listing.of(sourceFolder));
        } catch (IOException e) {
            throw SeenFilesLog.stateUnreadable(sourceFolder, e);
        }
    }

    /**
     * The log offset in a file source's offset, {@code {"logOffset":N}} as the file source writes it (the form in
     * {@code offsets/<batch>}); empty for any other source's offset (a bare number too: other sources write those).
     */
    public static OptionalLong logOffset(String offsetJson) {
        return offsetJson == null ? OptionalLong.empty() : FileSourceOffset.logOffset(offsetJson);
    }

    /** The folder this view reads. */
    public Path folder() {
        return folder;
    }

    /**
     * The retained log offsets in {@code (fromExclusive, toInclusive]} with their files, ascending: those with a
     * plain file, and those with entries in the compact file covering them (the first compact file at or after the
     * offset: Spark writes one to hold every entry up to its own offset, and logs no offset without files). Offsets
     * whose files were deleted (Sluice deletes the log files a snapshot covers, but the newest) are left out. Each
     * log file is read once per call.
     *
     * @throws UncheckedIOException when a log file it needs cannot be read or holds an entry that does not parse,
     *                              in the source's words, naming the file, the line and the problem:
     *                              {@code "Cannot read the file source's log for log offset 3 in D: The file
     *                              source's log file D/3, line 2: not a JSON object: '12345'"}
     */
    public List<Batch> batches(long fromExclusive, long toInclusive) {
        TreeMap<Long, Batch> out = new TreeMap<>();
        if (toInclusive <= fromExclusive) {
            return List.of();
        }
        for (long id : listing.plain().subSet(fromExclusive, false, toInclusive, true)) {
            Path file = folder.resolve(Long.toString(id));
            // A plain file's entries are all its offset's, as the source takes them.
            List<LoggedFile> files = read(file, id, b -> true);
            if (files != null) {
                out.put(id, new Batch(id, file, files));
            }
        }
        // Offsets without their own file, from the compact file covering them: c covers (previous compact, c].
        Long c = listing.compacts().higher(fromExclusive);
        while (c != null) {
            Long previous = listing.compacts().lower(c);
            long from = Math.max(fromExclusive, previous == null ? -1 : previous) + 1;
            long to = Math.min(toInclusive, c);
            if (from > to) {
                break;
            }
            long first = from;
            while (first <= to && listing.plain().contains(first)) {
                first++; // bounded by the plain files listed
            }
            if (first <= to) { // else every offset it covers here has its own file
                Path file = folder.resolve(c + SeenFilesLog.COMPACT_SUFFIX);
                List<LoggedFile> entries = read(file, first,
                        b -> b >= from && b <= to && !listing.plain().contains(b));
                if (entries != null) { // else deleted since open: not retained
                    Map<Long, List<LoggedFile>> byOffset = new TreeMap<>();
                    entries.forEach(f -> byOffset.computeIfAbsent(f.logOffset(), k -> new ArrayList<>()).add(f));
                    byOffset.forEach((id, files) -> out.put(id, new Batch(id, file, files)));
                }
            }
            c = listing.compacts().higher(c);
        }
        return List.copyOf(out.values());
    }

    /**
     * The entries of {@code file} whose batchId {@code batches} accepts, or null when the file no longer exists;
     * {@code id} names the log offset in errors, as the source does.
     */
    private List<LoggedFile> read(Path file, long id, LongPredicate batches) {
        List<LoggedFile> files = new ArrayList<>();
        try {
            SeenFilesLog.readFile(file, batches, e -> files.add(new LoggedFile(e.path(), e.timestamp(), e.batchId())));
        } catch (NoSuchFileException e) {
            return null;
        } catch (IOException e) {
            throw SeenFilesLog.unreadable(id, folder, e);
        }
        return files;
    }
}
