package io.sluice.cli;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.sluice.core.SourceProgress;
import io.sluice.core.StreamingQueryProgress;

import java.io.IOException;
import java.util.HashMap;
import java.util.LinkedHashMap;
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
 *
 * <p>Offsets are read with Jackson's streaming parser, not its ObjectMapper: creating a mapper costs about 150 ms
 * at start-up (dates, locales, introspection), longer than a whole one-batch run.
 */
final class Backlog {
    private static final JsonFactory JSON = new JsonFactory();

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
        Object end = offsets(endJson);
        Object latest = offsets(latestJson);
        if (end instanceof Long e && latest instanceof Long l) {
            return OptionalLong.of(Math.max(0, l - e));
        }
        if (!(end instanceof Map<?, ?> endTopics) || !(latest instanceof Map<?, ?> latestTopics)) {
            return OptionalLong.empty();
        }
        long sum = 0;
        for (Map.Entry<?, ?> topic : latestTopics.entrySet()) {
            Map<?, ?> endTopic = (Map<?, ?>) endTopics.get(topic.getKey());
            for (Map.Entry<?, ?> part : ((Map<?, ?>) topic.getValue()).entrySet()) {
                Object endPart = endTopic == null ? null : endTopic.get(part.getKey());
                if (endPart != null) {
                    sum += Math.max(0, (Long) part.getValue() - (Long) endPart);
                }
            }
        }
        return OptionalLong.of(sum);
    }

    /**
     * An offset's JSON as a {@link Long} (a whole number) or as topic to partition to offset (a non-empty object of
     * objects of whole numbers, as {@code {"topic":{"0":12,"1":7}}}); null for anything else, or no JSON.
     */
    private static Object offsets(String json) {
        if (json == null) {
            return null;
        }
        try (JsonParser p = JSON.createParser(json)) {
            JsonToken first = p.nextToken();
            Object value = first == JsonToken.VALUE_NUMBER_INT ? (Object) p.getLongValue()
                    : first == JsonToken.START_OBJECT ? topics(p) : null;
            return value != null && p.nextToken() == null ? value : null;
        } catch (IOException e) {
            return null; // not JSON, or a number beyond a long
        }
    }

    /** After the outer object's start: its topics, or null when it is empty or not Kafka-shaped. */
    private static Map<String, Map<String, Long>> topics(JsonParser p) throws IOException {
        Map<String, Map<String, Long>> topics = new LinkedHashMap<>();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String topic = p.currentName();
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return null;
            }
            Map<String, Long> partitions = new LinkedHashMap<>();
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String partition = p.currentName();
                if (p.nextToken() != JsonToken.VALUE_NUMBER_INT) {
                    return null;
                }
                partitions.put(partition, p.getLongValue());
            }
            topics.put(topic, partitions);
        }
        return topics.isEmpty() ? null : topics;
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
