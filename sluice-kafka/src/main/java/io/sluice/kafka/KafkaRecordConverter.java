package io.sluice.kafka;

import io.sluice.api.Row;
import io.sluice.api.types.DataType;
import io.sluice.api.types.StructType;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Turns rows of the query's output schema into producer records, as Spark's KafkaWriter does: {@code value}
 * (string or binary) is required; {@code key} (string or binary), {@code partition} (int), {@code headers}
 * (array&lt;struct&lt;key:string,value:binary&gt;&gt;) and {@code timestamp} (timestamp or double seconds) are optional;
 * {@code topic} (string) is required unless the {@code topic} option is set, which then wins over the column.
 * Strings are written as UTF-8. Immutable and thread-safe.
 */
final class KafkaRecordConverter {
    static final String HEADERS_TYPE = "array<struct<key:string,value:binary>>";

    private final String topicOption;
    private final int topic;
    private final int key;
    private final int value;
    private final int partition;
    private final int headers;
    private final int timestamp;

    private KafkaRecordConverter(String topicOption, int topic, int key, int value, int partition, int headers,
                                 int timestamp) {
        this.topicOption = topicOption;
        this.topic = topic;
        this.key = key;
        this.value = value;
        this.partition = partition;
        this.headers = headers;
        this.timestamp = timestamp;
    }

    /**
     * Checks the schema with Spark's messages.
     *
     * @throws IllegalArgumentException for a missing column or a column of a type the sink cannot write
     */
    static KafkaRecordConverter forSchema(StructType schema, Optional<String> topicOption) {
        int topic = -1;
        if (topicOption.isEmpty()) {
            topic = column(schema, "topic", List.of("string"), true,
                    "topic option required when no 'topic' attribute is present. Use the topic option for "
                            + "setting a topic.");
        }
        int key = column(schema, "key", List.of("string", "binary"), false, null);
        int value = column(schema, "value", List.of("string", "binary"), true,
                "Required attribute 'value' not found");
        int headers = column(schema, "headers", List.of(HEADERS_TYPE), false, null);
        int partition = column(schema, "partition", List.of("int"), false, null);
        int timestamp = column(schema, "timestamp", List.of("double", "timestamp"), false, null);
        return new KafkaRecordConverter(topicOption.orElse(null), topic, key, value, partition, headers, timestamp);
    }

    private static int column(StructType schema, String name, List<String> accepted, boolean required,
                              String missing) {
        int i = schema.indexOf(name);
        if (i < 0) {
            if (required) {
                throw new IllegalArgumentException(missing);
            }
            return -1;
        }
        // simpleString leaves nullability out, so this compares types as Spark's sameType does.
        DataType type = schema.field(i).dataType();
        if (!accepted.contains(type.simpleString())) {
            throw new IllegalArgumentException(name + " attribute unsupported type " + type.simpleString() + ". "
                    + name + " must be a(n) " + String.join(" or ", accepted));
        }
        return i;
    }

    /** The topic a row goes to (the option, else the row's column). */
    String topicOf(Row row) {
        if (topicOption != null) {
            return topicOption;
        }
        String t = (String) row.get(topic);
        if (t == null) {
            throw new NullPointerException(
                    "null topic present in the data. Use the topic option for setting a default topic.");
        }
        return t;
    }

    ProducerRecord<byte[], byte[]> toRecord(Row row) {
        String t = topicOf(row);
        byte[] k = key < 0 ? null : bytes(row.get(key));
        byte[] v = bytes(row.get(value));
        Integer p = partition < 0 ? null : (Integer) row.get(partition);
        Long ts = timestamp < 0 ? null : millis(row.get(timestamp));
        List<Header> hs = headers < 0 ? null : headers(row.getList(headers));
        return new ProducerRecord<>(t, p, ts, k, v, hs);
    }

    private static byte[] bytes(Object o) {
        if (o == null) {
            return null;
        }
        return o instanceof String s ? s.getBytes(StandardCharsets.UTF_8) : (byte[]) o;
    }

    private static Long millis(Object o) {
        if (o == null) {
            return null;
        }
        if (o instanceof Instant i) {
            return i.toEpochMilli();
        }
        // A double is seconds since the epoch, as Spark's cast of a double to a timestamp reads it.
        return (long) Math.floor(((Double) o) * 1000.0);
    }

    private static List<Header> headers(List<Row> rows) {
        if (rows == null) {
            return null;
        }
        List<Header> out = new ArrayList<>(rows.size());
        for (Row h : rows) {
            out.add(new RecordHeader((String) h.get(0), (byte[]) h.get(1)));
        }
        return out;
    }
}
