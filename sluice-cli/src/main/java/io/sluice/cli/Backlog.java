package io.sluice.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sluice.core.SourceProgress;
import io.sluice.core.StreamingQueryProgress;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * How much of an availableNow backlog is drained, followed over a query's progress reports. Per source, the first
 * measure it has decides:
 * <ol>
 *   <li>{@code numFilesOutstanding} in the source's metrics (files left): drained = taken / (taken + left) when the
 *       source also reports {@code numFilesTaken} (files this run has put into batches, as Sluice's file source
 *       does), else 1 - left / the most seen left;</li>
 *   <li>{@code numBytesOutstanding} (with {@code numBytesTaken}) likewise, in bytes;</li>
 *   <li>offsets behind latest, from the source's {@code endOffset} and {@code latestOffset} when both are a whole
 *       number or a Kafka-shaped {@code {"topic":{"partition":offset}}}: drained = rows read so far / (rows read so
 *       far + offsets behind).</li>
 * </ol>
 * A source with none of these (rate-micro-batch, memory) has no backlog to show. Not thread-safe: one listener
 * thread feeds it.
 */
final class Backlog {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** Per source index: the most files or bytes seen outstanding. */
    private final Map<Integer, Long> peak = new HashMap<>();
    /** Per source index: rows read since the view started. */
    private final Map<Integer, Long> rowsRead = new HashMap<>();

    /** What is drained and what is left, in one unit: {@code files}, {@code bytes} or {@code offsets}. */
    record Drain(long done, long total, String unit) {
        double fraction() {
            return total <= 0 ? 1.0 : Math.min(1.0, (double) done / total);
        }

        long remaining() {
            return Math.max(0, total - done);
        }
    }

    /** Takes one progress report; the backlog after it, or null when no source measures one. */
    Drain update(StreamingQueryProgress progress) {
        List<SourceProgress> sources = progress.sources();
        String unit = null;
        long done = 0;
        long total = 0;
        for (int i = 0; i < sources.size(); i++) {
            SourceProgress s = sources.get(i);
            rowsRead.merge(i, s.numInputRows(), Long::sum);
            Drain d = measure(i, s);
            if (d == null || (unit != null && !unit.equals(d.unit()))) {
                continue; // units cannot be added up; the first source's unit wins
            }
            unit = d.unit();
            done += d.done();
            total += d.total();
        }
        return unit == null ? null : new Drain(done, total, unit);
    }

    private Drain measure(int i, SourceProgress s) {
        for (String[] metric : new String[][]{
                {"numFilesOutstanding", "numFilesTaken", "files"}, {"numBytesOutstanding", "numBytesTaken", "bytes"}}) {
            OptionalLong left = wholeNumber(s.metrics().get(metric[0]));
            if (left.isPresent()) {
                OptionalLong taken = wholeNumber(s.metrics().get(metric[1]));
                if (taken.isPresent()) {
                    // Taken so far by this run plus what is left: right from the first batch on.
                    return new Drain(taken.getAsLong(), taken.getAsLong() + left.getAsLong(), metric[2]);
                }
                long max = peak.merge(i, left.getAsLong(), Math::max);
                return new Drain(max - left.getAsLong(), max, metric[2]);
            }
        }
        OptionalLong behind = behind(s.endOffset(), s.latestOffset());
        if (behind.isPresent()) {
            long read = rowsRead.getOrDefault(i, 0L);
            return new Drain(read, read + behind.getAsLong(), "offsets");
        }
        return null;
    }

    /** latest - end, summed over partitions; empty unless both offsets have one of the known shapes. */
    static OptionalLong behind(String endJson, String latestJson) {
        if (endJson == null || latestJson == null) {
            return OptionalLong.empty();
        }
        JsonNode end;
        JsonNode latest;
        try {
            end = JSON.readTree(endJson);
            latest = JSON.readTree(latestJson);
        } catch (Exception e) {
            return OptionalLong.empty();
        }
        if (end == null || latest == null) {
            return OptionalLong.empty();
        }
        if (end.isIntegralNumber() && latest.isIntegralNumber()) {
            return OptionalLong.of(Math.max(0, latest.longValue() - end.longValue()));
        }
        if (!kafkaShaped(end) || !kafkaShaped(latest)) {
            return OptionalLong.empty();
        }
        long sum = 0;
        for (Map.Entry<String, JsonNode> topic : latest.properties()) {
            JsonNode endTopic = end.get(topic.getKey());
            for (Map.Entry<String, JsonNode> part : topic.getValue().properties()) {
                JsonNode endPart = endTopic == null ? null : endTopic.get(part.getKey());
                if (endPart != null) {
                    sum += Math.max(0, part.getValue().longValue() - endPart.longValue());
                }
            }
        }
        return OptionalLong.of(sum);
    }

    /** An object of objects of whole numbers, as {@code {"topic":{"0":12,"1":7}}}. */
    private static boolean kafkaShaped(JsonNode node) {
        if (!node.isObject() || node.isEmpty()) {
            return false;
        }
        for (JsonNode topic : node) {
            if (!topic.isObject()) {
                return false;
            }
            for (JsonNode offset : topic) {
                if (!offset.isIntegralNumber()) {
                    return false;
                }
            }
        }
        return true;
    }

    private static OptionalLong wholeNumber(String text) {
        if (text == null) {
            return OptionalLong.empty();
        }
        try {
            return OptionalLong.of(Math.max(0, Long.parseLong(text.trim())));
        } catch (NumberFormatException e) {
            return OptionalLong.empty();
        }
    }
}
