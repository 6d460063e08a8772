package io.sluice.s3;

import io.sluice.core.CheckpointLockedException;
import io.sluice.core.ManualClock;
import io.sluice.core.Sluice;
import io.sluice.core.StreamingQuery;
import io.sluice.core.Trigger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.s3.S3Client;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/** A query whose checkpoint and file sink are both on the real S3-compatible server, through the whole engine. */
class S3CheckpointAndSinkTest {

    private final ManualClock clock = new ManualClock(100_000);
    private Sluice sluice;
    private S3Client client;
    private String bucket;

    @BeforeEach
    void setUp() {
        Sluice.Builder b = Sluice.builder().clock(clock).parallelism(2);
        S3TestSupport.sparkHadoopConf(b); // engine-wide, as --conf
        sluice = b.build();
        client = S3TestSupport.client();
        bucket = S3TestSupport.newBucket("chk-sink");
    }

    @AfterEach
    void tearDown() {
        sluice.close();
        client.close();
    }

    private StreamingQuery start(String scheme) {
        return sluice.readStream().format("rate").option("rowsPerSecond", 2).option("numPartitions", 2).load()
                .writeStream().format("json").option("path", scheme + "://" + bucket + "/out")
                .option("checkpointLocation", scheme + "://" + bucket + "/chk")
                .trigger(Trigger.processingTime(1000)).start();
    }

    private List<String> keys() {
        return S3TestSupport.keys(client, bucket);
    }

    private String get(String key) {
        return S3TestSupport.get(client, bucket, key);
    }

    /** The values of the rows in the files the manifest lists. */
    private List<Long> committedValues() {
        List<Long> values = new ArrayList<>();
        Pattern path = Pattern.compile("\"path\":\"s3a?://" + Pattern.quote(bucket) + "/([^\"]+)\"");
        Pattern value = Pattern.compile("\"value\":(\\d+)");
        for (String key : keys()) {
            if (!key.startsWith("out/_spark_metadata/")) {
                continue;
            }
            Matcher m = path.matcher(get(key));
            while (m.find()) {
                Matcher v = value.matcher(get(m.group(1)));
                while (v.find()) {
                    values.add(Long.parseLong(v.group(1)));
                }
            }
        }
        return values;
    }

    @Test
    void checkpointAndSinkOnS3GiveEachRowOnceAcrossARestartAndKeepNoSecret() {
        StreamingQuery q = start("s3a");
        clock.advance(2_000);
        await().until(() -> committedValues().size() == 4);
        q.stop();

        // s3:// and s3a:// name the same objects.
        clock.advance(1_000);
        StreamingQuery again = start("s3");
        await().until(() -> committedValues().size() == 6);
        again.stop();
        assertThat(committedValues().stream().sorted().toList()).containsExactly(0L, 1L, 2L, 3L, 4L, 5L);
        assertThat(keys()).contains("chk/metadata", "chk/offsets/0", "chk/commits/0", "chk/sources/0/0",
                "chk/.lease", "out/_spark_metadata/0");
        assertThat(keys()).noneMatch(k -> k.contains(".sluice-probe-"));
        for (String key : keys()) {
            if (key.startsWith("chk/")) {
                assertThat(get(key)).doesNotContain("test-secret-do-not-show").doesNotContain("test-access-key");
            }
        }
    }

    @Test
    void aSecondQueryOnOneS3CheckpointFailsAtOnce() {
        StreamingQuery q = start("s3a");
        try {
            assertThatThrownBy(() -> start("s3a")).isInstanceOf(CheckpointLockedException.class)
                    .hasMessageStartingWith("Checkpoint s3a://" + bucket + "/chk is in use by another running query "
                            + "(lease s3a://" + bucket + "/chk/.lease held by owner ");
        } finally {
            q.stop();
        }
        start("s3a").stop(); // released at stop: the next run starts at once
    }
}
