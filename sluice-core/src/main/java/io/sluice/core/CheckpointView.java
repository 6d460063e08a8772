package io.sluice.core;

import io.sluice.core.checkpoint.OffsetSeq;
import io.sluice.core.checkpoint.ReadOnlyCheckpoint;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * A read-only snapshot of a query's checkpoint folder ({@code checkpointLocation}): its query id, every batch in
 * {@code offsets/} with its logged offsets per source, which batches {@code commits/} holds, and the sources'
 * folders {@code sources/<i>/}. Read with the engine's own readers and checks, so a file the engine would refuse
 * to start from is reported here with the same words, batch by batch, instead of failing the whole view.
 *
 * <p>Callers may rely on: {@link #open} takes no lock, creates no folder and writes nothing, so it works beside
 * the running query that holds the checkpoint (a file that query purges while the view reads shows as a batch
 * problem) and on a copy of a Spark checkpoint; the view is immutable and never reads again after {@code open}.
 */
public final class CheckpointView {

    private final Path path;
    private final String queryId;
    private final String metadataProblem;
    private final List<Batch> batches;
    private final List<Long> committedBatchIds;
    private final List<SourceFolder> sources;

    /**
     * One file of {@code offsets/}: exactly one of {@code offsets} and {@code problem} is non-null.
     *
     * @param batchId   the file's name
     * @param committed whether {@code commits/<batchId>} exists
     * @param offsets   what the file logs, or null when it cannot be read
     * @param problem   why it cannot be read, as a clause ({@code it is empty}, {@code line 1 should be the version
     *                  "v1" but is "garbage"}), or null
     */
    public record Batch(long batchId, boolean committed, Offsets offsets, String problem) {
        public Batch {
            if ((offsets == null) == (problem == null)) {
                throw new IllegalArgumentException("A batch has either its offsets or a problem");
            }
        }
    }

    /**
     * What {@code offsets/N} logs: Spark's OffsetSeq and its metadata.
     *
     * @param batchWatermarkMs the batch's event-time watermark (0 when none)
     * @param batchTimestampMs the batch's processing time, epoch milliseconds
     * @param conf             the settings logged with the batch, in file order; unmodifiable
     * @param sources          per source in source order, its end offset's JSON exactly as logged, or null when it
     *                         had none ({@code -} in the file); unmodifiable
     */
    public record Offsets(long batchWatermarkMs, long batchTimestampMs, Map<String, String> conf,
                          List<String> sources) {
        public Offsets {
            conf = Collections.unmodifiableMap(new java.util.LinkedHashMap<>(conf));
            sources = Collections.unmodifiableList(new ArrayList<>(sources));
        }
    }

    /** A source's private folder: {@code sources/<index>/}. */
    public record SourceFolder(int index, Path path) {
        public SourceFolder {
            Objects.requireNonNull(path, "path");
        }
    }

    private CheckpointView(Path path, String queryId, String metadataProblem, List<Batch> batches,
                           List<Long> committedBatchIds, List<SourceFolder> sources) {
        this.path = path;
        this.queryId = queryId;
        this.metadataProblem = metadataProblem;
        this.batches = List.copyOf(batches);
        this.committedBatchIds = List.copyOf(committedBatchIds);
        this.sources = List.copyOf(sources);
    }

    /**
     * Reads the checkpoint at {@code dir}.
     *
     * @throws IllegalArgumentException         when {@code dir} is not a folder ({@code No checkpoint at <dir>: no
     *                                          such folder} / {@code it is not a folder}), or holds neither
     *                                          {@code metadata} nor {@code offsets/} ({@code <dir> is not a
     *                                          checkpoint: it has no metadata file and no offsets folder})
     * @throws java.io.UncheckedIOException when a folder or file cannot be read at all (permissions)
     */
    public static CheckpointView open(Path dir) {
        if (!Files.isDirectory(dir)) {
            throw new IllegalArgumentException("No checkpoint at " + dir + ": " + (Files.exists(dir)
                    ? "it is not a folder" : "no such folder"));
        }
        ReadOnlyCheckpoint checkpoint = ReadOnlyCheckpoint.of(dir);
        if (!Files.exists(checkpoint.metadataFile()) && !Files.isDirectory(checkpoint.path().resolve("offsets"))) {
            throw new IllegalArgumentException(dir + " is not a checkpoint: it has no metadata file and no offsets "
                    + "folder");
        }
        String queryId = null;
        String metadataProblem = null;
        try {
            queryId = checkpoint.queryId().orElse(null);
        } catch (CheckpointException e) {
            metadataProblem = problem(e);
        }
        List<Long> commits = checkpoint.commitIds();
        Set<Long> committed = new HashSet<>(commits);
        List<Batch> batches = new ArrayList<>();
        for (long id : checkpoint.offsetIds()) {
            boolean isCommitted = committed.contains(id);
            try {
                Optional<OffsetSeq> seq = checkpoint.offsets(id);
                batches.add(seq.isPresent()
                        ? new Batch(id, isCommitted, new Offsets(seq.get().batchWatermarkMs(),
                        seq.get().batchTimestampMs(), seq.get().conf(), seq.get().offsets()), null)
                        : new Batch(id, isCommitted, null, "the file vanished (purged by a running query?)"));
            } catch (CheckpointException e) {
                batches.add(new Batch(id, isCommitted, null, problem(e)));
            }
        }
        List<SourceFolder> sources = new ArrayList<>();
        for (int i : checkpoint.sourceIndexes()) {
            sources.add(new SourceFolder(i, checkpoint.sourceDir(i)));
        }
        return new CheckpointView(checkpoint.path(), queryId, metadataProblem, batches, commits, sources);
    }

    /** What is wrong with a file, as a clause; the whole message when the exception has no clause. */
    private static String problem(CheckpointException e) {
        if (e instanceof UnsupportedCheckpointVersionException v) {
            return "it was written in format v" + v.foundVersion() + "; this version reads v" + v.supportedVersion();
        }
        if (e instanceof CorruptCheckpointException c && c.problem().isPresent()) {
            return c.problem().get();
        }
        return e.getMessage();
    }

    /** The checkpoint folder, absolute and normalized. */
    public Path path() {
        return path;
    }

    /** The query id from {@code metadata}; empty when there is no such file or it cannot be read. */
    public Optional<String> queryId() {
        return Optional.ofNullable(queryId);
    }

    /** Why {@code metadata} cannot be read, as a clause ({@code it is not valid JSON}); empty when it can or is absent. */
    public Optional<String> metadataProblem() {
        return Optional.ofNullable(metadataProblem);
    }

    /** Every file in {@code offsets/} (retained batches), ascending by batch id. */
    public List<Batch> batches() {
        return batches;
    }

    /** The batch with this id, if {@code offsets/} holds it. */
    public Optional<Batch> batch(long batchId) {
        return batches.stream().filter(b -> b.batchId() == batchId).findFirst();
    }

    /** The batch ids in {@code commits/}, ascending. */
    public List<Long> committedBatchIds() {
        return committedBatchIds;
    }

    /** The sources' folders {@code sources/<i>/} that exist, ascending by index. */
    public List<SourceFolder> sourceFolders() {
        return sources;
    }

    /**
     * The batch a restart re-runs with exactly its logged range: the newest one in {@code offsets/} when it has no
     * commit; empty otherwise (none logged, or the newest committed).
     */
    public OptionalLong rerunBatchId() {
        if (batches.isEmpty()) {
            return OptionalLong.empty();
        }
        Batch newest = batches.get(batches.size() - 1);
        return newest.committed() ? OptionalLong.empty() : OptionalLong.of(newest.batchId());
    }
}
