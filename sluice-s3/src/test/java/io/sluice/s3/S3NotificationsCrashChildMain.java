package io.sluice.s3;

import io.sluice.core.Sluice;
import io.sluice.core.StreamingQuery;
import io.sluice.core.Trigger;

import java.util.concurrent.CountDownLatch;

/**
 * The process {@link S3NotificationsCrashTest} kills with SIGKILL in the middle of a batch: a file source with
 * useNotifications into a foreachBatch sink that prints {@code in batch N} and then blocks, so the batch never
 * commits. Arguments: the S3 endpoint, the bucket, the queue URL, the checkpoint folder.
 */
public final class S3NotificationsCrashChildMain {
    private S3NotificationsCrashChildMain() {
    }

    public static void main(String[] args) throws Exception {
        try (Sluice sluice = Sluice.builder().parallelism(2).build()) {
            var reader = sluice.readStream().format("json").schema("id long");
            S3TestSupport.conf(args[0]).forEach(reader::option);
            CountDownLatch never = new CountDownLatch(1);
            StreamingQuery q = reader.option("useNotifications", "true").option("queueUrl", args[2])
                    .load("s3a://" + args[1] + "/in").writeStream()
                    .foreachBatch((batch, id) -> {
                        System.out.println("in batch " + id);
                        System.out.flush();
                        never.await(); // killed here, before the batch commits
                    })
                    .option("checkpointLocation", args[3]).trigger(Trigger.processingTime(100)).start();
            q.awaitTermination();
        }
    }
}
