package io.sluice.core.checkpoint;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The content of {@code offsets/N}: the end offsets of batch N for every source, in source order, with the batch's
 * metadata. Spark's OffsetSeq with its OffsetSeqMetadata folded in.
 *
 * <p>Callers may rely on: {@code conf} keeps insertion order (it is written in that order) and {@code offsets}
 * keeps null elements; both are unmodifiable copies. Every non-null offset is valid JSON on one line, so any
 * instance can be written and read back equal.
 *
 * @param batchWatermarkMs the event-time watermark in force for the batch (0 when none)
 * @param batchTimestampMs the batch's processing time, epoch milliseconds
 * @param conf             settings that must stay the same across restarts of the query, written with the batch
 * @param offsets          per source, the offset JSON exactly as the source produced it, or null when the source
 *                         has no offset yet (written as {@code -})
 */
public record OffsetSeq(long batchWatermarkMs, long batchTimestampMs, Map<String, String> conf, List<String> offsets) {

    public OffsetSeq {
        Objects.requireNonNull(conf, "conf");
        Objects.requireNonNull(offsets, "offsets");
        LinkedHashMap<String, String> confCopy = new LinkedHashMap<>();
        conf.forEach((k, v) -> confCopy.put(Objects.requireNonNull(k, "conf key"),
                Objects.requireNonNull(v, () -> "conf value of " + k)));
        conf = Collections.unmodifiableMap(confCopy);
        List<String> offsetsCopy = new ArrayList<>(offsets);
        for (int i = 0; i < offsetsCopy.size(); i++) {
            String json = offsetsCopy.get(i);
            if (json == null) {
                continue;
            }
            // The log is line-based and writes offsets verbatim (they are compared as strings): a line break
            // would split an offset in two and shift every later source.
            if (json.indexOf('\n') >= 0 || json.indexOf('\r') >= 0) {
                throw new IllegalArgumentException("The offset of source " + i
                        + " contains a line break; an offset must be JSON on one line: " + json);
            }
            // Refuse now what could not be read back after a restart.
            if (!FileFormat.isJson(json)) {
                throw new IllegalArgumentException("The offset of source " + i + " is not valid JSON: " + json);
            }
        }
        offsets = Collections.unmodifiableList(offsetsCopy);
    }

    /** Offsets with no watermark and no conf. */
    public static OffsetSeq of(long batchTimestampMs, List<String> offsets) {
        return new OffsetSeq(0L, batchTimestampMs, Map.of(), offsets);
    }
}
