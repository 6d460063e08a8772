package io.sluice.kafka;

import io.sluice.api.Row;
import io.sluice.core.StreamingQuery;
import io.sluice.core.StreamingQueryProgress;
import io.sluice.core.Trigger;
import io.sluice.core.sinks.MemorySink;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class KafkaSourceTest extends KafkaTestBase {

    @Test
    void readsEveryPartitionWithExactRowsAndOffsets() throws Exception {
        String t = createTopic("rows", 3);
        sendRange(t, 0, 0, 3);
        sendRange(t, 1, 0, 2);
        StreamingQuery q = toMemory(kafka().option("subscribe", t).option("startingOffsets", "earliest").load(),
                tmp.resolve("chk"), Trigger.processingTime(0));
        q.processAllAvailable();
        assertThat(sorted(received())).containsExactly("0:0=0:0", "0:1=0:1", "0:2=0:2", "1:0=1:0", "1:1=1:1");
        Row r = MemorySink.rows(sinkName).get(0);
        assertThat(r.getString(2)).isEqualTo(t);
        assertThat(r.get(0)).isNull();
        assertThat(r.getTimestamp(5)).isBefore(Instant.now().plusSeconds(1));
        assertThat(r.getInt(6)).isZero();
        assertThat(r.size()).isEqualTo(7);

        sendRange(t, 2, 0, 2);
        sendRange(t, 0, 3, 4);
        q.processAllAvailable();
        assertThat(sorted(received())).containsExactly("0:0=0:0", "0:1=0:1", "0:2=0:2", "0:3=0:3", "1:0=1:0",
                "1:1=1:1", "2:0=2:0", "2:1=2:1");
        StreamingQueryProgress p = q.lastProgress();
        assertThat(p.sources().get(0).endOffset()).isEqualTo("{\"" + t + "\":{\"0\":4,\"1\":2,\"2\":2}}");
        assertThat(p.sources().get(0).description()).isEqualTo("KafkaV2[Subscribe[" + t + "]]");
        q.stop();
        // Spark's layout: the initial offsets in the source's folder, as batch 0 of a metadata log.
        assertThat(Files.readString(tmp.resolve("chk/sources/0/0")))
                .isEqualTo("v1\n{\"" + t + "\":{\"0\":0,\"1\":0,\"2\":0}}");
        assertThat(Files.readString(tmp.resolve("chk/offsets/0"))).contains("{\"" + t + "\":{\"0\":3,\"1\":2,\"2\":0}}");
    }

    @Test
    void aQuerysWhereOnPartitionAndOffsetIsPushedIntoTheSourceAndTheOffsetsStayWhole() throws Exception {
        String t = createTopic("pushed", 3);
        for (int p = 0; p < 3; p++) {
            sendRange(t, p, 0, 4);
        }
        StreamingQuery q = toMemory(kafka().option("subscribe", t).option("startingOffsets", "earliest").load()
                .where("partition = 1 AND offset >= 2"), tmp.resolve("chk"), Trigger.availableNow());
        q.awaitTermination();
        assertThat(sorted(received())).containsExactly("1:2=1:2", "1:3=1:3");
        StreamingQueryProgress p = q.lastProgress();
        // Only the records the filters admit were read (the engine counts the source's rows), yet the logged
        // offsets are every partition's end, as without the filter.
        assertThat(p.sources().get(0).numInputRows()).isEqualTo(2);
        assertThat(p.sources().get(0).endOffset()).isEqualTo("{\"" + t + "\":{\"0\":4,\"1\":4,\"2\":4}}");
    }

    @Test
    void headersAreAStructListOrNull() throws Exception {
        String t = createTopic("headers", 1);
        ProducerRecord<String, String> withHeaders = new ProducerRecord<>(t, 0, "k", "v1");
        withHeaders.headers().add(new RecordHeader("h1", "a".getBytes(StandardCharsets.UTF_8)));
        withHeaders.headers().add(new RecordHeader("h2", (byte[]) null));
        producer.send(withHeaders).get();
        send(t, 0, "v2");
        StreamingQuery q = toMemory(kafka().option("subscribe", t).option("startingOffsets", "earliest")
                .option("includeHeaders", "true").load(), tmp.resolve("chk"), Trigger.availableNow());
        q.awaitTermination();
        List<Row> rows = MemorySink.rows(sinkName);
        assertThat(rows).hasSize(2);
        assertThat(new String(rows.get(0).getBinary(0), StandardCharsets.UTF_8)).isEqualTo("k");
        List<Row> h = rows.get(0).getList(7);
        assertThat(h).containsExactly(Row.of("h1", "a".getBytes(StandardCharsets.UTF_8)), Row.of("h2", null));
        assertThat(rows.get(1).get(7)).isNull();
    }

    @Test
    void subscribePatternAndAssign() throws Exception {
        String prefix = topic("pat");
        admin.createTopics(List.of(new org.apache.kafka.clients.admin.NewTopic(prefix + "-a", 1, (short) 1),
                new org.apache.kafka.clients.admin.NewTopic(prefix + "-b", 2, (short) 1))).all().get();
        send(prefix + "-a", 0, "a0");
        send(prefix + "-b", 0, "b0");
        send(prefix + "-b", 1, "b1");
        StreamingQuery q = toMemory(kafka().option("subscribePattern", prefix.replace("-", "\\-") + "-[ab]")
                .option("startingOffsets", "earliest").load(), tmp.resolve("p"), Trigger.availableNow());
        q.awaitTermination();
        assertThat(sorted(received())).containsExactly("0:0=a0", "0:0=b0", "1:0=b1");
        MemorySink.clear(sinkName);
        StreamingQuery a = toMemory(kafka().option("assign", "{\"" + prefix + "-b\":[1]}")
                .option("startingOffsets", "earliest").load(), tmp.resolve("a"), Trigger.availableNow());
        a.awaitTermination();
        assertThat(received()).containsExactly("1:0=b1");
    }

    @Test
    void minPartitionsAndMaxRecordsPerPartitionSplitRanges() throws Exception {
        String t = createTopic("split", 2);
        sendRange(t, 0, 0, 10);
        sendRange(t, 1, 0, 2);
        KafkaMicroBatchStream s = (KafkaMicroBatchStream) new KafkaSourceProvider().createStream(
                new io.sluice.api.source.StreamContext(io.sluice.api.Options.of(java.util.Map.of(
                        "kafka.bootstrap.servers", bootstrap, "subscribe", t, "startingOffsets", "earliest",
                        "minPartitions", "4")), KafkaSourceProvider.SCHEMA, tmp, io.sluice.api.SluiceClock.system(),
                        "q", 0));
        try {
            var start = s.initialOffset();
            var end = s.latestOffset(start, s.defaultReadLimit());
            assertThat(s.planPartitions(start, end)).containsExactly(
                    new KafkaInputPartition(new org.apache.kafka.common.TopicPartition(t, 0), 0, 3),
                    new KafkaInputPartition(new org.apache.kafka.common.TopicPartition(t, 0), 3, 6),
                    new KafkaInputPartition(new org.apache.kafka.common.TopicPartition(t, 0), 6, 10),
                    new KafkaInputPartition(new org.apache.kafka.common.TopicPartition(t, 1), 0, 2));
        } finally {
            s.stop();
        }
        MemorySink.clear(sinkName);
        StreamingQuery q = toMemory(kafka().option("subscribe", t).option("startingOffsets", "earliest")
                .option("maxRecordsPerPartition", "3").load(), tmp.resolve("chk"), Trigger.availableNow());
        q.awaitTermination();
        assertThat(received()).hasSize(12);
        assertThat(sorted(received())).startsWith("0:0=0:0", "0:1=0:1");
    }
}
