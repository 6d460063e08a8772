package io.sluice.s3;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.s3.S3Client;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * kill -9 of a query whose checkpoint and file sink are on S3 (the real server), at whatever point of the batch
 * cycle it is, three times, then a clean run: the manifest lists every row of the rate source exactly once, and a
 * crashed run's lease blocks the next one only until it expires.
 */
class S3CrashTest {
    private static final Pattern PATH = Pattern.compile("\"path\":\"s3a://[^/]+/([^\"]+)\"");
    private static final Pattern VALUE = Pattern.compile("\"value\":(\\d+)");
    private static final Pattern WINDOW = Pattern.compile("\"start\":\"([^\"]+)\".*?\"count\":(\\d+)");
    private static final Pattern EXPIRES = Pattern.compile("\"expiresMs\":(\\d+)");

    @TempDir
    Path tmp;
    private final List<Process> children = new ArrayList<>();
    private final S3Client client = S3TestSupport.client();
    private final String bucket = S3TestSupport.newBucket("crash");

    @AfterEach
    void tearDown() {
        children.forEach(Process::destroyForcibly);
        client.close();
    }

    private record Child(Process process, BlockingQueue<String> lines) {
        /** Waits for the child to report batch {@code id} or later. */
        long awaitBatch(long id) throws Exception {
            while (true) {
                String line = lines.poll(120, TimeUnit.SECONDS);
                assertThat(line).as("the child's next line").isNotNull();
                if (line.startsWith("batch ")) {
                    long n = Long.parseLong(line.substring(6).trim());
                    if (n >= id) {
                        return n;
                    }
                }
            }
        }
    }

    private Child start() throws Exception {
        return start("rate");
    }

    private Child start(String mode) throws Exception {
        String java = ProcessHandle.current().info().command().orElse("java");
        Path err = tmp.resolve("child-" + children.size() + ".err");
        Process p = new ProcessBuilder(java, "-Xmx256m", "-cp", System.getProperty("java.class.path"),
                "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn", S3CrashChildMain.class.getName(),
                S3TestSupport.server().endpoint(), bucket, mode).redirectError(err.toFile()).start();
        children.add(p);
        BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        Thread reader = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(),
                    StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                    lines.add(line);
                }
            } catch (java.io.IOException e) {
                // the child died
            }
        }, "crash-child-stdout");
        reader.setDaemon(true);
        reader.start();
        return new Child(p, lines);
    }

    private List<String> keys() {
        return S3TestSupport.keys(client, bucket);
    }

    private String get(String key) {
        return S3TestSupport.get(client, bucket, key);
    }

    /** Every value in the files the manifest lists. */
    private List<Long> committedValues() {
        List<Long> values = new ArrayList<>();
        for (String data : committedFiles()) {
            Matcher v = VALUE.matcher(get(data));
            while (v.find()) {
                values.add(Long.parseLong(v.group(1)));
            }
        }
        return values;
    }

    /** The keys of the data files the manifest lists (a compact file repeats earlier entries: read the newest). */
    private List<String> committedFiles() {
        List<String> manifest = keys().stream().filter(k -> k.startsWith("out/_spark_metadata/")).toList();
        List<String> entries = new ArrayList<>();
        long lastCompact = -1;
        for (String k : manifest) {
            String name = k.substring("out/_spark_metadata/".length());
            if (name.endsWith(".compact")) {
                lastCompact = Math.max(lastCompact, Long.parseLong(name.substring(0, name.length() - 8)));
            }
        }
        for (String k : manifest) {
            String name = k.substring("out/_spark_metadata/".length());
            long id = Long.parseLong(name.replace(".compact", ""));
            if (id >= lastCompact) {
                Matcher m = PATH.matcher(get(k));
                while (m.find()) {
                    entries.add(m.group(1));
                }
            }
        }
        return entries;
    }

    private void assertExactlyOnce() {
        List<Long> values = committedValues().stream().sorted().toList();
        assertThat(values).isNotEmpty();
        assertThat(values).containsExactlyElementsOf(LongStream.range(0, values.size()).boxed().toList());
    }

    /**
     * The file source on S3 with its seen-files state in the S3 checkpoint, into the file sink on S3: killed
     * three times mid-stream, then run to the end. Every object's row is in the output exactly once, and the
     * state's snapshot (written every 10 log offsets) is on S3 beside the log.
     */
    @Test
    void theFileSourceOnAnS3CheckpointKilledThreeTimesGivesEveryObjectOnce() throws Exception {
        int objects = 80;
        for (int i = 0; i < objects; i++) {
            int v = i;
            client.putObject(r -> r.bucket(bucket).key(String.format("in/%03d.json", v)),
                    software.amazon.awssdk.core.sync.RequestBody.fromString("{\"value\":" + v + "}\n"));
        }
        long reached = 0;
        for (int i = 0; i < 3; i++) {
            Child c = start("files");
            reached = c.awaitBatch(reached + 2);
            c.process().destroyForcibly(); // SIGKILL, wherever the batch cycle is
            assertThat(c.process().waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertExactlyOnce();
            awaitLeaseExpired();
        }
        Child last = start("files-last");
        String result = null;
        while (result == null || result.startsWith("batch ")) {
            result = last.lines().poll(120, TimeUnit.SECONDS);
            assertThat(result).as("the last child's next line").isNotNull();
        }
        assertThat(last.process().waitFor(60, TimeUnit.SECONDS)).isTrue();
        String err = Files.readString(tmp.resolve("child-3.err"));
        assertThat(result).as(err).isEqualTo("done");
        assertThat(last.process().exitValue()).as(err).isZero();
        assertThat(committedValues().stream().sorted().toList())
                .containsExactlyElementsOf(LongStream.range(0, objects).boxed().toList());
        List<String> state = keys().stream().filter(k -> k.startsWith("chk/sources/0/")).toList();
        assertThat(state).anyMatch(k -> k.endsWith(".hot"));
        assertThat(state).noneMatch(k -> k.equals("chk/sources/0/0")); // compacted away
    }

    /** The windows in the committed output, as "start count" lines, in output order. */
    private List<String> committedWindows() {
        List<String> windows = new ArrayList<>();
        for (String data : committedFiles()) {
            Matcher w = WINDOW.matcher(get(data));
            while (w.find()) {
                windows.add(w.group(1) + " " + w.group(2));
            }
        }
        return windows;
    }

    /** Each window emitted so far is in the output once, with its 10 rows (one per second of event time). */
    private void assertEachWindowOnceAndWhole() {
        List<String> windows = committedWindows();
        assertThat(windows).doesNotHaveDuplicates().allMatch(w -> w.endsWith(" 10"));
    }

    /**
     * A 10-second tumbling window count (watermark 30 s) over objects on S3, its state in the S3 checkpoint, into
     * the file sink on S3: killed three times mid-stream, then run to the end. Each window is in the output exactly
     * once, with every row of it: a re-run batch loads the state version it started from, whatever the kill left.
     */
    @Test
    void aWindowedCountWithItsStateOnS3KilledThreeTimesEmitsEveryWindowOnce() throws Exception {
        java.time.Instant base = java.time.Instant.parse("2026-01-01T10:00:00Z");
        int objects = 80; // object i: event time base + i s, so windows [0,10) .. [70,80) of 10 rows each
        for (int i = 0; i < objects; i++) {
            int v = i;
            client.putObject(r -> r.bucket(bucket).key(String.format("in/%03d.json", v)),
                    software.amazon.awssdk.core.sync.RequestBody.fromString("{\"value\":" + v + ",\"ts\":\""
                            + base.plusSeconds(v) + "\"}\n"));
        }
        long reached = 0;
        for (int i = 0; i < 3; i++) {
            Child c = start("window");
            reached = c.awaitBatch(reached + 2);
            c.process().destroyForcibly(); // SIGKILL, wherever the batch cycle is
            assertThat(c.process().waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertEachWindowOnceAndWhole();
            awaitLeaseExpired();
        }
        // A row far ahead moves the watermark past the last window, which the last run then emits.
        client.putObject(r -> r.bucket(bucket).key("in/999.json"), software.amazon.awssdk.core.sync.RequestBody
                .fromString("{\"value\":999,\"ts\":\"" + base.plusSeconds(1000) + "\"}\n"));
        Child last = start("window-last");
        String result = null;
        while (result == null || result.startsWith("batch ")) {
            result = last.lines().poll(120, TimeUnit.SECONDS);
            assertThat(result).as("the last child's next line").isNotNull();
        }
        assertThat(last.process().waitFor(60, TimeUnit.SECONDS)).isTrue();
        String err = Files.readString(tmp.resolve("child-3.err"));
        assertThat(result).as(err).isEqualTo("done");
        List<String> expected = new ArrayList<>();
        for (int w = 0; w < objects; w += 10) {
            expected.add(base.plusSeconds(w).toString().replace("Z", ".000Z") + " 10");
        }
        assertThat(committedWindows().stream().sorted().toList()).containsExactlyElementsOf(expected);
        assertThat(keys()).anyMatch(k -> k.matches("chk/state/0/\\d+/\\d+\\.delta"))
                .contains("chk/state/0/_metadata/metadata");
    }

    private void awaitLeaseExpired() {
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            Matcher m = EXPIRES.matcher(get("chk/.lease"));
            return m.find() && System.currentTimeMillis() > Long.parseLong(m.group(1));
        });
    }

    @Test
    void killedThreeTimesThenStoppedTheOutputHoldsEveryRowOnce() throws Exception {
        long reached = 0;
        for (int i = 0; i < 3; i++) {
            Child c = start();
            reached = c.awaitBatch(reached + 2);
            c.process().destroyForcibly(); // SIGKILL, wherever the batch cycle is
            assertThat(c.process().waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertExactlyOnce();
            awaitLeaseExpired(); // the killed run's lease: the next run may take it only now
        }
        Child last = start();
        last.awaitBatch(reached + 2);
        try (PrintWriter w = new PrintWriter(last.process().getOutputStream(), true, StandardCharsets.UTF_8)) {
            w.println("stop");
        }
        assertThat(last.process().waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(last.process().exitValue()).as(Files.readString(tmp.resolve("child-3.err"))).isZero();
        assertExactlyOnce();
        // Released at a clean stop: expired at once.
        Matcher m = EXPIRES.matcher(get("chk/.lease"));
        assertThat(m.find()).isTrue();
        assertThat(m.group(1)).isEqualTo("0");
    }
}
