package io.sluice.api.sink;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;

/**
 * What one micro-batch is: the query it belongs to, its id, and its entry in the checkpoint's offset log
 * ({@code offsets/N}: when it was planned and the range it reads), written before anything is read. Handed to
 * {@link Sink#beginBatch(BatchInfo)}.
 *
 * <p>Callers may rely on: a batch the engine re-runs after a crash (logged, not committed) has the same query id,
 * batch id, {@link #plannedAtMs()} and {@link #endOffsets()}, hence the same {@link #digest()}, as the attempt that
 * crashed. A batch id that comes back with a different digest is not a re-run but a batch planned again: the
 * checkpoint was restored from an older copy than the sink's output. The planning time is part of the identity
 * because equal offsets do not always mean equal rows: the file source's offset is a position in its own log of
 * files, so a restored checkpoint plans batch N as {@code {"logOffset":N}} again, over other files. A sink that skips batch ids it already holds should
 * record the digest with the batch and fail with {@link #rangeConflict} on a mismatch, instead of skipping rows
 * that were never written.
 *
 * @param queryId    the checkpoint's query id (stable across restarts; the same in a restored copy)
 * @param batchId    the batch id (0, 1, ...)
 * @param plannedAtMs the batch's {@code batchTimestampMs} in {@code offsets/N} (epoch ms, the engine's clock when it
 *                   planned the batch); -1 when unknown
 * @param endOffsets each source's end offset JSON exactly as in {@code offsets/N} (one per source, in source
 *                   order; {@code -} for a source that has no offset yet). Empty when unknown: a sink called
 *                   through {@link Sink#beginBatch(long)} directly
 */
public record BatchInfo(String queryId, long batchId, long plannedAtMs, List<String> endOffsets) {

    /** The offset log's text for a source with no offset. */
    public static final String NO_OFFSET = "-";

    public BatchInfo {
        Objects.requireNonNull(queryId, "queryId");
        endOffsets = List.copyOf(endOffsets);
    }

    /** A batch whose range is unknown (tests, or a sink used outside the engine): {@link #known()} is false. */
    public static BatchInfo unknown(String queryId, long batchId) {
        return new BatchInfo(queryId, batchId, -1, List.of());
    }

    /** True when the range is known, so {@link #digest()} identifies the batch. */
    public boolean known() {
        return !endOffsets.isEmpty();
    }

    /**
     * The first 16 hex digits of the SHA-256 of {@link #plannedAtMs()} and the end offsets (one per line): short
     * enough for a Kafka offset's metadata or a database column, and the same for the same logged batch in any
     * JVM. Empty when not {@link #known()}.
     */
    public String digest() {
        if (!known()) {
            return "";
        }
        try {
            byte[] sha = MessageDigest.getInstance("SHA-256")
                    .digest((plannedAtMs + "\n" + String.join("\n", endOffsets)).getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(sha, 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every JVM", e);
        }
    }

    /**
     * The batch for messages: {@code offsets [<end offsets joined by ", ">] planned at <ISO-8601 instant>}, e.g.
     * {@code offsets [{"logOffset":3}] planned at 2026-10-02T00:00:00Z}.
     */
    public String range() {
        return describe(plannedAtMs, endOffsets);
    }

    /** {@link #range()} of a batch recorded elsewhere (a sink's own record of what it wrote). */
    public static String describe(long plannedAtMs, List<String> endOffsets) {
        return "offsets [" + String.join(", ", endOffsets) + "] planned at " + Instant.ofEpochMilli(plannedAtMs);
    }

    /**
     * The message of a sink that already holds this batch id written for another range: it names the batch, both
     * ranges and the two ways out. Every built-in sink uses it, so users see one wording.
     *
     * @param sink        the sink and its output, e.g. {@code the file sink /data/out}
     * @param writtenFor  what the sink recorded for the batch, e.g. {@link #describe} of it or {@code digest 0f3a...}
     * @param now         this batch, in the same form, e.g. {@link #range()} or {@code "digest " + digest()}
     * @param newOutput   what a fresh start needs besides a fresh checkpoint, e.g. {@code a new output folder}
     */
    public String rangeConflict(String sink, String writtenFor, String now, String newOutput) {
        return "Batch " + batchId + " of query " + queryId + " is already in " + sink + ", written for another plan "
                + "of that batch: " + writtenFor + "; this run's checkpoint plans batch " + batchId + " as " + now
                + ". The checkpoint was restored from an older copy than the sink's output, so skipping the batch "
                + "would lose its rows and mark them read. Either (a) start over with a fresh checkpoint and "
                + newOutput + ", or (b) restore the sink's output to the same point as the checkpoint (e.g. restore "
                + "both from the same backup), then restart.";
    }
}
