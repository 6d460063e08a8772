package io.sluice.core.checkpoint;

import io.sluice.core.CorruptCheckpointException;
import io.sluice.core.checkpoint.FileFormat.Malformed;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The commit log, {@code <checkpoint>/commits/N}: batch N finished and its output is committed, so it will never
 * run again. File format, byte-for-byte Spark's: {@code v1\n{"nextBatchWatermarkMs":0}} (no trailing newline).
 *
 * <p>Callers may rely on the same guarantees as {@link OffsetLog}: no overwrite, exact round trip, bad files
 * throw {@link CorruptCheckpointException} and are never skipped. Obtained from {@link Checkpoint#commitLog()}.
 */
public final class CommitLog {

    static final int VERSION = 1;

    private final BatchLog<CommitMetadata> log;

    CommitLog(Path dir) {
        this(dir, true);
    }

    /** @param create whether to create the folder; false for a read-only view ({@link ReadOnlyCheckpoint}) */
    CommitLog(Path dir, boolean create) {
        this(Folder.local(dir), create);
    }

    CommitLog(Folder dir, boolean create) {
        this.log = new BatchLog<>(dir, VERSION, new Codec(), CommitLog::advise, create);
    }

    /**
     * Writes {@code commits/<batchId>} atomically and durably.
     *
     * @return false, writing nothing, if the batch is already committed
     */
    public boolean add(long batchId, CommitMetadata commit) {
        return log.add(batchId, commit);
    }

    /** The commit of a batch; empty when it has none. */
    public Optional<CommitMetadata> get(long batchId) {
        return log.get(batchId);
    }

    /** The newest commit; empty when none. A bad newest file throws rather than falling back. */
    public Optional<LogEntry<CommitMetadata>> getLatest() {
        return log.getLatest();
    }

    /** The newest committed batch id, without reading the file. */
    public OptionalLong latestId() {
        return log.latestId();
    }

    /** Committed batch ids, ascending. */
    public List<Long> batchIds() {
        return log.batchIds();
    }

    /** Deletes the files of batches with id {@code < thresholdBatchId}. See {@link Checkpoint#purge}. */
    public void purge(long thresholdBatchId) {
        log.purge(thresholdBatchId);
    }

    /**
     * The file of a batch (which may not exist) as messages name it: its absolute local path, or its URI for a
     * checkpoint on an object store.
     */
    public String fileFor(long batchId) {
        return log.fileFor(batchId);
    }

    private static String advise(long id, long newest) {
        String restore = FileFormat.RESTORE_OR_START_OVER;
        String cannotStart = FileFormat.CANNOT_START + " ";
        if (id < newest) {
            return cannotStart + "It is not the newest commit (commits/" + newest + " exists): " + restore;
        }
        // Without commits/N the query re-runs batch N from offsets/N, which sinks must tolerate anyway.
        return cannotStart + "It is the newest commit, so you may delete this file to have the query re-run batch "
                + id + " from its logged offsets; otherwise " + restore;
    }

    private static final class Codec implements BatchLog.Codec<CommitMetadata> {

        @Override
        public List<String> encode(CommitMetadata value) {
            return List.of(FileFormat.json(g -> {
                g.writeStartObject();
                g.writeNumberField("nextBatchWatermarkMs", value.nextBatchWatermarkMs());
                g.writeEndObject();
            }));
        }

        @Override
        public CommitMetadata decode(List<String> lines) throws Malformed {
            if (lines.size() != 2) {
                throw new Malformed("expected 2 lines, found " + lines.size());
            }
            java.util.Map<String, Object> node = FileFormat.object(FileFormat.parse(lines.get(1), "line 2"));
            if (node == null) {
                throw new Malformed("line 2 is not a JSON object");
            }
            return new CommitMetadata(FileFormat.longField(node, "nextBatchWatermarkMs", "line 2", 0L));
        }
    }
}
