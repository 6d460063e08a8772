package io.sluice.kafka;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.sluice.api.Offset;
import org.apache.kafka.common.TopicPartition;

import java.io.IOException;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A position per topic-partition, Spark's {@code KafkaSourceOffset}: JSON {@code {"t":{"0":23,"1":-1}}}, sorted
 * by topic then partition; each value is the next offset to read (or -2 earliest / -1 latest in options).
 */
record PartitionOffsets(Map<TopicPartition, Long> offsets) implements Offset {
    static final Comparator<TopicPartition> ORDER =
            Comparator.comparing(TopicPartition::topic).thenComparingInt(TopicPartition::partition);
    private static final JsonFactory JSON = new JsonFactory();

    PartitionOffsets {
        TreeMap<TopicPartition, Long> sorted = new TreeMap<>(ORDER);
        sorted.putAll(offsets);
        offsets = Collections.unmodifiableMap(sorted);
    }

    static TreeMap<TopicPartition, Long> newMap() {
        return new TreeMap<>(ORDER);
    }

    @Override
    public String json() {
        return json(offsets);
    }

    static String json(Map<TopicPartition, Long> offsets) {
        TreeMap<String, TreeMap<Integer, Long>> byTopic = new TreeMap<>();
        offsets.forEach((tp, o) -> byTopic.computeIfAbsent(tp.topic(), t -> new TreeMap<>()).put(tp.partition(), o));
        StringWriter w = new StringWriter();
        try (JsonGenerator g = JSON.createGenerator(w)) {
            g.writeStartObject();
            for (var t : byTopic.entrySet()) {
                g.writeObjectFieldStart(t.getKey());
                for (var p : t.getValue().entrySet()) {
                    g.writeNumberField(Integer.toString(p.getKey()), p.getValue());
                }
                g.writeEndObject();
            }
            g.writeEndObject();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return w.toString();
    }

    /** Reads {@code {"t":{"0":23}}}; the error names what was expected, as Spark's JsonUtils does. */
    static PartitionOffsets parse(String json) {
        Map<TopicPartition, Long> out = newMap();
        try (JsonParser p = JSON.createParser(json)) {
            expect(p.nextToken() == JsonToken.START_OBJECT);
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String topic = p.currentName();
                expect(p.nextToken() == JsonToken.START_OBJECT);
                while (p.nextToken() == JsonToken.FIELD_NAME) {
                    int partition = Integer.parseInt(p.currentName());
                    expect(p.nextToken() == JsonToken.VALUE_NUMBER_INT);
                    out.put(new TopicPartition(topic, partition), p.getLongValue());
                }
            }
            expect(p.currentToken() == JsonToken.END_OBJECT && p.nextToken() == null);
        } catch (IOException | RuntimeException e) {
            throw new IllegalArgumentException(
                    "Expected e.g. {\"topicA\":{\"0\":23,\"1\":-1},\"topicB\":{\"0\":-2}}, got " + json);
        }
        return new PartitionOffsets(out);
    }

    /** Reads Spark's assign form {@code {"topicA":[0,1],"topicB":[0,1]}}. */
    static List<TopicPartition> parsePartitions(String json) {
        List<TopicPartition> out = new ArrayList<>();
        try (JsonParser p = JSON.createParser(json)) {
            expect(p.nextToken() == JsonToken.START_OBJECT);
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String topic = p.currentName();
                expect(p.nextToken() == JsonToken.START_ARRAY);
                while (p.nextToken() == JsonToken.VALUE_NUMBER_INT) {
                    out.add(new TopicPartition(topic, p.getIntValue()));
                }
                expect(p.currentToken() == JsonToken.END_ARRAY);
            }
            expect(p.currentToken() == JsonToken.END_OBJECT && p.nextToken() == null);
        } catch (IOException | RuntimeException e) {
            throw new IllegalArgumentException("Expected e.g. {\"topicA\":[0,1],\"topicB\":[0,1]}, got " + json);
        }
        return out;
    }

    private static void expect(boolean ok) {
        if (!ok) {
            throw new IllegalStateException("unexpected token");
        }
    }

    @Override
    public String toString() {
        return json();
    }
}
