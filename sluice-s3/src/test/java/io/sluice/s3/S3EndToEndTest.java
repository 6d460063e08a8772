package io.sluice.s3;

import io.sluice.core.StreamingQuery;
import io.sluice.core.Sluice;
import io.sluice.core.Trigger;
import io.sluice.core.sinks.MemorySink;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.s3.S3Client;

import java.nio.file.Path;
import java.util.List;
import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The whole path on the real server: rate-micro-batch into a JSON file sink on s3a:// with the checkpoint on
 * s3a:// (the engine's storage contract, configured engine-wide), then the file source reading that output back
 * from S3 through its _spark_metadata manifest.
 */
class S3EndToEndTest {

    @TempDir
    Path tmp;

    @Test
    void aQueryCheckpointedOnS3WritesFilesThereThatTheFileSourceReadsBackExactlyOnce() throws Exception {
        String bucket = S3TestSupport.newBucket("e2e");
        Sluice.Builder b = Sluice.builder().parallelism(2);
        S3TestSupport.sparkHadoopConf(b);
        try (Sluice sluice = b.build()) {
            for (int run = 0; run < 2; run++) {
                // The rate source keeps its state on the store (its provider says so); two batches a run.
                StreamingQuery q = sluice.readStream().format("rate").option("rowsPerSecond", 20).load()
                        .selectExpr("value").writeStream().format("json")
                        .option("checkpointLocation", "s3a://" + bucket + "/chk/q1")
                        .trigger(Trigger.processingTime(200)).start("s3a://" + bucket + "/out");
                long firstBatch = run * 10L;
                org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(60)).until(() ->
                        q.lastProgress() != null && q.lastProgress().batchId() >= firstBatch + 1
                                && q.lastProgress().numInputRows() > 0);
                q.stop();
                assertThat(q.exception()).isEmpty();
            }
            try (S3Client c = S3TestSupport.client()) {
                assertThat(S3TestSupport.keys(c, bucket)).contains("chk/q1/metadata", "chk/q1/offsets/0",
                        "chk/q1/commits/0", "chk/q1/offsets/1", "chk/q1/commits/1", "out/_spark_metadata/0");
            }
            var reader = sluice.readStream().format("json").schema("value long");
            S3TestSupport.conf().forEach(reader::option);
            StreamingQuery back = reader.load("s3a://" + bucket + "/out").writeStream().format("memory")
                    .queryName("e2e_back").option("checkpointLocation", tmp.resolve("chk").toString())
                    .trigger(Trigger.availableNow()).start();
            assertThat(back.awaitTermination(60_000)).isTrue();
            assertThat(back.exception()).isEmpty();
            List<Long> values = MemorySink.rows("e2e_back").stream().map(r -> r.getLong(0)).sorted().toList();
            // Every value the two runs committed, once: the second run resumed from the S3 checkpoint.
            assertThat(values).isNotEmpty().isEqualTo(LongStream.range(0, values.size()).boxed().toList());
        }
    }
}
