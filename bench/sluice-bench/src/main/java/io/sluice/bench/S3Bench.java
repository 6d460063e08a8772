package io.sluice.bench;

import static io.sluice.bench.Measure.*;

import io.sluice.core.DataStreamReader;
import io.sluice.core.Sluice;
import io.sluice.core.StreamingQuery;
import io.sluice.core.StreamingQueryProgress;
import io.sluice.core.Trigger;

import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The object-store workloads, Sluice's side ({@code SparkBench} runs the same reads through hadoop-aws's S3A):
 *
 * <pre>
 * server DIR                             a local S3 server (sluice-s3-server's S3Mock) over DIR, on a free port, warmed
 *                                        up (requests to each bucket), then prints "endpoint URL"; serves until its
 *                                        stdin closes (bench/run.sh's s3 workloads);
 *                                        needs sluice-s3-server's jars on the class path ahead of this jar
 * seed DATA s3a://B/PREFIX/ DIR [N]      before the server starts on DATA: DIR's first N files (by name; all without
 *                                        N) as objects under PREFIX of a new bucket B, written into DATA in S3Mock's
 *                                        layout; done once: skipped when B is there whole; needs sluice-s3-server's
 *                                        jar on the class path
 * s3jsonread ENDPOINT s3a://B/PREFIX/    jsonread's query on the objects: availableNow json (the events schema) to
 *                                        noop, rows/s from load() to termination; load_ms: load() alone (the AWS
 *                                        SDK's first use and one status request)
 * s3plan100k ENDPOINT s3a://B/PREFIX/ [maxFilesPerTrigger=1000]  plan100k's query on the objects: batch 0's
 *                                        latestOffset (the listing) and total
 * put ENDPOINT s3a://B/PREFIX/ DIR [N]   for a server that is already running (bench/run.sh's {@code ceph}): B
 *                                        created when missing, DIR's first N files (by name; all without N) PUT
 *                                        under PREFIX by 16 threads; skipped when the prefix holds N objects already
 * list ENDPOINT s3a://B/PREFIX/ PAGE...  sluice-s3's listing of the prefix alone, once per PAGE (fs.s3a.paging.maximum)
 *                                        in turn, each with a storage of its own, timed after a first request
 * </pre>
 *
 * The store's settings ({@code fs.s3a.endpoint}, path style, any credentials) are the source's options.
 */
public final class S3Bench {
    private static final Pattern KEY = Pattern.compile("<Key>([^<]*)</Key>");

    private S3Bench() {
    }

    public static void main(String[] args) throws Exception {
        switch (args.length > 0 ? args[0] : "") {
            case "server" -> server(Path.of(args[1]));
            case "seed" -> seed(Path.of(args[1]), args[2], Path.of(args[3]), longArg(args, 4, Long.MAX_VALUE));
            case "s3jsonread" -> read(args[1], args[2]);
            case "s3plan100k" -> plan(args[1], args[2], longArg(args, 3, 1_000));
            case "put" -> put(args[1], args[2], Path.of(args[3]), longArg(args, 4, Long.MAX_VALUE));
            case "list" -> list(args[1], args[2], java.util.Arrays.copyOfRange(args, 3, args.length));
            default -> {
                System.err.println("usage: S3Bench server DIR | seed DIR s3a://BUCKET/PREFIX/ FILES [N]"
                        + " | s3jsonread ENDPOINT s3a://BUCKET/PREFIX/"
                        + " | s3plan100k ENDPOINT s3a://BUCKET/PREFIX/ [maxFilesPerTrigger=1000]"
                        + " | put ENDPOINT s3a://BUCKET/PREFIX/ DIR [N]"
                        + " | list ENDPOINT s3a://BUCKET/PREFIX/ PAGE...");
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
        String endpoint = (String) server.getMethod("endpoint").invoke(running);
        warmUp(endpoint, dir);
        System.out.println("endpoint " + endpoint);
        System.out.flush();
        try (InputStream in = System.in) {
            while (in.read() >= 0) {
                // until the caller closes our stdin
            }
        } finally {
            running.close();
        }
    }

    /**
     * Requests to the new server before it is announced, so that neither engine pays its first requests' cost
     * (Spring's and Tomcat's first dispatch, class loading, a cold JIT: seconds on a loaded machine): the engine run
     * first would pay it alone. Each bucket: listings of one key and GETs of that key, over plain HTTP.
     */
    private static void warmUp(String endpoint, Path dir) throws IOException {
        long t0 = System.nanoTime();
        List<Path> buckets;
        try (Stream<Path> s = Files.list(dir)) {
            buckets = s.filter(Files::isDirectory).toList();
        }
        int requests = 0;
        for (Path b : buckets) {
            for (int i = 0; i < 10; i++) {
                String list = new String(get(endpoint + "/" + b.getFileName() + "?list-type=2&max-keys=1"),
                        StandardCharsets.UTF_8);
                Matcher m = KEY.matcher(list);
                requests++;
                if (m.find()) {
                    get(endpoint + "/" + b.getFileName() + "/" + m.group(1));
                    requests++;
                }
            }
        }
        System.err.printf(Locale.ROOT, "warmed the server up: %d requests in %.1f s%n", requests,
                (System.nanoTime() - t0) / 1e9);
    }

    private static byte[] get(String url) throws IOException {
        HttpURLConnection c = (HttpURLConnection) URI.create(url).toURL().openConnection();
        try (InputStream in = c.getInputStream()) {
            return in.readAllBytes();
        } finally {
            c.disconnect();
        }
    }

    /**
     * Seeds the bucket of {@code prefix} with {@code dir}'s first {@code max} files (by name) under the prefix,
     * written straight into the server's folder {@code dataDir} in S3Mock's layout by sluice-s3-server's
     * {@code BucketSeed} (by reflection, as {@link #server}): PUTs cost S3Mock the bucket's whole key map each, so
     * 100,000 of them take hours. Done once per bucket, before the server starts: a bucket seeded whole is kept, one
     * an interrupted seed left is written again. One bucket per data set, as S3Mock's requests cost in proportion to
     * their bucket's objects.
     */
    static void seed(Path dataDir, String prefix, Path dir, long max) throws Exception {
        String bucket = URI.create(prefix).getHost();
        String keyPrefix = URI.create(prefix).getPath().substring(1);
        Class<?> seed = Class.forName("io.sluice.s3.server.BucketSeed");
        if ((Boolean) seed.getMethod("isComplete", Path.class, String.class).invoke(null, dataDir, bucket)) {
            System.err.println(prefix + " already seeded");
            return;
        }
        deleteRecursively(dataDir.resolve(bucket)); // what an interrupted seed left
        long t0 = System.nanoTime();
        Map<String, byte[]> objects = new java.util.LinkedHashMap<>();
        try (Stream<Path> s = Files.list(dir)) {
            for (Path f : s.filter(Files::isRegularFile).sorted().limit(max).toList()) {
                objects.put(keyPrefix + f.getFileName(), Files.readAllBytes(f));
            }
        }
        seed.getMethod("write", Path.class, String.class, Map.class).invoke(null, dataDir, bucket, objects);
        System.err.printf(Locale.ROOT, "seeded %d objects under %s in %.1f s%n", objects.size(), prefix,
                (System.nanoTime() - t0) / 1e9);
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
            var df = reader(sluice, endpoint).load(prefix); // the AWS SDK's first use: a status request
            long loadMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
            StreamingQuery q = df.writeStream().format("noop").option("checkpointLocation", chk.toString())
                    .trigger(Trigger.availableNow()).start();
            q.awaitTermination();
            double seconds = (System.nanoTime() - t0) / 1e9;
            c.awaitEnd();
            List<Sample> samples = c.samples();
            long rows = samples.stream().mapToLong(Sample::rows).sum();
            long batchMs = samples.stream().mapToLong(Sample::durationMs).sum();
            System.out.printf(Locale.ROOT, "sluice s3jsonread rows=%d batches=%d seconds=%.3f rows_per_s=%.0f "
                            + "batch_ms=%d batch_rows_per_s=%.0f load_ms=%d%n", rows, samples.size(), seconds,
                    rows / seconds, batchMs, rows * 1000.0 / Math.max(1, batchMs), loadMs);
        } finally {
            deleteRecursively(chk);
        }
    }

    /**
     * Uploads {@code dir}'s first {@code max} files (by name) under {@code prefix} of a running server, creating its
     * bucket when missing; nothing is sent when the prefix already holds that many objects. 16 PUTs at a time.
     */
    static void put(String endpoint, String prefix, Path dir, long max) throws Exception {
        String bucket = URI.create(prefix).getHost();
        String keyPrefix = URI.create(prefix).getPath().substring(1);
        List<Path> files;
        try (Stream<Path> s = Files.list(dir)) {
            files = s.filter(Files::isRegularFile).sorted().limit(max).toList();
        }
        try (software.amazon.awssdk.services.s3.S3Client s3 = software.amazon.awssdk.services.s3.S3Client.builder()
                .endpointOverride(URI.create(endpoint)).forcePathStyle(true)
                .region(software.amazon.awssdk.regions.Region.US_EAST_1)
                // as sluice-s3 (and S3A): older S3-compatible stores refuse the SDK's trailing upload checksums
                .requestChecksumCalculation(software.amazon.awssdk.core.checksums.RequestChecksumCalculation.WHEN_REQUIRED)
                .credentialsProvider(software.amazon.awssdk.auth.credentials.StaticCredentialsProvider.create(
                        software.amazon.awssdk.auth.credentials.AwsBasicCredentials.create("bench", "bench-secret")))
                .httpClient(software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient.create()).build()) {
            try {
                s3.headBucket(b -> b.bucket(bucket));
            } catch (software.amazon.awssdk.services.s3.model.NoSuchBucketException e) {
                s3.createBucket(b -> b.bucket(bucket));
            }
            long present = 0;
            for (var page : s3.listObjectsV2Paginator(b -> b.bucket(bucket).prefix(keyPrefix))) {
                present += page.keyCount();
            }
            if (present == files.size()) {
                System.err.println(prefix + " already holds its " + present + " objects");
                return;
            }
            long t0 = System.nanoTime();
            var pool = java.util.concurrent.Executors.newFixedThreadPool(16);
            try {
                List<java.util.concurrent.Future<?>> done = new java.util.ArrayList<>();
                for (Path f : files) {
                    done.add(pool.submit(() -> {
                        s3.putObject(b -> b.bucket(bucket).key(keyPrefix + f.getFileName()),
                                software.amazon.awssdk.core.sync.RequestBody.fromFile(f));
                        return null;
                    }));
                }
                for (var d : done) {
                    d.get();
                }
            } finally {
                pool.shutdownNow();
            }
            System.err.printf(Locale.ROOT, "put %d objects under %s in %.1f s%n", files.size(), prefix,
                    (System.nanoTime() - t0) / 1e9);
        }
    }

    /** The prefix listed whole through sluice-s3 with each page size in turn: keys, requests and milliseconds. */
    static void list(String endpoint, String prefix, String[] pages) throws Exception {
        for (String page : pages) {
            Map<String, String> conf = new java.util.HashMap<>(conf(endpoint));
            conf.put("fs.s3a.paging.maximum", page);
            try (io.sluice.api.io.Storage store = io.sluice.api.io.Storages.of(prefix, conf)) {
                store.status(prefix + "_none"); // the client made and its first request sent: not timed
                long before = store.listRequests();
                long t0 = System.nanoTime();
                long[] keys = {0};
                store.list(prefix, null, o -> ++keys[0] > 0);
                System.out.printf(Locale.ROOT, "sluice s3list paging_maximum=%s keys=%d requests=%d ms=%d%n", page,
                        keys[0], store.listRequests() - before,
                        TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0));
            }
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
