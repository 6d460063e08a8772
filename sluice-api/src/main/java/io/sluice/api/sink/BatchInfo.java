package io.sluice.api.sink;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;

/**
 * What one micro-batch is: the query it belongs to, its id, and the range it reads, as the engine wrote it to the
 * checkpoint's offset log ({@code offsets/N}) before reading anything. Handed to
 * {@link Sink#beginBatch(BatchInfo)}.
 *
 * <p>Callers may rely on: a batch the engine re-runs after a crash (logged, not committed) has the same query id,
 * batch id and {@link #endOffsets()}, hence the same {@link #digest()}, as the attempt that crashed. A batch id that
 * comes back with a different digest is not a re-run: the checkpoint was restored from an older copy than the
 * sink's output (or another query's checkpoint was used). A sink that skips batch ids it already holds should
 * record the digest with the batch and fail with {@link #rangeConflict} on a mismatch, instead of skipping rows
 * that were never written.
 *
 * @param queryId    the checkpoint's query id (stable across restarts; the same in a restored copy)
 * @param batchId    the batch id (0, 1, ...)
 * @param endOffsets each source's end offset JSON exactly as in {@code offsets/N} (one per source, in source
 *                   order; {@code -} for a source that has no offset yet). Empty when unknown: a sink called
 *                   through {@link Sink#beginBatch(long)} directly
 */
public record BatchInfo(String queryId, long batchId, List<String> endOffsets) {

    /** The offset log's text for a source with no offset. */
    public static final String NO_OFFSET = "-";

    public BatchInfo {
        Objects.requireNonNull(queryId, "queryId");
        endOffsets = List.copyOf(endOffsets);
    }

    /** A batch whose range is unknown (tests, or a sink used outside the engine): {@link #known()} is false. */
    public static BatchInfo unknown(String queryId, long batchId) {
        return new BatchInfo(queryId, batchId, List.of());
    }

    /** True when the range is known, so {@link #digest()} identifies the batch. */
    public boolean known() {
        return !endOffsets.isEmpty();
    }

    /**
     * The first 16 hex digits of the SHA-256 of the end offsets (joined by {@code \n}): short enough for a Kafka
     * offset's metadata or a database column, and the same for the same range in any JVM. Empty when not
     * {@link #known()}.
     */
    public String digest() {
        if (!known()) {
            return "";
        }
        try {
            byte[] sha = MessageDigest.getInstance("SHA-256")
                    .digest(String.join("\n", endOffsets).getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(sha, 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every JVM", e);
        }
    }

    /** The range for messages: the end offsets joined by {@code , } in brackets, e.g. {@code [{"logOffset":3}]}. */
    public String range() {
        return "[" + String.join(", ", endOffsets) + "]";
    }

    /**
     * The message of a sink that already holds this batch id written for another range: it names the batch, both
     * ranges and the two ways out. Every built-in sink uses it, so users see one wording.
     *
     * @param sink        the sink and its output, e.g. {@code the file sink /data/out}
     * @param writtenFor  what the sink recorded for the batch, e.g. a range or {@code digest 0f3a...}
     * @param now         this batch, in the same form, e.g. {@link #range()} or {@code "digest " + digest()}
     * @param newOutput   what a fresh start needs besides a fresh checkpoint, e.g. {@code a new output folder}
     */
    public String rangeConflict(String sink, String writtenFor, String now, String newOutput) {
        return "Batch " + batchId + " of query " + queryId + " is already in " + sink + ", written for another range: "
                + writtenFor + "; this run's checkpoint has batch " + batchId + " for " + now + ". The checkpoint was "
                + "restored from an older copy than the sink's output (or belongs to another query), so skipping the "
                + "batch would lose its rows and mark them read. Either (a) start over with a fresh checkpoint and "
                + newOutput + ", or (b) restore the sink's output to the same point as the checkpoint (e.g. restore "
                + "both from the same backup), then restart.";
    }
}
