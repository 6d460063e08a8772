package io.sluice.metrics;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sluice.core.CheckpointView;
import io.sluice.core.ManualClock;
import io.sluice.core.Sluice;
import io.sluice.core.StreamingQuery;
import io.sluice.core.StreamingQueryProgress;
import io.sluice.core.Trigger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** /metrics and /api/v1/ over HTTP from running queries, against the progress of the same batches. */
class SluiceServerTest {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static final ObjectMapper JSON = new ObjectMapper();

    private final ManualClock clock = new ManualClock(1_000_000);
    private final Sluice sluice = Sluice.builder().clock(clock).build();
    private SluiceServer server;

    @AfterEach
    void close() {
        if (server != null) {
            server.close();
        }
        sluice.close();
    }

    private HttpResponse<String> get(String path, String accept) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
                .timeout(Duration.ofSeconds(10));
        if (accept != null) {
            b.header("Accept", accept);
        }
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private JsonNode json(String path) throws Exception {
        HttpResponse<String> r = get(path, null);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        assertThat(r.headers().firstValue("Content-Type")).hasValue("application/json; charset=utf-8");
        return JSON.readTree(r.body());
    }

    private StreamingQuery twoBatches(Path checkpoint) throws Exception {
        StreamingQuery q = sluice.readStream().format("rate-micro-batch").option("rowsPerBatch", 10)
                .option("numPartitions", 1).load()
                .writeStream().format("noop").queryName("obs_rate")
                .option("checkpointLocation", checkpoint.toString())
                .trigger(Trigger.processingTime(1000)).start();
        await().atMost(Duration.ofSeconds(20)).until(() -> q.lastProgress() != null && clock.isWaiting());
        clock.advance(1000);
        await().atMost(Duration.ofSeconds(20)).until(() -> q.lastProgress() != null
                && q.lastProgress().batchId() == 1 && clock.isWaiting());
        String id = q.id().toString();
        // The listener runs on its own thread: wait until it recorded both batches.
        await().atMost(Duration.ofSeconds(20)).until(() -> json("/api/v1/queries/" + id).get("lastBatchId")
                .asLong(-1) == 1);
        return q;
    }

    @Test
    void theScrapeHoldsTheProgressOfTheSameBatches(@TempDir Path dir) throws Exception {
        server = SluiceServer.start(sluice, "127.0.0.1", 0);
        StreamingQuery q = twoBatches(dir.resolve("chk"));
        List<StreamingQueryProgress> progress = q.recentProgress();
        assertThat(progress).hasSize(2);
        StreamingQueryProgress last = progress.get(1);
        clock.advance(500);

        HttpResponse<String> r = get("/metrics", null);
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.headers().firstValue("Content-Type")).hasValue("text/plain; version=0.0.4; charset=utf-8");
        PrometheusText t = PrometheusText.parse(r.body(), false);
        String[] query = {"query", "obs_rate", "query_id", q.id().toString()};
        String source = last.sources().get(0).description();
        String[] src = {"query", "obs_rate", "query_id", q.id().toString(), "source", source};

        assertThat(t.get("sluice_query_input_rows_total", query)).isEqualTo(20.0);
        assertThat(t.get("sluice_query_input_rows_total", query))
                .isEqualTo(progress.get(0).numInputRows() + last.numInputRows());
        assertThat(t.get("sluice_query_batches_total", query)).isEqualTo(2.0);
        assertThat(t.get("sluice_query_last_batch_id", query)).isEqualTo(1.0);
        assertThat(t.get("sluice_query_batch_rows", query)).isEqualTo(10.0);
        assertThat(t.get("sluice_query_input_rows_per_second", query)).isEqualTo(last.inputRowsPerSecond())
                .isEqualTo(10.0);
        assertThat(t.get("sluice_query_processed_rows_per_second", query))
                .isEqualTo(last.processedRowsPerSecond());
        assertThat(t.get("sluice_query_batch_duration_seconds", query)).isEqualTo(last.batchDuration() / 1000.0);
        assertThat(last.durationMs()).isNotEmpty();
        last.durationMs().forEach((phase, ms) -> assertThat(t.get("sluice_query_phase_duration_seconds",
                "query", "obs_rate", "query_id", q.id().toString(), "phase", phase)).as(phase)
                .isEqualTo(ms / 1000.0));
        assertThat(t.get("sluice_query_staleness_seconds", query))
                .isEqualTo((clock.millis() - (java.time.Instant.parse(last.timestamp()).toEpochMilli()
                        + last.batchDuration())) / 1000.0);
        assertThat(t.get("sluice_query_state", "query", "obs_rate", "query_id", q.id().toString(), "state",
                "active")).isEqualTo(1.0);
        assertThat(t.get("sluice_query_state", "query", "obs_rate", "query_id", q.id().toString(), "state",
                "failed")).isEqualTo(0.0);
        assertThat(t.get("sluice_query_failures_total", query)).isEqualTo(0.0);
        assertThat(t.get("sluice_source_input_rows_total", src)).isEqualTo(20.0);
        assertThat(t.get("sluice_source_input_rows_per_second", src))
                .isEqualTo(last.sources().get(0).inputRowsPerSecond());
        assertThat(t.types).containsEntry("sluice_query_input_rows_total", "counter")
                .containsEntry("sluice_query_staleness_seconds", "gauge");
        // The JVM's own.
        assertThat(t.types).containsKeys("jvm_memory_used_bytes", "jvm_threads_live_threads", "process_uptime_seconds");

        // OpenMetrics by content negotiation: the same values.
        HttpResponse<String> om = get("/metrics", "application/openmetrics-text; version=1.0.0,text/plain;q=0.5");
        assertThat(om.headers().firstValue("Content-Type"))
                .hasValue("application/openmetrics-text; version=1.0.0; charset=utf-8");
        PrometheusText o = PrometheusText.parse(om.body(), true);
        assertThat(o.types).containsEntry("sluice_query_input_rows", "counter");
        assertThat(o.get("sluice_query_input_rows_total", query)).isEqualTo(20.0);
        assertThat(o.get("sluice_query_last_batch_id", query)).isEqualTo(1.0);
        assertThat(o.get("sluice_query_staleness_seconds", query)).isEqualTo(0.5);

        // Staleness is computed at scrape time from the engine's clock.
        clock.set(clock.millis() + 250);
        assertThat(PrometheusText.parse(get("/metrics", null).body(), false)
                .get("sluice_query_staleness_seconds", query)).isEqualTo(0.75);
    }

    @Test
    void theRestApiServesTheQueriesTheirProgressAndCheckpoint(@TempDir Path dir) throws Exception {
        server = SluiceServer.start(sluice, "127.0.0.1", 0, 1);
        Path chk = dir.resolve("chk");
        StreamingQuery q = twoBatches(chk);
        String id = q.id().toString();

        JsonNode all = json("/api/v1/queries");
        assertThat(all.get("queries")).hasSize(1);
        JsonNode one = all.get("queries").get(0);
        assertThat(one.get("id").asText()).isEqualTo(id);
        assertThat(one.get("runId").asText()).isEqualTo(q.runId().toString());
        assertThat(one.get("name").asText()).isEqualTo("obs_rate");
        assertThat(one.get("state").asText()).isEqualTo("active");
        assertThat(one.get("startedAt").asText()).isEqualTo("1970-01-01T00:16:40Z");
        assertThat(one.get("numBatches").asLong()).isEqualTo(2);
        assertThat(one.get("numInputRows").asLong()).isEqualTo(20);
        assertThat(one.get("failures").asLong()).isEqualTo(0);
        assertThat(one.get("exception").isNull()).isTrue();
        assertThat(one.get("checkpointLocation").asText()).isEqualTo(chk.toString());
        assertThat(one.get("status").get("message").asText()).isEqualTo(q.status().message());
        assertThat(json("/api/v1/queries/" + id)).isEqualTo(one);

        assertThat(json("/api/v1/queries/" + id + "/progress/last")).isEqualTo(JSON.readTree(q.lastProgress().json()));
        // The ring holds 1 progress here.
        JsonNode recent = json("/api/v1/queries/" + id + "/progress/recent");
        assertThat(recent).hasSize(1);
        assertThat(recent.get(0)).isEqualTo(JSON.readTree(q.lastProgress().json()));

        JsonNode c = json("/api/v1/queries/" + id + "/checkpoint");
        CheckpointView v = CheckpointView.open(chk);
        assertThat(c.get("path").asText()).isEqualTo(v.path().toString());
        assertThat(c.get("queryId").asText()).isEqualTo(id);
        assertThat(c.get("committedBatchIds").toString()).isEqualTo("[0,1]");
        assertThat(c.get("batches")).hasSize(2);
        for (int i = 0; i < 2; i++) {
            JsonNode b = c.get("batches").get(i);
            CheckpointView.Batch expected = v.batches().get(i);
            assertThat(b.get("batchId").asLong()).isEqualTo(i);
            assertThat(b.get("committed").asBoolean()).isTrue();
            assertThat(b.get("batchTimestampMs").asLong()).isEqualTo(expected.offsets().batchTimestampMs());
            assertThat(b.get("sources").get(0)).isEqualTo(JSON.readTree(expected.offsets().sources().get(0)));
        }

        HttpResponse<String> missing = get("/api/v1/queries/00000000-0000-0000-0000-000000000000", null);
        assertThat(missing.statusCode()).isEqualTo(404);
        assertThat(missing.body()).isEqualTo("{\"error\":\"No query with id 00000000-0000-0000-0000-000000000000\"}");
        assertThat(get("/api/v1/nothing", null).statusCode()).isEqualTo(404);
    }

    @Test
    void aFailingQueryShowsItsStateFailureCountAndError(@TempDir Path dir) throws Exception {
        server = SluiceServer.start(sluice, "127.0.0.1", 0);
        StreamingQuery q = sluice.readStream().format("rate-micro-batch").option("rowsPerBatch", 3).load()
                .writeStream().queryName("obs_fails").option("checkpointLocation", dir.resolve("c").toString())
                .foreachBatch((batch, batchId) -> {
                    throw new IllegalStateException("the sink is down");
                }).start();
        String id = q.id().toString();
        await().atMost(Duration.ofSeconds(20)).until(() -> "failed".equals(
                json("/api/v1/queries/" + id).get("state").asText()));
        JsonNode one = json("/api/v1/queries/" + id);
        assertThat(one.get("failures").asLong()).isEqualTo(1);
        assertThat(one.get("exception").asText()).contains("the sink is down");
        assertThat(one.get("status").isNull()).isTrue();
        PrometheusText t = PrometheusText.parse(get("/metrics", null).body(), false);
        String[] query = {"query", "obs_fails", "query_id", id};
        assertThat(t.get("sluice_query_failures_total", query)).isEqualTo(1.0);
        assertThat(t.get("sluice_query_state", "query", "obs_fails", "query_id", id, "state", "failed"))
                .isEqualTo(1.0);
        assertThat(t.get("sluice_query_state", "query", "obs_fails", "query_id", id, "state", "active"))
                .isEqualTo(0.0);
        assertThat(t.get("sluice_query_batches_total", query)).isEqualTo(0.0);
    }

    @Test
    void theRedactionMasksWhatAFailureEchoes(@TempDir Path dir) throws Exception {
        server = SluiceServer.start(sluice, "127.0.0.1", 0, 10, s -> s.replace("tok-12345", "*****"));
        StreamingQuery q = sluice.readStream().format("rate-micro-batch").option("rowsPerBatch", 3).load()
                .writeStream().queryName("obs_secret").option("checkpointLocation", dir.resolve("c").toString())
                .foreachBatch((batch, batchId) -> {
                    throw new IllegalStateException("the server refused token tok-12345");
                }).start();
        String id = q.id().toString();
        await().atMost(Duration.ofSeconds(20)).until(() -> "failed".equals(
                json("/api/v1/queries/" + id).get("state").asText()));
        String body = get("/api/v1/queries/" + id, null).body();
        assertThat(body).contains("the server refused token *****").doesNotContain("tok-12345");
    }

    @Test
    void closeStopsTheServerAndItsThreads() throws Exception {
        server = SluiceServer.start(sluice, "127.0.0.1", 0);
        assertThat(server.address().getAddress().isLoopbackAddress()).isTrue();
        assertThat(get("/metrics", null).statusCode()).isEqualTo(200);
        server.close();
        server = null;
        assertThat(Thread.getAllStackTraces().keySet()).noneMatch(t -> t.getName().startsWith("sluice-metrics-http"));
    }
}
