package io.sluice.core;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Runs the query that wrote Spark 4.2's sample files (rate-micro-batch, rowsPerBatch=5, numPartitions=2,
 * startTimestamp=1790899200000, availableNow) and compares what Sluice writes with what Spark wrote.
 */
class SparkCompatibilityTest extends EngineTestBase {
    private static final ObjectMapper JSON = new ObjectMapper();

    private StreamingQuery runRateSample() throws Exception {
        StreamingQuery q = sluice.readStream().format("rate-micro-batch")
                .option("rowsPerBatch", 5).option("numPartitions", 2).option("startTimestamp", 1790899200000L)
                .load().writeStream().format("memory").queryName("rate_sample")
                .option("checkpointLocation", checkpoint.toString()).trigger(Trigger.availableNow()).start();
        q.awaitTermination();
        return q;
    }

    private static String sample(String path) throws IOException {
        try (InputStream in = SparkCompatibilityTest.class.getResourceAsStream("/spark-samples/progress/" + path)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void offsetAndCommitLogsMatchSparksFiles() throws Exception {
        runRateSample();
        String[] spark = sample("rate-chk/offsets/0").split("\n", -1);
        String[] ours = read("offsets/0").split("\n", -1);
        assertThat(ours).hasSameSizeAs(spark);
        assertThat(ours[0]).isEqualTo(spark[0]).isEqualTo("v1");
        assertThat(fieldNames(JSON.readTree(ours[1]))).isEqualTo(fieldNames(JSON.readTree(spark[1])).subList(0, 3));
        assertThat(JSON.readTree(ours[1]).get("batchWatermarkMs").asLong()).isZero();
        // The same source with the same options logs the very same offset.
        assertThat(ours[2]).isEqualTo(spark[2]).isEqualTo("{\"offset\":5,\"timestamp\":1790899201000}");
        assertThat(read("commits/0")).isEqualTo(sample("rate-chk/commits/0"));
        assertThat(fieldNames(JSON.readTree(read("metadata"))))
                .isEqualTo(fieldNames(JSON.readTree(sample("rate-chk/metadata"))));
        assertThat(read("metadata")).doesNotContain("\n");
    }

    @Test
    void progressJsonHasSparksFieldsInSparksOrderAndLayout() throws Exception {
        StreamingQuery q = runRateSample();
        StreamingQueryProgress p = q.lastProgress();
        JsonNode ours = JSON.readTree(p.prettyJson());
        JsonNode spark = JSON.readTree(sample("rate-progress.json"));

        assertThat(fieldNames(ours)).isEqualTo(fieldNames(spark));
        assertThat(fieldNames(ours.get("durationMs"))).isEqualTo(fieldNames(spark.get("durationMs")));
        assertThat(fieldNames(ours.get("sources").get(0))).isEqualTo(fieldNames(spark.get("sources").get(0)));
        assertThat(fieldNames(ours.get("sink"))).isEqualTo(fieldNames(spark.get("sink")));
        for (String same : List.of("batchId", "numInputRows", "inputRowsPerSecond", "stateOperators", "name")) {
            assertThat(ours.get(same)).as(same).isEqualTo(spark.get(same));
        }
        for (String same : List.of("description", "startOffset", "endOffset", "latestOffset", "numInputRows",
                "inputRowsPerSecond")) {
            assertThat(ours.get("sources").get(0).get(same)).as(same).isEqualTo(spark.get("sources").get(0).get(same));
        }
        assertThat(ours.get("id").asText()).isEqualTo(q.id().toString());
        assertThat(ours.get("timestamp").asText()).matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z");
        // Spark's pretty printer: "key" : value, empty arrays as [ ], two-space indentation.
        assertThat(p.prettyJson()).contains("\n  \"stateOperators\" : [ ],\n  \"sources\" : [ {\n    \"description\" : ");
        assertThat(p.prettyJson().lines().map(l -> l.replaceAll("\\S.*", "").length()).distinct().sorted().toList())
                .isEqualTo(sample("rate-progress.json").lines().map(l -> l.replaceAll("\\S.*", "").length())
                        .distinct().sorted().toList());
    }

    @Test
    void compactProgressJsonHasSparksShape() throws Exception {
        StreamingQuery q = runRateSample();
        JsonNode ours = JSON.readTree(q.lastProgress().json());
        JsonNode spark = JSON.readTree(sample("file-progress.jsonl").lines().findFirst().orElseThrow());
        assertThat(fieldNames(ours)).isEqualTo(fieldNames(spark));
        assertThat(q.lastProgress().json()).doesNotContain("\n", " : ");
    }

    @Test
    void ratesAreRoundedToOneDecimalAsSparkWritesThem() {
        SourceProgress s = new SourceProgress("d", null, "1", null, 5, 1.7605, 2.7624, java.util.Map.of());
        StreamingQueryProgress p = new StreamingQueryProgress(java.util.UUID.randomUUID(), java.util.UUID.randomUUID(),
                null, "2026-11-29T07:15:10.551Z", 0, 1807, java.util.Map.of("triggerExecution", 1807L),
                java.util.Map.of(), List.of(s), new SinkProgress("x", -1, java.util.Map.of()));
        assertThat(p.json()).contains("\"inputRowsPerSecond\":1.8,\"processedRowsPerSecond\":2.8")
                .contains("\"name\":null");
        SourceProgress infinite = new SourceProgress("d", null, "1", null, 5, Double.POSITIVE_INFINITY, Double.NaN,
                java.util.Map.of());
        assertThat(infinite.json()).doesNotContain("RowsPerSecond").doesNotContain("metrics");
    }

    private static List<String> fieldNames(JsonNode n) {
        List<String> out = new ArrayList<>();
        for (Iterator<String> it = n.fieldNames(); it.hasNext(); ) {
            out.add(it.next());
        }
        return out;
    }
}
