package io.sluice.spark;

import io.sluice.api.InvalidOptionException;
import io.sluice.api.Row;
import io.sluice.api.types.StructType;
import io.sluice.core.Sluice;
import io.sluice.core.StreamingQuery;
import io.sluice.core.Trigger;
import io.sluice.core.sinks.MemorySink;
import io.sluice.examples.ledger.LedgerServer;
import io.sluice.kafka.KafkaSourceProvider;
import io.sluice.kafka.broker.SharedLocalKafkaBroker;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.spark.api.java.function.VoidFunction2;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.DataStreamReader;
import org.apache.spark.sql.streaming.StreamingQueryException;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * The bridge in Spark local mode: for each source, the rows Spark reads through the bridge equal the rows Sluice
 * reads natively for the same input and options, batch by batch. One SparkSession for the whole class (its start
 * is the slow part).
 */
class SparkBridgeTest {
    private static SparkSession spark;
    /** What each Spark query's foreachBatch saw: query tag -> batch id -> rows. */
    private static final Map<String, Map<Long, List<Row>>> SEEN = new ConcurrentHashMap<>();
    /** A query tag whose foreachBatch fails on this batch id (to leave offsets/N without commits/N). */
    private static final Map<String, Long> FAIL_ON = new ConcurrentHashMap<>();

    @TempDir
    Path dir;

    @BeforeAll
    static void startSpark() {
        spark = SharedSpark.get();
    }

    // ------------------------------------------------------------------ helpers

    private DataStreamReader sparkStream(String source) {
        return spark.readStream().format("sluice").option(SluiceSparkSource.SOURCE_OPTION, source);
    }

    /** Starts a Spark query whose batches are collected under {@code tag}. */
    private static org.apache.spark.sql.streaming.StreamingQuery collect(Dataset<org.apache.spark.sql.Row> df,
            String tag, StructType schema, Path checkpoint, org.apache.spark.sql.streaming.Trigger trigger)
            throws Exception {
        SEEN.put(tag, new ConcurrentHashMap<>());
        return df.writeStream()
                .option("checkpointLocation", checkpoint.toString())
                .trigger(trigger)
                .foreachBatch((VoidFunction2<Dataset<org.apache.spark.sql.Row>, Long>) (batch, id) -> {
                    Long fail = FAIL_ON.get(tag);
                    if (fail != null && fail.equals(id)) {
                        throw new IllegalStateException("sink fails on batch " + id);
                    }
                    SEEN.get(tag).put(id, SparkRows.toSluice(batch.collectAsList(), schema));
                })
                .start();
    }

    private static Map<Long, List<Row>> seen(String tag) {
        return new TreeMap<>(SEEN.get(tag));
    }

    /** The source's line of {@code offsets/N} (Spark's layout, which Sluice shares): its last line. */
    private static String loggedOffset(Path checkpoint, long batch) throws IOException {
        List<String> lines = Files.readAllLines(checkpoint.resolve("offsets").resolve(Long.toString(batch)));
        return lines.get(lines.size() - 1);
    }

    private static void writeJson(Path folder, String name, long modifiedSeconds, String... lines) throws IOException {
        Path f = folder.resolve(name);
        Files.writeString(f, String.join("\n", lines) + "\n", StandardCharsets.UTF_8);
        Files.setLastModifiedTime(f, FileTime.from(Instant.ofEpochSecond(modifiedSeconds)));
    }

    // ------------------------------------------------------------------ rate-micro-batch

    @Test
    void rateMicroBatchReadsTheSameRowsAndOffsetsAsSluice() throws Exception {
        Map<String, String> options = Map.of("rowsPerBatch", "10", "numPartitions", "3", "startTimestamp", "1000",
                "advanceMillisPerBatch", "500");
        StructType schema = StructType.fromDDL("timestamp timestamp, value bigint");

        var query = collect(sparkStream("rate-micro-batch").options(options).load(), "rate", schema,
                dir.resolve("spark"), org.apache.spark.sql.streaming.Trigger.ProcessingTime(0));
        await().atMost(Duration.ofSeconds(60)).until(() -> SEEN.get("rate").size() >= 3);
        query.stop();

        Map<Long, List<Row>> sluiceBatches;
        try (Sluice sluice = Sluice.local()) {
            StreamingQuery q = sluice.readStream().format("rate-micro-batch").options(options).load().writeStream()
                    .format("memory").queryName("rate-native")
                    .option("checkpointLocation", dir.resolve("sluice").toString()).start();
            await().atMost(Duration.ofSeconds(30)).until(() -> MemorySink.batches("rate-native").size() >= 3);
            q.stop();
            sluiceBatches = MemorySink.batches("rate-native");
        }

        Map<Long, List<Row>> sparkBatches = seen("rate");
        for (long b = 0; b < 3; b++) {
            assertThat(sparkBatches.get(b)).as("batch %d", b).containsExactlyElementsOf(sluiceBatches.get(b));
            assertThat(loggedOffset(dir.resolve("spark"), b)).isEqualTo(loggedOffset(dir.resolve("sluice"), b));
        }
        assertThat(sparkBatches.get(1L)).hasSize(10).contains(Row.of(Instant.ofEpochMilli(1500), 10L));
        assertThat(loggedOffset(dir.resolve("spark"), 0)).isEqualTo("{\"offset\":10,\"timestamp\":1500}");
    }

    @Test
    void aSparkShortNamePerBuiltInSourceAndBatchReads() throws Exception {
        List<org.apache.spark.sql.Row> rows = spark.read().format("sluice-rate-micro-batch")
                .option("rowsPerBatch", 4).option("numPartitions", 2).option("startTimestamp", 5000).load()
                .collectAsList();
        List<Row> native_;
        try (Sluice sluice = Sluice.local()) {
            native_ = sluice.read().format("rate-micro-batch").option("rowsPerBatch", 4)
                    .option("numPartitions", 2).option("startTimestamp", 5000).load().collectAsList();
        }
        assertThat(SparkRows.toSluice(rows, StructType.fromDDL("timestamp timestamp, value bigint")))
                .containsExactlyElementsOf(native_)
                .containsExactlyInAnyOrder(Row.of(Instant.ofEpochMilli(5000), 0L),
                        Row.of(Instant.ofEpochMilli(5000), 1L), Row.of(Instant.ofEpochMilli(5000), 2L),
                        Row.of(Instant.ofEpochMilli(5000), 3L));
    }

    @Test
    void sourcesOnSparkReadZoneLessTimestampsInSparksSessionTimeZone() throws Exception {
        Path in = Files.createDirectories(dir.resolve("zone"));
        Files.writeString(in.resolve("a.json"), "{\"t\":\"2020-01-01 12:00\"}\n");
        String before = spark.conf().get("spark.sql.session.timeZone");
        spark.conf().set("spark.sql.session.timeZone", "America/Los_Angeles");
        try {
            List<Object> sluice = spark.read().format("sluice-json").schema("t timestamp").load(in.toString())
                    .collectAsList().stream().map(r -> instant(r.get(0))).collect(Collectors.toList());
            List<Object> own = spark.read().format("json").schema("t timestamp").load(in.toString())
                    .collectAsList().stream().map(r -> instant(r.get(0))).collect(Collectors.toList());
            assertThat(sluice).containsExactly(Instant.parse("2020-01-01T20:00:00Z")).isEqualTo(own);
        } finally {
            spark.conf().set("spark.sql.session.timeZone", before);
        }
    }

    private static Object instant(Object v) {
        return v instanceof java.sql.Timestamp ts ? ts.toInstant() : v;
    }

    @Test
    void everySourceShippedWithSluiceReadsUnderItsSparkShortName() throws Exception {
        Path in = Files.createDirectories(dir.resolve("files"));
        Files.writeString(in.resolve("a.json"), "{\"n\":1,\"s\":\"a\"}\n{\"n\":2,\"s\":\"b\"}\n");
        Path csv = Files.createDirectories(dir.resolve("csv"));
        Files.writeString(csv.resolve("a.csv"), "3,c\n4,d\n");
        Path text = Files.createDirectories(dir.resolve("text"));
        Files.writeString(text.resolve("a.txt"), "x\ny\n");
        assertThat(spark.read().format("sluice-json").schema("n int, s string").load(in.toString())
                .collectAsList()).map(Object::toString).containsExactly("[1,a]", "[2,b]");
        assertThat(spark.read().format("sluice-csv").schema("n int, s string").load(csv.toString())
                .collectAsList()).map(Object::toString).containsExactly("[3,c]", "[4,d]");
        assertThat(spark.read().format("sluice-text").load(text.toString()).collectAsList())
                .map(Object::toString).containsExactly("[x]", "[y]");

        String topic = kafkaTopic();
        assertThat(spark.read().format("sluice-kafka")
                .option("kafka.bootstrap.servers", SharedLocalKafkaBroker.get().bootstrapServers())
                .option("subscribe", topic).load()
                .selectExpr("CAST(value AS STRING)", "partition", "offset").orderBy("partition", "offset")
                .collectAsList()).map(Object::toString).containsExactly("[v0,0,0]", "[v1,0,1]", "[v2,0,2]",
                "[v3,0,3]", "[v4,0,4]", "[v5,0,5]", "[v6,0,6]", "[v7,1,0]", "[v8,1,1]", "[v9,1,2]", "[v10,1,3]",
                "[v11,1,4]");

        var rate = collect(spark.readStream().format("sluice-rate").option("rowsPerSecond", 100).load(),
                "short-rate", StructType.fromDDL("timestamp timestamp, value bigint"), dir.resolve("rate"),
                org.apache.spark.sql.streaming.Trigger.ProcessingTime(0));
        await().atMost(Duration.ofSeconds(60)).until(() -> SEEN.get("short-rate").values().stream()
                .mapToInt(List::size).sum() >= 3);
        rate.stop();
        List<Long> values = new ArrayList<>();
        seen("short-rate").values().forEach(rows -> rows.forEach(r -> values.add((Long) r.get(1))));
        assertThat(values).contains(0L, 1L, 2L);
        // rate-micro-batch: aSparkShortNamePerBuiltInSourceAndBatchReads.

        // The sources whose rows live in the driver's stream resolve too, and are refused with their reason.
        assertThatThrownBy(() -> spark.readStream().format("sluice-socket").option("host", "localhost")
                .option("port", 9).load())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("The Sluice source 'socket' cannot run on Spark: ");
        assertThatThrownBy(() -> spark.read().format("sluice-memory").load())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("The Sluice source 'memory' cannot run on Spark: ");
    }

    // ------------------------------------------------------------------ types

    @Test
    void everySluiceTypeArrivesInSparkWithItsExactValue() throws Exception {
        Dataset<org.apache.spark.sql.Row> df = spark.read().format("sluice")
                .option(SluiceSparkSource.SOURCE_OPTION, "all-types").load();
        assertThat(df.schema()).isEqualTo(SparkTypes.toSpark(AllTypesSource.SCHEMA));
        assertThat(df.schema().simpleString()).isEqualTo(AllTypesSource.SCHEMA.simpleString());
        List<Row> read = SparkRows.toSluice(df.collectAsList(), AllTypesSource.SCHEMA);
        assertThat(read).containsExactlyElementsOf(AllTypesSource.rows());
        try (Sluice sluice = Sluice.local()) {
            assertThat(read).containsExactlyElementsOf(sluice.read().format("all-types").load().collectAsList());
        }
    }

    @Test
    void aStreamWithoutAvailableNowSupportRunsOneBatchUnderAvailableNowAsInSpark() throws Exception {
        AllTypesSource.CONTEXTS.clear();
        var query = collect(sparkStream("all-types").option("someOption", "x").load(), "types",
                AllTypesSource.SCHEMA, dir.resolve("chk"), org.apache.spark.sql.streaming.Trigger.AvailableNow());
        assertThat(query.awaitTermination(60_000)).isTrue();
        assertThat(seen("types")).containsOnlyKeys(0L);
        assertThat(seen("types").get(0L)).containsExactlyElementsOf(AllTypesSource.rows());

        // The driver's stream gets Spark's folder for the source and Spark's query id; the executor's stream the
        // same id, options and schema, on a scratch folder.
        List<io.sluice.api.source.StreamContext> contexts = List.copyOf(AllTypesSource.CONTEXTS);
        assertThat(contexts).hasSize(2);
        var driver = contexts.get(0);
        assertThat(driver.metadataPath()).isEqualTo(dir.resolve("chk/sources/0")).isDirectory();
        assertThat(driver.queryId()).isEqualTo(query.id().toString());
        assertThat(driver.sourceIndex()).isZero();
        assertThat(driver.bounded()).isFalse();
        assertThat(driver.options().asMap()).isEqualTo(Map.of("someOption", "x"));
        assertThat(driver.schema()).isEqualTo(AllTypesSource.SCHEMA);
        var executor = contexts.get(1);
        assertThat(executor.metadataPath()).isNotEqualTo(driver.metadataPath()).doesNotExist();
        // The executor's folder (path and location) is its own.
        assertThat(executor).usingRecursiveComparison().ignoringFields("metadataPath", "metadataLocation", "clock")
                .isEqualTo(driver);
    }

    // ------------------------------------------------------------------ the file source

    private static final String EVENTS = "id bigint, name string, at timestamp";

    private Path eventFiles(int files) throws IOException {
        Path in = Files.createDirectories(dir.resolve("in"));
        for (int f = 0; f < files; f++) {
            writeJson(in, "f" + f + ".json", 1_700_000_000L + f,
                    "{\"id\":" + (2 * f) + ",\"name\":\"n" + (2 * f) + "\",\"at\":\"2026-01-0" + (1 + f) + "T00:00:00Z\"}",
                    "{\"id\":" + (2 * f + 1) + ",\"name\":null}");
        }
        return in;
    }

    private static List<Row> eventsOfFile(int f) {
        return List.of(Row.of(2L * f, "n" + (2 * f), Instant.parse("2026-01-0" + (1 + f) + "T00:00:00Z")),
                Row.of(2L * f + 1, null, null));
    }

    @Test
    void jsonFilesWithMaxFilesPerTriggerHaveTheSameBatchesAndAvailableNowStops() throws Exception {
        Path in = eventFiles(5);
        StructType schema = StructType.fromDDL(EVENTS);

        var query = collect(sparkStream("json").schema(EVENTS).option("maxFilesPerTrigger", 2).load(in.toString()),
                "json", schema, dir.resolve("spark"), org.apache.spark.sql.streaming.Trigger.AvailableNow());
        assertThat(query.awaitTermination(60_000)).as("availableNow drains and stops").isTrue();

        Map<Long, List<Row>> sluiceBatches;
        try (Sluice sluice = Sluice.local()) {
            StreamingQuery q = sluice.readStream().format("json").schema(EVENTS).option("maxFilesPerTrigger", 2)
                    .load(in.toString()).writeStream().format("memory").queryName("json-native")
                    .option("checkpointLocation", dir.resolve("sluice").toString())
                    .trigger(Trigger.availableNow()).start();
            await().atMost(Duration.ofSeconds(30)).until(() -> !q.isActive());
            sluiceBatches = MemorySink.batches("json-native");
        }

        Map<Long, List<Row>> sparkBatches = seen("json");
        assertThat(sparkBatches).containsOnlyKeys(0L, 1L, 2L);
        assertThat(sparkBatches).isEqualTo(sluiceBatches);
        assertThat(sparkBatches.get(0L)).containsExactlyElementsOf(concat(eventsOfFile(0), eventsOfFile(1)));
        assertThat(sparkBatches.get(1L)).containsExactlyElementsOf(concat(eventsOfFile(2), eventsOfFile(3)));
        assertThat(sparkBatches.get(2L)).containsExactlyElementsOf(eventsOfFile(4));
        for (long b = 0; b < 3; b++) {
            assertThat(loggedOffset(dir.resolve("spark"), b)).isEqualTo("{\"logOffset\":" + b + "}")
                    .isEqualTo(loggedOffset(dir.resolve("sluice"), b));
        }
        // The source's metrics and description reach Spark's progress (ReportsSourceMetrics, toString).
        var source = query.recentProgress()[0].sources()[0];
        assertThat(source.description()).isEqualTo("FileStreamSource[file:" + in + "]");
        assertThat(source.metrics()).containsEntry("numFilesOutstanding", "3")
                .containsEntry("numFilesChangedAfterRead", "0").containsKey("numBytesOutstanding");
        // The file source's own state lives in the folder Spark gives it.
        assertThat(dir.resolve("spark/sources/0")).isDirectory();
        assertThat(Files.list(dir.resolve("spark/sources/0")).map(p -> p.getFileName().toString()))
                .contains("0", "1", "2");
    }

    @Test
    void aRestartFromSparksCheckpointReRunsThePendingBatchWithItsLoggedRange() throws Exception {
        Path in = eventFiles(4);
        Path chk = dir.resolve("spark");
        StructType schema = StructType.fromDDL(EVENTS);
        FAIL_ON.put("restart", 1L);
        try {
            var failing = collect(sparkStream("json").schema(EVENTS).option("maxFilesPerTrigger", 2)
                    .load(in.toString()), "restart", schema, chk, org.apache.spark.sql.streaming.Trigger.AvailableNow());
            assertThatThrownBy(() -> failing.awaitTermination(60_000)).isInstanceOf(StreamingQueryException.class)
                    .hasStackTraceContaining("sink fails on batch 1");
        } finally {
            FAIL_ON.remove("restart");
        }
        assertThat(chk.resolve("offsets/1")).exists();
        assertThat(chk.resolve("commits/1")).doesNotExist();
        String pending = loggedOffset(chk, 1);
        assertThat(pending).isEqualTo("{\"logOffset\":1}");
        assertThat(seen("restart")).containsOnlyKeys(0L);

        writeJson(in, "f4.json", 1_700_000_004L, "{\"id\":8,\"name\":\"n8\",\"at\":\"2026-01-05T00:00:00Z\"}",
                "{\"id\":9,\"name\":null}");
        var again = collect(sparkStream("json").schema(EVENTS).option("maxFilesPerTrigger", 2).load(in.toString()),
                "restart", schema, chk, org.apache.spark.sql.streaming.Trigger.AvailableNow());
        assertThat(again.awaitTermination(60_000)).isTrue();

        assertThat(loggedOffset(chk, 1)).isEqualTo(pending);
        assertThat(seen("restart")).containsOnlyKeys(1L, 2L);
        assertThat(seen("restart").get(1L)).containsExactlyElementsOf(concat(eventsOfFile(2), eventsOfFile(3)));
        assertThat(seen("restart").get(2L)).containsExactlyElementsOf(eventsOfFile(4));
    }

    // ------------------------------------------------------------------ options

    @Test
    void optionErrorsFailAtLoadWithTheSourcesOwnMessage() {
        // avro, parquet: sluice-avro and sluice-parquet are on this module's test class path (SparkAvroTest, SparkParquetTest)
        assertThatThrownBy(() -> spark.readStream().format("sluice").load())
                .isInstanceOf(InvalidOptionException.class)
                .hasMessageStartingWith("Option 'sluice.source' is missing: name the Sluice source to read, e.g. "
                        + "option(\"sluice.source\", \"rate-micro-batch\"). Available: all-types, avro, changes, "
                        + "changes-naive, csv, json, kafka, ledger, parquet, probe, rate, rate-micro-batch, text");
        assertThatThrownBy(() -> sparkStream("rat").load())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("Unknown Sluice source 'rat'. Available: all-types, avro, changes, "
                        + "changes-naive, csv, json, kafka, ledger, parquet, probe, rate, rate-micro-batch, text. A Sluice source is found when");
        assertThatThrownBy(() -> sparkStream("rate-micro-batch").option("rowsPerBatch", 0).load())
                .isInstanceOf(InvalidOptionException.class)
                .hasMessage("Invalid value '0'. The option 'rowsPerBatch' must be positive");
        assertThatThrownBy(() -> spark.readStream().format("sluice-rate").option("sluice.source", "json").load())
                .isInstanceOf(InvalidOptionException.class)
                .hasMessage("Invalid value 'json' for option 'sluice.source': format 'sluice-rate' reads the Sluice "
                        + "source 'rate': leave the option out, or use format(\"sluice\")");
        // A schema Spark inferred through the bridge is the source's own; a schema the user gives is the user's.
        assertThatThrownBy(() -> sparkStream("kafka").schema("a int").option("subscribe", "t")
                .option("kafka.bootstrap.servers", "localhost:9").load())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Kafka source has a fixed schema and cannot be set with a custom one");
        assertThatThrownBy(() -> sparkStream("json").load(dir.toString()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("Schema must be specified when creating a streaming source DataFrame");
        assertThatThrownBy(() -> sparkStream("rate").schema("a timestamp_ntz").load())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Column 'a' has type timestamp_ntz, which Sluice sources cannot produce. Accepted: "
                        + "boolean, tinyint, smallint, int, bigint, float, double, decimal(p,s), string, binary, "
                        + "date, timestamp, and arrays, maps and structs of them");
    }

    // ------------------------------------------------------------------ executors' streams

    @Test
    void anExecutorJvmMakesOneStreamPerQuerySourceAndStopsItWithTheQuery() throws Exception {
        ProbeSource.MADE.clear();
        ProbeSource.STOPPED.clear();
        var query = collect(sparkStream("probe").load(), "probe", ProbeSource.SCHEMA, dir.resolve("chk"),
                org.apache.spark.sql.streaming.Trigger.ProcessingTime(0));
        await().atMost(Duration.ofSeconds(60)).until(() -> SEEN.get("probe").size() >= 3);
        query.processAllAvailable();
        assertThat(seen("probe")).containsOnlyKeys(0L, 1L, 2L);
        for (long b = 0; b < 3; b++) {
            assertThat(seen("probe").get(b)).containsExactly(Row.of(10 * (b + 1)), Row.of(10 * (b + 1) + 1),
                    Row.of(10 * (b + 1) + 2));
        }
        // Nine partitions in three batches, read by one stream of this JVM (local mode), besides the driver's.
        List<io.sluice.api.source.StreamContext> made = List.copyOf(ProbeSource.MADE);
        assertThat(made).hasSize(2);
        Path scratch = made.get(1).metadataPath();
        assertThat(scratch).isNotEqualTo(dir.resolve("chk/sources/0")).isDirectory();
        assertThat(ProbeSource.STOPPED).isEmpty();
        assertThat(ExecutorStreams.size()).isEqualTo(1);

        query.stop();
        // The driver's stream stops, and with it the executors' stream of the same query and source.
        assertThat(ProbeSource.STOPPED).containsExactlyInAnyOrderElementsOf(made);
        assertThat(scratch).doesNotExist();
        assertThat(ExecutorStreams.size()).isZero();
    }

    // ------------------------------------------------------------------ sources whose readers need their stream

    @Test
    void sourcesWhoseReadersNeedTheStreamThatPlannedThemAreRefusedWithTheirReason() throws Exception {
        // Marked on the provider (DriverLocalReaders): refused at load(), before the source checks its options.
        assertThatThrownBy(() -> sparkStream("socket").option("host", "localhost").option("port", 9).load())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("The Sluice source 'socket' cannot run on Spark: Spark's executors read partitions on "
                        + "streams of their own, but its readers need the stream that planned them, because its rows "
                        + "are the lines that stream received, kept in its memory: use Spark's own socket source, "
                        + "format(\"socket\")");
        assertThatThrownBy(() -> spark.read().format("sluice").option("sluice.source", "MEMORY").load())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("The Sluice source 'MEMORY' cannot run on Spark: Spark's executors read partitions on "
                        + "streams of their own, but its readers need the stream that planned them, because its rows "
                        + "are the ones added to a MemoryStream of the driver's JVM: use Spark's MemoryStream in "
                        + "Spark's own tests");

        // A simple DataSource: its stream is marked, so the refusal comes when the stream is made. An executor's
        // fresh reader could only call readBetweenOffsets, which for this source replays a staging log that is in
        // the driver's checkpoint folder, not in the executor's scratch folder.
        String simple = "The Sluice source 'changes' cannot run on Spark: Spark's executors read partitions on "
                + "streams of their own, but its readers need the stream that planned them, because it is a simple "
                + "DataSource: SimpleDataSourceStreamReader.read(start) reads each batch's rows on the query thread "
                + "and keeps them in that stream, and readBetweenOffsets may replay them only from what that side "
                + "staged; implement streamReader(context) instead, whose read(partition) depends on the partition "
                + "and the options alone";
        var query = collect(sparkStream("changes").option("url", "http://127.0.0.1:9").load(), "changes",
                StructType.fromDDL("n bigint, change string"), dir.resolve("chk"),
                org.apache.spark.sql.streaming.Trigger.AvailableNow());
        assertThatThrownBy(() -> query.awaitTermination(60_000)).isInstanceOf(StreamingQueryException.class)
                .cause().isInstanceOf(IllegalArgumentException.class).hasMessage(simple);
        assertThat(seen("changes")).isEmpty();
        assertThatThrownBy(() -> spark.read().format("sluice").option("sluice.source", "changes")
                .option("url", "http://127.0.0.1:9").load().collectAsList())
                .isInstanceOf(IllegalArgumentException.class).hasMessage(simple);
    }

    // ------------------------------------------------------------------ a custom source from the examples

    private static final StructType LEDGER = StructType.fromDDL(
            "seq bigint, account string, amountCents bigint, ts timestamp");

    private static List<Row> ledgerRows(long from, long to) {
        List<Row> out = new ArrayList<>();
        for (long s = from; s <= to; s++) {
            out.add(Row.of(s, "acct-" + (s % 3 + 1), s * 10, Instant.parse("2025-01-01T00:00:00Z").plusSeconds(s - 1)));
        }
        return out;
    }

    @Test
    void theLedgerExampleSourceFoundByItsServiceFileReadsTheSameBatchesOnSparkAsOnSluice() throws Exception {
        try (LedgerServer ledger = LedgerServer.start()) {
            ledger.appendMany(25);
            // maxRowsPerBatch is the ledger's read limit (ReadLimit.maxRows, Spark's ReadMaxRows); rowsPerPartition
            // makes three partitions per batch, read on Spark's executor threads by fresh readers over HTTP.
            Map<String, String> options = Map.of("url", ledger.url(), "maxRowsPerBatch", "10",
                    "rowsPerPartition", "4");

            var query = collect(sparkStream("ledger").options(options).load(), "ledger", LEDGER,
                    dir.resolve("spark"), org.apache.spark.sql.streaming.Trigger.AvailableNow());
            assertThat(query.awaitTermination(60_000)).as("availableNow drains and stops").isTrue();

            Map<Long, List<Row>> sluiceBatches;
            try (Sluice sluice = Sluice.local()) {
                StreamingQuery q = sluice.readStream().format("ledger").options(options).load().writeStream()
                        .format("memory").queryName("ledger-native")
                        .option("checkpointLocation", dir.resolve("sluice").toString())
                        .trigger(Trigger.availableNow()).start();
                await().atMost(Duration.ofSeconds(30)).until(() -> !q.isActive());
                sluiceBatches = MemorySink.batches("ledger-native");
            }

            Map<Long, List<Row>> sparkBatches = seen("ledger");
            assertThat(sparkBatches).containsOnlyKeys(0L, 1L, 2L).isEqualTo(sluiceBatches);
            assertThat(sparkBatches.get(0L)).containsExactlyElementsOf(ledgerRows(1, 10));
            assertThat(sparkBatches.get(1L)).containsExactlyElementsOf(ledgerRows(11, 20));
            assertThat(sparkBatches.get(2L)).containsExactlyElementsOf(ledgerRows(21, 25));
            long[] ends = {10, 20, 25};
            for (int b = 0; b < 3; b++) {
                assertThat(loggedOffset(dir.resolve("spark"), b)).isEqualTo("{\"seq\":" + ends[b] + "}")
                        .isEqualTo(loggedOffset(dir.resolve("sluice"), b));
            }
            assertThat(query.recentProgress()[0].sources()[0].description()).isEqualTo("DataSource[ledger]");
        }
    }

    // ------------------------------------------------------------------ Kafka

    @Test
    void kafkaWithMaxOffsetsPerTriggerHasTheSameBatchesAndOffsetsOnSparkAsOnSluice() throws Exception {
        String bootstrap = SharedLocalKafkaBroker.get().bootstrapServers();
        String topic = kafkaTopic();
        Map<String, String> options = Map.of("kafka.bootstrap.servers", bootstrap, "subscribe", topic,
                "startingOffsets", "earliest", "maxOffsetsPerTrigger", "5");
        StructType schema = KafkaSourceProvider.SCHEMA;

        var query = collect(sparkStream("kafka").options(options).load(), "kafka", schema, dir.resolve("spark"),
                org.apache.spark.sql.streaming.Trigger.AvailableNow());
        assertThat(query.awaitTermination(60_000)).as("availableNow drains and stops").isTrue();

        Map<Long, List<Row>> sluiceBatches;
        try (Sluice sluice = Sluice.local()) {
            StreamingQuery q = sluice.readStream().format("kafka").options(options).load().writeStream()
                    .format("memory").queryName("kafka-native")
                    .option("checkpointLocation", dir.resolve("sluice").toString())
                    .trigger(Trigger.availableNow()).start();
            await().atMost(Duration.ofSeconds(30)).until(() -> !q.isActive());
            sluiceBatches = MemorySink.batches("kafka-native");
        }

        Map<Long, List<Row>> sparkBatches = seen("kafka");
        assertThat(sparkBatches).hasSize(3).isEqualTo(sluiceBatches);
        for (long b = 0; b < 3; b++) {
            assertThat(sparkBatches.get(b)).as("batch %d", b).hasSizeLessThanOrEqualTo(5);
            assertThat(loggedOffset(dir.resolve("spark"), b)).isEqualTo(loggedOffset(dir.resolve("sluice"), b));
        }
        assertThat(loggedOffset(dir.resolve("spark"), 2)).isEqualTo("{\"" + topic + "\":{\"0\":7,\"1\":5}}");
        List<String> values = new ArrayList<>();
        sparkBatches.values().forEach(rows -> rows.forEach(r -> values.add(
                new String((byte[]) r.get(1), java.nio.charset.StandardCharsets.UTF_8))));
        assertThat(values).containsExactlyInAnyOrder("v0", "v1", "v2", "v3", "v4", "v5", "v6", "v7", "v8", "v9",
                "v10", "v11");
        Row first = sparkBatches.get(0L).get(0);
        assertThat(first.get(2)).isEqualTo(topic);
        assertThat(first.get(0)).isEqualTo("k0".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        assertThat(first.get(5)).isInstanceOf(Instant.class);
    }

    /**
     * A new 2-partition topic on the shared test broker with records k0/v0 ... k11/v11: 0-6 in partition 0
     * (offsets 0-6), 7-11 in partition 1 (offsets 0-4).
     */
    static String kafkaTopic() throws Exception {
        String bootstrap = SharedLocalKafkaBroker.get().bootstrapServers();
        String topic = newTopic("bridge-", 2);
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap), new StringSerializer(), new StringSerializer())) {
            for (int i = 0; i < 12; i++) {
                int partition = i < 7 ? 0 : 1;
                // The producer's own timestamp: an old one would let the broker's retention delete the records.
                producer.send(new ProducerRecord<>(topic, partition, "k" + i, "v" + i)).get();
            }
        }
        return topic;
    }

    /** A new topic of this many partitions on the shared test broker. */
    static String newTopic(String prefix, int partitions) throws Exception {
        String topic = prefix + UUID.randomUUID().toString().substring(0, 8);
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                SharedLocalKafkaBroker.get().bootstrapServers()))) {
            admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1))).all().get();
        }
        return topic;
    }

    private static List<Row> concat(List<Row> a, List<Row> b) {
        List<Row> out = new ArrayList<>(a);
        out.addAll(b);
        return out;
    }
}
