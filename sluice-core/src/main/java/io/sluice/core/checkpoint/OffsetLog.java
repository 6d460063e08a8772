package io.sluice.core.checkpoint;

import io.sluice.core.CorruptCheckpointException;
import io.sluice.core.UnsupportedCheckpointVersionException;
import io.sluice.core.checkpoint.FileFormat.Malformed;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The offset log, {@code <checkpoint>/offsets/N}: the write-ahead log of what each batch reads. Written before a
 * batch reads anything; after a crash the last entry is re-run with exactly these offsets.
 *
 * <p>File format, byte-for-byte Spark's: lines joined by {@code \n}, no trailing newline:
 * <pre>
 * v1
 * {"batchWatermarkMs":0,"batchTimestampMs":1795935786166,"conf":{"k":"v"}}
 * {"logOffset":0}      one line per source: its offset JSON verbatim, or - when it has none
 * </pre>
 *
 * <p>Callers may rely on: {@link #add} never replaces a file; a value read back equals the value written; a
 * file that is not exactly that format throws {@link CorruptCheckpointException} (or
 * {@link UnsupportedCheckpointVersionException} for {@code v2} and up) and is never skipped. I/O failures throw
 * {@link java.io.UncheckedIOException}. Obtained from {@link Checkpoint#offsetLog()}.
 */
public final class OffsetLog {

    static final int VERSION = 1;
    private static final String NO_OFFSET = "-";

    private final BatchLog<OffsetSeq> log;

    OffsetLog(Path dir, Path commitsDir) {
        this(dir, commitsDir, true);
    }

    /** @param create whether to create the folder; false for a read-only view ({@link ReadOnlyCheckpoint}) */
    OffsetLog(Path dir, Path commitsDir, boolean create) {
        this(Folder.local(dir), Folder.local(commitsDir), create);
    }

    OffsetLog(Folder dir, Folder commitsDir, boolean create) {
        this.log = new BatchLog<>(dir, VERSION, new Codec(), (id, newest) -> advise(id, newest, commitsDir), create);
    }

    /**
     * Writes {@code offsets/<batchId>} atomically and durably.
     *
     * @return false, writing nothing, if the batch is already logged (the engine must treat that as a second
     *         writer or a bug: Spark fails the query with "Concurrent update to the log")
     */
    public boolean add(long batchId, OffsetSeq offsets) {
        return log.add(batchId, offsets);
    }

    /** The logged offsets of a batch; empty when it has no file (never logged, or purged). */
    public Optional<OffsetSeq> get(long batchId) {
        return log.get(batchId);
    }

    /** The newest logged batch; empty when none. A bad newest file throws rather than falling back. */
    public Optional<LogEntry<OffsetSeq>> getLatest() {
        return log.getLatest();
    }

    /** The newest logged batch id, without reading the file. */
    public OptionalLong latestId() {
        return log.latestId();
    }

    /** Logged batch ids, ascending. */
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

    /**
     * The error for a logged offset its source cannot read back ({@code {"logOffset":"x"}}): names the file, the
     * source and the source's own reason.
     */
    public CorruptCheckpointException badOffset(long batchId, int source, String sourceName, RuntimeException cause) {
        return CorruptCheckpointException.badFile(fileFor(batchId), "source " + source + " (" + sourceName
                + ") cannot read its offset: " + cause.getMessage(), FileFormat.CANNOT_START + " Put "
                + "back the file as the query wrote it (from a backup), or " + FileFormat.RESTORE_OR_START_OVER, cause);
    }

    /**
     * The error for a batch whose logged end for a source is before the previous batch's end: resuming would read
     * that source's data again. Names both files, what went back, and the way out.
     */
    public CorruptCheckpointException wentBackwards(long batchId, int source, String sourceName, String what) {
        return CorruptCheckpointException.badFile(fileFor(batchId), "the end it logs for source " + source + " ("
                + sourceName + ") is before the end of the previous batch in " + fileFor(batchId - 1) + ": " + what
                + "; offsets never go backwards, so one of the two files was edited or copied from another "
                + "checkpoint", "Resuming would read that data again (duplicates). Put back the file as the query "
                + "wrote it (from a backup), or " + FileFormat.RESTORE_OR_START_OVER, null);
    }

    /** Serializes the metadata line exactly as Spark: these keys, this order, compact. */
    static String metadataJson(OffsetSeq s) {
        return FileFormat.json(g -> {
            g.writeStartObject();
            g.writeNumberField("batchWatermarkMs", s.batchWatermarkMs());
            g.writeNumberField("batchTimestampMs", s.batchTimestampMs());
            g.writeObjectFieldStart("conf");
            for (Map.Entry<String, String> e : s.conf().entrySet()) {
                g.writeStringField(e.getKey(), e.getValue());
            }
            g.writeEndObject();
            g.writeEndObject();
        });
    }

    private static String advise(long id, long newest, Folder commitsDir) {
        String restore = FileFormat.RESTORE_OR_START_OVER;
        String cannotStart = FileFormat.CANNOT_START + " ";
        if (id < newest) {
            return cannotStart + "It is not the newest batch (offsets/" + newest
                    + " exists), so deleting it is not safe: " + restore;
        }
        if (committed(commitsDir, id)) {
            return cannotStart + "Batch " + id + " was already committed (commits/" + id
                    + " exists), so deleting this file is not safe: " + restore;
        }
        // Deleting the newest uncommitted entry makes the query plan that batch again, possibly with a different
        // range; only a sink that already committed that batch id would then skip rows, hence the caveat.
        return cannotStart + "It is the newest batch and was never committed (there is no commits/" + id
                + "), so you may delete this file to have the query plan batch " + id
                + " again (safe unless the sink already committed batch " + id + "); otherwise " + restore;
    }

    private static boolean committed(Folder commitsDir, long id) {
        try {
            return commitsDir.exists(Long.toString(id));
        } catch (java.io.IOException e) {
            return false; // the advice is a courtesy; the real error is the bad file
        }
    }

    private static final class Codec implements BatchLog.Codec<OffsetSeq> {

        @Override
        public List<String> encode(OffsetSeq value) {
            List<String> lines = new ArrayList<>(1 + value.offsets().size());
            lines.add(metadataJson(value));
            for (String offset : value.offsets()) {
                lines.add(offset == null ? NO_OFFSET : offset);
            }
            return lines;
        }

        @Override
        public OffsetSeq decode(List<String> lines) throws Malformed {
            // Version, metadata, and at least one source: a query always has a source.
            if (lines.size() < 3) {
                throw new Malformed("expected at least 3 lines, found " + lines.size());
            }
            Map<String, Object> meta = FileFormat.object(FileFormat.parse(lines.get(1), "line 2"));
            if (meta == null) {
                throw new Malformed("line 2 is not a JSON object");
            }
            long watermark = FileFormat.longField(meta, "batchWatermarkMs", "line 2", 0L);
            long timestamp = FileFormat.longField(meta, "batchTimestampMs", "line 2", 0L);
            Map<String, String> conf = new LinkedHashMap<>();
            Object confValue = meta.get("conf");
            if (confValue != null) {
                Map<String, Object> confNode = FileFormat.object(confValue);
                if (confNode == null) {
                    throw new Malformed("line 2: \"conf\" is not a JSON object");
                }
                for (Map.Entry<String, Object> e : confNode.entrySet()) {
                    if (!(e.getValue() instanceof String v)) {
                        throw new Malformed("line 2: conf \"" + e.getKey() + "\" is not a string");
                    }
                    conf.put(e.getKey(), v);
                }
            }
            List<String> offsets = new ArrayList<>(lines.size() - 2);
            for (int i = 2; i < lines.size(); i++) {
                String line = lines.get(i);
                if (line.equals(NO_OFFSET)) {
                    offsets.add(null);
                } else {
                    FileFormat.parse(line, "line " + (i + 1) + " (the offset of source " + (i - 2) + ")");
                    offsets.add(line); // verbatim: offsets are compared by their JSON text
                }
            }
            return new OffsetSeq(watermark, timestamp, conf, offsets);
        }
    }
}
