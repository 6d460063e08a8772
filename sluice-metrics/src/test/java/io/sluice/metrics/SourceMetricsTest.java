package io.sluice.metrics;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.sluice.core.ManualClock;
import io.sluice.core.SinkProgress;
import io.sluice.core.Sluice;
import io.sluice.core.SourceProgress;
import io.sluice.core.StreamingQueryListener;
import io.sluice.core.StreamingQueryProgress;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The sources' progress metrics (those the Kafka and file sources report) as meters: the listener's events are
 * handed to the binding's tracker directly, so the values are exactly those of the progress objects.
 */
class SourceMetricsTest {

    private final ManualClock clock = new ManualClock(10_000);
    private final Sluice sluice = Sluice.builder().clock(clock).build();
    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final SluiceMetrics metrics = SluiceMetrics.bind(sluice, registry);
    private final UUID id = UUID.fromString("11111111-2222-3333-4444-555555555555");
    private final UUID runId = UUID.fromString("66666666-7777-8888-9999-000000000000");

    @AfterEach
    void close() {
        metrics.close();
        sluice.close();
    }

    private PrometheusText scrape() {
        return PrometheusText.parse(registry.scrape(SluiceServer.PROMETHEUS_TEXT), false);
    }

    private void batch(long batchId, String timestamp, long duration, Map<String, String> kafka,
                       Map<String, String> files) {
        StreamingQueryProgress p = new StreamingQueryProgress(id, runId, "lag", timestamp, batchId, duration,
                Map.of("addBatch", 30L, "walCommit", 5L, "triggerExecution", duration), Map.of(),
                List.of(new SourceProgress("KafkaV2[Subscribe[events]]", null, "{}", "{}", 7, 3.5, 70.0, kafka),
                        new SourceProgress("FileStreamSource[file:/in]", null, "{}", null, 2, 1.0, 20.0, files)),
                new SinkProgress("NoopSink", 9, Map.of()));
        metrics.tracker().onQueryProgress(new StreamingQueryListener.QueryProgressEvent(p));
    }

    @Test
    void everySourceMetricIsAMeter() {
        metrics.tracker().onQueryStarted(new StreamingQueryListener.QueryStartedEvent(id, runId, "lag",
                "1970-01-01T00:00:05Z"));
        // Before the first batch, staleness counts from the start.
        assertThat(scrape().get("sluice_query_staleness_seconds", "query", "lag", "query_id", id.toString()))
                .isEqualTo(5.0);
        Map<String, String> kafka = new LinkedHashMap<>();
        kafka.put("minOffsetsBehindLatest", "4");
        kafka.put("maxOffsetsBehindLatest", "12");
        kafka.put("avgOffsetsBehindLatest", "8.5");
        kafka.put("minRetentionMsLeft", "3600000");
        kafka.put("minRetentionBytesLeft", "1048576");
        kafka.put("dataLoss", "2");
        Map<String, String> files = new LinkedHashMap<>();
        files.put("numFilesOutstanding", "3");
        files.put("numBytesOutstanding", "4096");
        files.put("numFilesChangedAfterRead", "1");
        files.put("numSpecialFilesSkipped", "0");
        files.put("numMissingFilesSkipped", "5");
        files.put("numCorruptFilesSkipped", "6");
        files.put("numFilesTaken", "10");
        files.put("numBytesTaken", "20480");
        files.put("numRowGroupsRead", "42");
        batch(0, "1970-01-01T00:00:08.000Z", 50, kafka, files);
        clock.set(9_000);

        PrometheusText t = scrape();
        String q = id.toString();
        String[] k = {"query", "lag", "query_id", q, "source", "KafkaV2[Subscribe[events]]"};
        String[] f = {"query", "lag", "query_id", q, "source", "FileStreamSource[file:/in]"};
        assertThat(t.get("sluice_source_offsets_behind_latest", concat(k, "stat", "min"))).isEqualTo(4.0);
        assertThat(t.get("sluice_source_offsets_behind_latest", concat(k, "stat", "max"))).isEqualTo(12.0);
        assertThat(t.get("sluice_source_offsets_behind_latest", concat(k, "stat", "avg"))).isEqualTo(8.5);
        assertThat(t.get("sluice_source_retention_time_left_seconds", k)).isEqualTo(3600.0);
        assertThat(t.get("sluice_source_retention_left_bytes", k)).isEqualTo(1048576.0);
        assertThat(t.get("sluice_source_data_loss_total", k)).isEqualTo(2.0);
        assertThat(t.get("sluice_source_input_rows_total", k)).isEqualTo(7.0);
        assertThat(t.get("sluice_source_processed_rows_per_second", k)).isEqualTo(70.0);
        assertThat(t.get("sluice_source_files_outstanding", f)).isEqualTo(3.0);
        assertThat(t.get("sluice_source_outstanding_bytes", f)).isEqualTo(4096.0);
        assertThat(t.get("sluice_source_files_changed_after_read_total", f)).isEqualTo(1.0);
        assertThat(t.get("sluice_source_files_skipped_total", concat(f, "reason", "special"))).isEqualTo(0.0);
        assertThat(t.get("sluice_source_files_skipped_total", concat(f, "reason", "missing"))).isEqualTo(5.0);
        assertThat(t.get("sluice_source_files_skipped_total", concat(f, "reason", "corrupt"))).isEqualTo(6.0);
        assertThat(t.get("sluice_source_files_taken_total", f)).isEqualTo(10.0);
        assertThat(t.get("sluice_source_taken_bytes_total", f)).isEqualTo(20480.0);
        assertThat(t.get("sluice_source_metric", concat(f, "metric", "numRowGroupsRead"))).isEqualTo(42.0);
        String[] query = {"query", "lag", "query_id", q};
        assertThat(t.get("sluice_query_input_rows_total", query)).isEqualTo(9.0);
        assertThat(t.get("sluice_query_output_rows_total", query)).isEqualTo(9.0);
        assertThat(t.get("sluice_query_input_rows_per_second", query)).isEqualTo(4.5);
        assertThat(t.get("sluice_query_phase_duration_seconds", concat(query, "phase", "addBatch"))).isEqualTo(0.03);
        assertThat(t.get("sluice_query_phase_duration_seconds", concat(query, "phase", "walCommit")))
                .isEqualTo(0.005);
        assertThat(t.get("sluice_query_batch_duration_seconds", query)).isEqualTo(0.05);
        // Committed at 8.050 s; scraped at 9 s.
        assertThat(t.get("sluice_query_staleness_seconds", query)).isEqualTo(0.95);

        // The next batch's values replace the gauges; counters add up.
        kafka.put("maxOffsetsBehindLatest", "1");
        kafka.put("dataLoss", "3");
        batch(1, "1970-01-01T00:00:09.000Z", 100, kafka, files);
        PrometheusText u = scrape();
        assertThat(u.get("sluice_source_offsets_behind_latest", concat(k, "stat", "max"))).isEqualTo(1.0);
        assertThat(u.get("sluice_source_data_loss_total", k)).isEqualTo(3.0);
        assertThat(u.get("sluice_source_input_rows_total", k)).isEqualTo(14.0);
        assertThat(u.get("sluice_query_last_batch_id", query)).isEqualTo(1.0);

        metrics.close();
        assertThat(registry.getMeters()).isEmpty();
    }

    @Test
    void progressTimestampsAreReadAsInstantReadsThem() {
        for (String t : List.of("1970-01-01T00:00:00.000Z", "2026-12-02T06:52:20.123Z", "2000-02-29T23:59:59.999Z",
                "1969-12-31T23:59:59.999Z")) {
            assertThat(QueryTracker.millis(t)).as(t).isEqualTo(java.time.Instant.parse(t).toEpochMilli());
        }
        assertThat(QueryTracker.millis("2026-01-01T00:00:05Z")).isEqualTo(1767225605000L);
    }

    private static String[] concat(String[] a, String... b) {
        String[] out = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
