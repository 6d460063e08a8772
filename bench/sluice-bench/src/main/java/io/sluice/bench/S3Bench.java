package io.sluice.bench;

import static io.sluice.bench.Measure.*;

import io.sluice.api.io.Storage;
import io.sluice.api.io.Storages;
import io.sluice.api.io.WholeObjectOutput;
import io.sluice.core.DataStreamReader;
import io.sluice.core.Sluice;
import io.sluice.core.StreamingQuery;
import io.sluice.core.StreamingQueryProgress;
import io.sluice.core.Trigger;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The object-store workloads, Sluice's side ({@code SparkBench} runs the same reads through hadoop-aws's S3A):
 *
 * <pre>
 * server DIR                             a local S3 server (sluice-s3-server's S3Mock) over DIR, on a free port: prints
 *                                        "endpoint URL", serves until its stdin closes (bench/run.sh's s3 workloads);
 *                                        needs sluice-s3-server's jars on the class path ahead of this jar
 * upload ENDPOINT DIR s3a://B/PREFIX/ [N]  DIR's first N files (by name; all without N) as objects under PREFIX
 *                                        (bucket B created), 8 PUTs in parallel; done once: skipped when
 *                                        PREFIX/_uploaded exists (a hidden name: not listed); an interrupted upload
 *                                        goes on where it stopped (objects already there are not sent again)
 * s3jsonread ENDPOINT s3a://B/PREFIX/    jsonread's query on the objects: availableNow json (the events schema) to
 *                                        noop, rows/s from start() to termination
 * s3plan100k ENDPOINT s3a://B/PREFIX/ [maxFilesPerTrigger=1000]  plan100k's query on the objects: batch 0's
 *                                        latestOffset (the listing) and total
 * </pre>
 *
 * The store's settings ({@code fs.s3a.endpoint}, path style, any credentials) are the source's options.
 */
public final class S3Bench {
    private S3Bench() {
    }

    public static void main(String[] args) throws Exception {
        switch (args.length > 0 ? args[0] : "") {
            case "server" -> server(Path.of(args[1]));
            case "upload" -> upload(args[1], Path.of(args[2]), args[3], longArg(args, 4, Long.MAX_VALUE));
            case "s3jsonread" -> read(args[1], args[2]);
            case "s3plan100k" -> plan(args[1], args[2], longArg(args, 3, 1_000));
            default -> {
                System.err.println("usage: S3Bench server DIR | upload ENDPOINT DIR s3a://BUCKET/PREFIX/"
                        + " | s3jsonread ENDPOINT s3a://BUCKET/PREFIX/"
                        + " | s3plan100k ENDPOINT s3a://BUCKET/PREFIX/ [maxFilesPerTrigger=1000]");
                System.exit(2);
            }
        }
    }

    static Map<String, String> conf(String endpoint) {
        return Map.of("fs.s3a.endpoint", endpoint, "fs.s3a.path.style.access", "true",
                "fs.s3a.access.key", "bench", "fs.s3a.secret.key", "bench-secret");
    }

    /**
     * Runs the server of sluice-s3-server by reflection (its Spring Boot jars cannot be shaded into this jar, so
     * they come on the class path from sluice-s3-server/target): this jar does not depend on them.
     */
    static void server(Path dir) throws Exception {
        Class<?> server = Class.forName("io.sluice.s3.server.LocalS3Server");
        Object builder = server.getMethod("builder", Path.class).invoke(null, dir);
        AutoCloseable running = (AutoCloseable) builder.getClass().getMethod("start").invoke(builder);
        System.out.println("endpoint " + server.getMethod("endpoint").invoke(running));
        System.out.flush();
        try (InputStream in = System.in) {
            while (in.read() >= 0) {
                // until the caller closes our stdin
            }
        } finally {
            running.close();
        }
    }

    static void upload(String endpoint, Path dir, String prefix, long max) throws Exception {
        String bucket = URI.create(prefix).getHost();
        // S3's CreateBucket is a PUT on the bucket: 200 when created, 409 when it exists (ours).
        HttpURLConnection c = (HttpURLConnection) URI.create(endpoint + "/" + bucket).toURL().openConnection();
        c.setRequestMethod("PUT");
        c.setDoOutput(true);
        c.getOutputStream().close();
        int code = c.getResponseCode();
        require(code == 200 || code == 409, "creating the bucket " + bucket + " answered " + code);
        c.disconnect();
        String marker = Storages.child(prefix, "_uploaded");
        try (Storage store = Storages.of(prefix, conf(endpoint))) {
            if (store.status(marker).isPresent()) {
                System.err.println(prefix + " already uploaded");
                return;
            }
            List<Path> files;
            try (Stream<Path> s = Files.list(dir)) {
                files = s.filter(Files::isRegularFile).sorted().limit(max).toList();
            }
            java.util.Set<String> there = new java.util.HashSet<>();
            store.list(prefix, null, o -> there.add(o.uri()));
            long t0 = System.nanoTime();
            ExecutorService pool = Executors.newFixedThreadPool(8, r -> new Thread(r, "s3bench-upload"));
            try {
                List<Future<?>> done = new ArrayList<>();
                for (Path f : files) {
                    if (there.contains(Storages.child(prefix, f.getFileName().toString()))) {
                        continue;
                    }
                    done.add(pool.submit(() -> {
                        try (WholeObjectOutput out = store.create(Storages.child(prefix, f.getFileName().toString()),
                                true)) {
                            Files.copy(f, out);
                        } catch (IOException e) {
                            throw new UncheckedIOException(e);
                        }
                        return null;
                    }));
                }
                for (Future<?> f : done) {
                    f.get();
                }
            } finally {
                pool.shutdown();
                require(pool.awaitTermination(60, TimeUnit.SECONDS), "upload threads did not stop");
            }
            store.createExclusive(marker, new byte[0]);
            System.err.printf(Locale.ROOT, "uploaded %d objects to %s in %.1f s (%d were there)%n",
                    files.size() - there.size(), prefix, (System.nanoTime() - t0) / 1e9, there.size());
        }
    }

    private static DataStreamReader reader(Sluice sluice, String endpoint) {
        DataStreamReader r = sluice.readStream().format("json").schema(EngineBench.EVENTS_DDL);
        for (Map.Entry<String, String> e : conf(endpoint).entrySet()) {
            r = r.option(e.getKey(), e.getValue());
        }
        return r;
    }

    /** jsonread (EngineBench.fileRead) on the objects under {@code prefix}. */
    static void read(String endpoint, String prefix) throws Exception {
        Path chk = EngineBench.checkpointDir("s3jsonread");
        EngineBench.Collector c = new EngineBench.Collector();
        try (Sluice sluice = Sluice.builder().parallelism(2).build()) {
            sluice.addListener(c);
            long t0 = System.nanoTime();
            StreamingQuery q = reader(sluice, endpoint).load(prefix)
                    .writeStream().format("noop").option("checkpointLocation", chk.toString())
                    .trigger(Trigger.availableNow()).start();
            q.awaitTermination();
            double seconds = (System.nanoTime() - t0) / 1e9;
            c.awaitEnd();
            List<Sample> samples = c.samples();
            long rows = samples.stream().mapToLong(Sample::rows).sum();
            long batchMs = samples.stream().mapToLong(Sample::durationMs).sum();
            System.out.printf(Locale.ROOT, "sluice s3jsonread rows=%d batches=%d seconds=%.3f rows_per_s=%.0f "
                            + "batch_ms=%d batch_rows_per_s=%.0f%n", rows, samples.size(), seconds, rows / seconds,
                    batchMs, rows * 1000.0 / Math.max(1, batchMs));
        } finally {
            deleteRecursively(chk);
        }
    }

    /** plan100k (EngineBench.plan) on the objects under {@code prefix}. */
    static void plan(String endpoint, String prefix, long maxFilesPerTrigger) throws Exception {
        Path chk = EngineBench.checkpointDir("s3plan100k");
        EngineBench.Collector c = new EngineBench.Collector();
        try (Sluice sluice = Sluice.builder().parallelism(2).build()) {
            sluice.addListener(c);
            long t0 = System.nanoTime();
            DataStreamReader r = reader(sluice, endpoint);
            if (maxFilesPerTrigger > 0) {
                r = r.option("maxFilesPerTrigger", maxFilesPerTrigger);
            }
            StreamingQuery q = r.load(prefix)
                    .writeStream().format("noop").option("checkpointLocation", chk.toString())
                    .trigger(Trigger.defaultTrigger()).start();
            require(c.first.await(600, TimeUnit.SECONDS), "no batch within 600 s: " + q.status());
            double firstS = (System.nanoTime() - t0) / 1e9;
            q.stop();
            c.awaitEnd();
            StreamingQueryProgress p0 = c.progress.get(0);
            System.out.printf(Locale.ROOT, "sluice s3plan100k max_files_per_trigger=%d batch0_latest_offset_ms=%d"
                            + " batch0_total_ms=%d batch0_rows=%d start_to_batch0_s=%.3f rss_peak_mb=%s%n",
                    maxFilesPerTrigger, p0.durationMs().getOrDefault("latestOffset", -1L), p0.batchDuration(),
                    p0.numInputRows(), firstS, rssPeakMb());
        } finally {
            deleteRecursively(chk);
        }
    }
}
