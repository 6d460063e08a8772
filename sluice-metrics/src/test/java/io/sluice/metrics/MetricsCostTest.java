package io.sluice.metrics;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.sluice.core.SinkProgress;
import io.sluice.core.Sluice;
import io.sluice.core.SourceProgress;
import io.sluice.core.StreamingQueryListener;
import io.sluice.core.StreamingQueryProgress;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What metrics cost per batch. On the query thread: nothing (the engine posts the progress event with or without
 * listeners). On the listener thread: recording one progress, measured here against a budget of 1% of the engine's
 * per-batch overhead (docs/benchmarks.md: a median batch of about 1 ms, so 10 µs). The scrape's cost, on the
 * server's thread, is printed.
 */
class MetricsCostTest {

    @Test
    void recordingAProgressCostsUnderOnePercentOfABatch() {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        try (Sluice sluice = Sluice.local(); SluiceMetrics metrics = SluiceMetrics.bind(sluice, registry)) {
            UUID id = UUID.randomUUID();
            UUID run = UUID.randomUUID();
            QueryTracker tracker = metrics.tracker();
            tracker.onQueryStarted(new StreamingQueryListener.QueryStartedEvent(id, run, "cost",
                    "2026-01-01T00:00:00Z"));
            Map<String, Long> durations = Map.of("addBatch", 3L, "commitOffsets", 1L, "getBatch", 0L,
                    "latestOffset", 0L, "queryPlanning", 0L, "triggerExecution", 5L, "walCommit", 1L);
            StreamingQueryListener.QueryProgressEvent[] events = new StreamingQueryListener.QueryProgressEvent[1000];
            for (int i = 0; i < events.length; i++) {
                events[i] = new StreamingQueryListener.QueryProgressEvent(new StreamingQueryProgress(id, run, "cost",
                        "2026-01-01T00:00:01.000Z", i, 5, durations, Map.of(), List.of(new SourceProgress(
                        "KafkaV2[Subscribe[events]]", "{}", "{}", "{}", 1000, 1000.0, 200000.0,
                        Map.of("minOffsetsBehindLatest", "0", "maxOffsetsBehindLatest", "10",
                                "avgOffsetsBehindLatest", "5.0"))), new SinkProgress("NoopSink", 1000, Map.of())));
            }
            long best = Long.MAX_VALUE;
            for (int round = 0; round < 20; round++) {
                long start = System.nanoTime();
                for (StreamingQueryListener.QueryProgressEvent e : events) {
                    tracker.onQueryProgress(e);
                }
                best = Math.min(best, (System.nanoTime() - start) / events.length);
            }
            long scrapeStart = System.nanoTime();
            int scrapes = 50;
            for (int i = 0; i < scrapes; i++) {
                registry.scrape(SluiceServer.PROMETHEUS_TEXT);
            }
            long scrape = (System.nanoTime() - scrapeStart) / scrapes;
            System.out.printf("metrics cost: %d ns per progress recorded (listener thread), %d µs per scrape "
                    + "(server thread, %d meters)%n", best, scrape / 1000, registry.getMeters().size());
            assertThat(best).as("ns per progress").isLessThan(10_000);
        }
    }
}
