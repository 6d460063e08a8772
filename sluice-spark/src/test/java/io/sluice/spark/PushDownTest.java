package io.sluice.spark;

import io.sluice.api.Offset;
import io.sluice.api.Options;
import io.sluice.api.ReadLimit;
import io.sluice.api.SluiceClock;
import io.sluice.api.source.InputPartition;
import io.sluice.api.source.MicroBatchStream;
import io.sluice.api.source.PartitionReader;
import io.sluice.api.source.PushDown;
import io.sluice.api.source.StreamContext;
import io.sluice.kafka.KafkaSourceProvider;
import io.sluice.kafka.broker.SharedLocalKafkaBroker;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Column pruning and filters pushed down from {@code spark.read()} to the Sluice sources that use them (Kafka and
 * files), with the exact rows, what the scan reports, and what was not read.
 */
class PushDownTest {
    private static SparkSession spark;

    @TempDir
    Path dir;

    @BeforeAll
    static void startSpark() {
        spark = SharedSpark.get();
    }

    private static String plan(Dataset<Row> df) {
        return df.queryExecution().executedPlan().toString();
    }

    private static List<String> rows(Dataset<Row> df) {
        List<String> out = new ArrayList<>();
        df.collectAsList().forEach(r -> out.add(r.toString()));
        return out;
    }

    // ------------------------------------------------------------------ Kafka

    @Test
    void kafkaFiltersOnPartitionAndOffsetAreExactAndPlanOnlyTheirRange() throws Exception {
        String topic = SparkBridgeTest.kafkaTopic();
        Dataset<Row> all = spark.read().format("sluice-kafka")
                .option("kafka.bootstrap.servers", SharedLocalKafkaBroker.get().bootstrapServers())
                .option("subscribe", topic).load();
        Dataset<Row> df = all.where("partition = 1 AND offset >= 2").selectExpr("CAST(value AS STRING) AS v");

        assertThat(rows(df)).containsExactly("[v9]", "[v10]", "[v11]");
        // One topic-partition planned (partition 0 is not read), from offset 2; Spark filters nothing again.
        assertThat(df.rdd().getNumPartitions()).isEqualTo(1);
        assertThat(all.rdd().getNumPartitions()).isEqualTo(2);
        assertThat(plan(df)).contains("Sluice[kafka] PushedFilters: [IsNotNull(partition), IsNotNull(offset), "
                + "EqualTo(partition,1), GreaterThanOrEqual(offset,2)], ReadSchema: struct<value:binary>")
                .doesNotContain("Filter ");
        // A timestamp filter is exact too: each reader tests every record.
        assertThat(rows(all.where("timestamp > TIMESTAMP'2100-01-01 00:00:00'").select("offset"))).isEmpty();
        assertThat(rows(all.where("offset IN (1, 3) AND partition = 0").select("offset"))).containsExactly("[1]",
                "[3]");
    }

    @Test
    void kafkaHeadersAreNotBuiltWhenTheReadDoesNotRequireThem() throws Exception {
        String bootstrap = SharedLocalKafkaBroker.get().bootstrapServers();
        String topic = SparkBridgeTest.newTopic("headers-", 1);
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap), new StringSerializer(), new StringSerializer())) {
            ProducerRecord<String, String> r = new ProducerRecord<>(topic, 0, "k", "v");
            r.headers().add(new RecordHeader("h", "x".getBytes(StandardCharsets.UTF_8)));
            producer.send(r).get();
        }
        Map<String, String> options = Map.of("kafka.bootstrap.servers", bootstrap, "subscribe", topic,
                "includeHeaders", "true");
        KafkaSourceProvider provider = new KafkaSourceProvider();
        var schema = provider.resolveSchema(Options.of(options), java.util.Optional.empty(), true);

        List<io.sluice.api.Row> full = read(provider, options, schema, PushDown.none(schema));
        List<io.sluice.api.Row> pruned = read(provider, options, schema, new PushDown(Set.of("value"), List.of()));

        assertThat(full).hasSize(1);
        assertThat(full.get(0).get(7)).isEqualTo(List.of(io.sluice.api.Row.of("h", "x".getBytes(
                StandardCharsets.UTF_8))));
        assertThat(pruned).hasSize(1);
        assertThat(pruned.get(0).get(1)).isEqualTo("v".getBytes(StandardCharsets.UTF_8));
        assertThat(pruned.get(0).get(7)).as("headers not built").isNull();
    }

    /** A one-off read of every partition with this push-down, as the bridge's executors make it. */
    private List<io.sluice.api.Row> read(KafkaSourceProvider provider, Map<String, String> options,
                                         io.sluice.api.types.StructType schema, PushDown pushDown) throws Exception {
        Path scratch = Files.createTempDirectory(dir, "kafka-");
        MicroBatchStream stream = provider.createStream(new StreamContext(Options.of(options), schema, scratch,
                SluiceClock.system(), "q", 0, true), pushDown);
        List<io.sluice.api.Row> out = new ArrayList<>();
        try {
            Offset start = stream.initialOffset();
            Offset end = stream.latestOffset(start, ReadLimit.allAvailable());
            for (InputPartition p : stream.planPartitions(start, end)) {
                try (PartitionReader r = stream.createReader(p)) {
                    while (r.next()) {
                        out.add(r.get());
                    }
                }
            }
        } finally {
            stream.stop();
        }
        return out;
    }

    // ------------------------------------------------------------------ files

    @Test
    void fileFiltersOnPartitionColumnsSkipWholeFoldersAndSparkEvaluatesThemAgain() throws Exception {
        Files.createDirectories(dir.resolve("p=1"));
        Files.createDirectories(dir.resolve("p=2"));
        Files.writeString(dir.resolve("p=1/a.json"), "{\"n\":1}\n{\"n\":2}\n");
        // Never opened when p = 1 is pushed: FAILFAST would fail the read on it.
        Files.writeString(dir.resolve("p=2/b.json"), "not json\n");
        Dataset<Row> all = spark.read().format("sluice-json").schema("n int, p int").option("mode", "FAILFAST")
                .load(dir.toString());

        Dataset<Row> df = all.where("p = 1");
        assertThat(rows(df)).containsExactly("[1,1]", "[2,1]");
        assertThat(plan(df)).contains("Sluice[json] PushedFilters: [IsNotNull(p), EqualTo(p,1)], ReadSchema: "
                + "struct<n:int,p:int>").contains("Filter ");
        assertThatThrownBy(() -> all.collectAsList()).hasStackTraceContaining("b.json");
        assertThat(rows(all.where("p IN (1, 3) AND n > 1"))).containsExactly("[2,1]");
        assertThat(rows(all.where("p = 1").select("p"))).containsExactly("[1]", "[1]");
    }

    @Test
    void theJsonFormatParsesOnlyTheColumnsTheReadRequires() throws Exception {
        Files.writeString(dir.resolve("a.json"), "{\"n\":1,\"bad\":\"x\"}\n{\"n\":2,\"bad\":3}\n");
        Dataset<Row> all = spark.read().format("sluice-json").schema("n int, bad int").option("mode", "FAILFAST")
                .load(dir.toString());

        Dataset<Row> df = all.select("n");
        assertThat(rows(df)).containsExactly("[1]", "[2]");
        assertThat(plan(df)).contains("Sluice[json] PushedFilters: [], ReadSchema: struct<n:int>");
        // The column it did not parse is the one that would fail the read.
        assertThatThrownBy(() -> all.collectAsList()).hasStackTraceContaining("a.json");
        // A read that requires no column (a count) finds the same records.
        Files.writeString(dir.resolve("b.json"), "{\"n\":3}\n\n{\"n\":4}\n");
        Dataset<Row> counted = spark.read().format("sluice-json").schema("n int, bad int").load(dir.toString());
        assertThat(counted.count()).isEqualTo(4);
        assertThat(plan(counted.selectExpr("count(*)"))).contains("ReadSchema: struct<>");
    }
}
