package io.sluice.s3;

import io.sluice.api.Row;
import io.sluice.core.StreamingQuery;
import io.sluice.core.Sluice;
import io.sluice.core.Trigger;
import io.sluice.core.sinks.MemorySink;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.s3.S3Client;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * kill -9 of a useNotifications query in the middle of a batch, before its commit: the message stays in the
 * queue, and the next run reads the file once (the batch re-run from the seen-files log) and deletes the message
 * when the queue delivers it again.
 */
class S3NotificationsCrashTest {
    @TempDir
    Path tmp;
    private Process child;

    @AfterEach
    void tearDown() {
        if (child != null) {
            child.destroyForcibly();
        }
    }

    @Test
    void aQueryKilledBeforeItsCommitLeavesTheMessageAndTheNextRunReadsTheFileOnce() throws Exception {
        String bucket = S3TestSupport.newBucket("notif-crash");
        String queue = SharedSqsServer.newQueue("crash", 1);
        try (S3Client client = S3TestSupport.client()) {
            S3TestSupport.put(client, bucket, "in/a.json", "{\"id\":1}\n");
        }
        SharedSqsServer.sendEvent(queue, "ObjectCreated:Put", bucket, "in/a.json");
        Path chk = tmp.resolve("chk");
        String java = ProcessHandle.current().info().command().orElse("java");
        child = new ProcessBuilder(java, "-Xmx256m", "-cp", System.getProperty("java.class.path"),
                "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn", S3NotificationsCrashChildMain.class.getName(),
                S3TestSupport.server().endpoint(), bucket, queue, chk.toString())
                .redirectError(tmp.resolve("child.err").toFile()).start();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(child.getInputStream(),
                StandardCharsets.UTF_8))) {
            String line;
            do {
                line = r.readLine();
                assertThat(line).as(() -> "the child's output; its errors: " + readQuietly(tmp.resolve("child.err")))
                        .isNotNull();
            } while (!line.startsWith("in batch 0"));
        }
        child.destroyForcibly(); // SIGKILL, inside batch 0
        assertThat(child.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(SharedSqsServer.messagesIn(queue)).isEqualTo(1); // received, never deleted

        String table = S3TestSupport.tableName("crash_");
        try (Sluice sluice = Sluice.builder().parallelism(2).build()) {
            await().atMost(Duration.ofSeconds(60)).until(() -> {
                var reader = sluice.readStream().format("json").schema("id long");
                S3TestSupport.conf().forEach(reader::option);
                StreamingQuery q = reader.option("useNotifications", "true").option("queueUrl", queue)
                        .load("s3a://" + bucket + "/in").writeStream().format("memory").queryName(table)
                        .option("checkpointLocation", chk.toString()).trigger(Trigger.availableNow()).start();
                assertThat(q.awaitTermination(60_000)).isTrue();
                return SharedSqsServer.messagesIn(queue) == 0;
            });
        }
        assertThat(MemorySink.rows(table).stream().map(Row::toString).toList()).containsExactly("[1]");
        assertThat(MemorySink.batches(table)).containsOnlyKeys(0L);
    }

    private static String readQuietly(Path p) {
        try {
            return Files.readString(p);
        } catch (java.io.IOException e) {
            return "(none)";
        }
    }
}
