package io.sluice.bench;

import static io.sluice.bench.Measure.*;

import io.sluice.core.Sluice;
import io.sluice.core.StreamingQuery;
import io.sluice.core.StreamingQueryListener;
import io.sluice.core.StreamingQueryProgress;
import io.sluice.core.Trigger;
import io.sluice.metrics.SluiceServer;
import io.sluice.metrics.SluiceUi;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * {@code metricscost [rowsPerBatch=1000] [seconds=10] [rounds=3]}: the per-batch cost of metrics and the web UI. The
 * {@code overhead} workload's query (rate-micro-batch, 2 partitions, to noop, back to back, a real checkpoint) runs
 * {@code rounds} times bare and {@code rounds} times with {@link SluiceUi} serving (which binds
 * {@code SluiceMetrics} to its Prometheus registry), alternating in one JVM, bare first; while the UI serves, a
 * client does what an open UI page and a Prometheus scrape do, once a second: {@code GET /api/v1/queries}, the
 * query's {@code progress/recent} and {@code checkpoint}, and {@code /metrics}. Batches whose trigger started in the
 * first 3 s of a round are warm-up. One line: the median over rounds of each variant's wall-clock ms per batch (the
 * precise figure; {@code batchDuration} is whole ms), its median {@code batchDuration}, and the difference; and,
 * since on a shared machine the wall clock of two variants differs by more than the cost looked for, the CPU time
 * the metrics and the UI spend per batch, which a loaded machine does not blur: the listener thread's CPU with the
 * UI minus without, plus the UI server's threads', over the round's batches, and that as a percentage of the bare
 * wall-clock ms per batch.
 */
final class MetricsCostBench {
    private MetricsCostBench() {
    }

    static void run(long rowsPerBatch, long seconds, int rounds) throws Exception {
        List<Double> bareWall = new ArrayList<>();
        List<Double> uiWall = new ArrayList<>();
        List<Long> bareDurations = new ArrayList<>();
        List<Long> uiDurations = new ArrayList<>();
        List<Double> bareListener = new ArrayList<>();
        List<Double> uiListener = new ArrayList<>();
        List<Double> uiServer = new ArrayList<>();
        List<Double> perRequest = new ArrayList<>();
        long requests = 0;
        for (int i = 0; i < rounds; i++) {
            Round bare = round(rowsPerBatch, seconds, false);
            bareWall.add(bare.wallMsPerBatch);
            bareDurations.addAll(bare.durations);
            bareListener.add(bare.listenerCpuUsPerBatch);
            Round ui = round(rowsPerBatch, seconds, true);
            uiWall.add(ui.wallMsPerBatch);
            uiDurations.addAll(ui.durations);
            uiListener.add(ui.listenerCpuUsPerBatch);
            uiServer.add(ui.serverCpuUsPerBatch);
            perRequest.add(ui.serverCpuMsPerRequest);
            requests += ui.requests;
            System.err.printf(Locale.ROOT, "round %d: bare %.3f ms/batch (listener %.1f us CPU/batch), with "
                            + "metrics+UI %.3f ms/batch (listener %.1f us, server %.1f us CPU/batch)%n", i + 1,
                    bare.wallMsPerBatch, bare.listenerCpuUsPerBatch, ui.wallMsPerBatch, ui.listenerCpuUsPerBatch,
                    ui.serverCpuUsPerBatch);
        }
        double bare = median(bareWall);
        double ui = median(uiWall);
        // The CPU metrics and the UI add per batch: the listener thread's extra work plus the server's threads.
        double costUs = median(uiListener) - median(bareListener) + median(uiServer);
        System.out.printf(Locale.ROOT, "sluice metricscost rows_per_batch=%d seconds=%d rounds=%d"
                        + " bare_wall_ms_per_batch=%.3f ui_wall_ms_per_batch=%.3f diff_ms=%.3f diff_pct=%.2f"
                        + " bare_median_ms=%d ui_median_ms=%d bare_batches=%d ui_batches=%d ui_requests=%d"
                        + " bare_listener_cpu_us_per_batch=%.1f ui_listener_cpu_us_per_batch=%.1f"
                        + " ui_server_cpu_us_per_batch=%.1f server_cpu_ms_per_request=%.2f"
                        + " cost_cpu_us_per_batch=%.1f cost_pct_of_bare_batch=%.3f"
                        + " listener_cost_us_per_batch=%.1f listener_cost_pct_of_bare_batch=%.3f%n",
                rowsPerBatch, seconds, rounds, bare, ui, ui - bare, (ui - bare) / bare * 100,
                percentile(sorted(bareDurations), 50), percentile(sorted(uiDurations), 50), bareDurations.size(),
                uiDurations.size(), requests, median(bareListener), median(uiListener), median(uiServer),
                median(perRequest), costUs, costUs / 1000.0 / bare * 100, median(uiListener) - median(bareListener),
                (median(uiListener) - median(bareListener)) / 1000.0 / bare * 100);
    }

    /** {@code cpuUsPerBatch}: CPU of the listener thread and the server's threads, over every batch of the round. */
    private record Round(double wallMsPerBatch, List<Long> durations, long requests, double listenerCpuUsPerBatch,
                         double serverCpuUsPerBatch, double serverCpuMsPerRequest) {
    }

    /** CPU time (ns) of the live threads whose name starts with {@code prefix}. */
    private static long cpuNanos(String prefix) {
        java.lang.management.ThreadMXBean mx = java.lang.management.ManagementFactory.getThreadMXBean();
        long ns = 0;
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().startsWith(prefix)) {
                ns += Math.max(0, mx.getThreadCpuTime(t.getId()));
            }
        }
        return ns;
    }

    private static Round round(long rowsPerBatch, long seconds, boolean observed) throws Exception {
        Path chk = EngineBench.checkpointDir(observed ? "metricscost-ui" : "metricscost-bare");
        List<Sample> samples = new ArrayList<>();
        CountDownLatch terminated = new CountDownLatch(1);
        long[] requests = new long[1];
        try (Sluice sluice = Sluice.builder().parallelism(2).build();
             SluiceServer server = observed ? SluiceUi.start(sluice, "127.0.0.1", 0) : null) {
            sluice.addListener(new StreamingQueryListener() {
                @Override
                public void onQueryProgress(QueryProgressEvent event) {
                    StreamingQueryProgress p = event.progress();
                    synchronized (samples) {
                        samples.add(new Sample(p.batchId(), p.batchDuration(), p.numInputRows(),
                                Instant.parse(p.timestamp()).toEpochMilli()));
                    }
                }

                @Override
                public void onQueryStarted(QueryStartedEvent event) {
                }

                @Override
                public void onQueryTerminated(QueryTerminatedEvent event) {
                    terminated.countDown();
                }
            });
            long queryStartMs = System.currentTimeMillis();
            StreamingQuery q = sluice.readStream().format("rate-micro-batch")
                    .option("rowsPerBatch", rowsPerBatch).option("numPartitions", 2).load()
                    .writeStream().format("noop").option("checkpointLocation", chk.toString())
                    .trigger(Trigger.defaultTrigger()).start();
            long end = System.currentTimeMillis() + seconds * 1000;
            if (server != null) {
                // An open UI page and a Prometheus scrape, once a second each.
                HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
                String base = "http://127.0.0.1:" + server.port();
                List<String> paths = List.of("/api/v1/queries", "/api/v1/queries/" + q.id() + "/progress/recent",
                        "/api/v1/queries/" + q.id() + "/checkpoint", "/metrics");
                while (System.currentTimeMillis() < end) {
                    for (String path : paths) {
                        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(base + path)).build(),
                                HttpResponse.BodyHandlers.ofString());
                        require(r.statusCode() == 200, path + " answered " + r.statusCode());
                        requests[0]++;
                    }
                    Thread.sleep(Math.max(0, Math.min(1000, end - System.currentTimeMillis())));
                }
            } else {
                Thread.sleep(seconds * 1000);
            }
            q.stop();
            require(terminated.await(60, TimeUnit.SECONDS), "the query did not report its end");
            // Before close(): the threads are still alive. The listener thread also runs this class's listener, in
            // both variants; the server's threads exist only with the UI.
            long listenerNs = cpuNanos("sluice-listener-bus-");
            long serverNs = cpuNanos("sluice-metrics-http-");
            List<Sample> counted;
            int all;
            synchronized (samples) {
                counted = samples.stream().filter(s -> s.triggerStartMs() >= queryStartMs + WARMUP_MS).toList();
                all = samples.size();
            }
            require(counted.size() >= 2, "too few batches after the warm-up: " + counted.size());
            return new Round(wall(counted).msPerBatch(), counted.stream().map(Sample::durationMs).toList(),
                    requests[0], listenerNs / 1000.0 / all, serverNs / 1000.0 / all,
                    requests[0] == 0 ? 0 : serverNs / 1e6 / requests[0]);
        } finally {
            deleteRecursively(chk);
        }
    }

    private static long[] sorted(List<Long> values) {
        return values.stream().mapToLong(Long::longValue).sorted().toArray();
    }

    private static double median(List<Double> values) {
        double[] v = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }
}
