package io.sluice.s3;

import io.sluice.core.Functions;
import io.sluice.core.Sluice;
import io.sluice.core.StreamFrame;
import io.sluice.core.StreamingQuery;
import io.sluice.core.StreamingQueryListener;
import io.sluice.core.Trigger;

import java.util.Map;

/**
 * The process {@link S3CrashTest} kills with SIGKILL: the rate source (fast, 2 partitions) into the json file sink,
 * checkpoint and sink both on S3. Prints {@code batch N} after each batch; runs until killed or {@code stop} on
 * stdin. Arguments: endpoint, bucket.
 */
public final class S3CrashChildMain {
    private S3CrashChildMain() {
    }

    public static void main(String[] args) throws Exception {
        String endpoint = args[0];
        String bucket = args[1];
        Sluice.Builder b = Sluice.builder().parallelism(2).config(Sluice.CHECKPOINT_LEASE_TIMEOUT, "2s");
        for (Map.Entry<String, String> e : S3TestSupport.conf(endpoint).entrySet()) {
            b.config(e.getKey(), e.getValue());
        }
        try (Sluice sluice = b.build()) {
            sluice.addListener(new StreamingQueryListener() {
                @Override
                public void onQueryStarted(QueryStartedEvent event) {
                }

                @Override
                public void onQueryProgress(QueryProgressEvent event) {
                    System.out.println("batch " + event.progress().batchId());
                    System.out.flush();
                }

                @Override
                public void onQueryTerminated(QueryTerminatedEvent event) {
                }
            });
            // "files": the file source reads s3a://<bucket>/in (two objects a batch), its seen-files state in the
            // S3 checkpoint; "files-last": the same, until every object is read, then the child stops by itself.
            // "window", "window-last": the same objects with an event time, counted in 10-second tumbling windows
            // (watermark 30 s) with the state in the S3 checkpoint; append mode emits each window once it closes.
            String mode = args.length > 2 ? args[2] : "rate";
            StreamFrame input = mode.startsWith("files")
                    ? sluice.readStream().format("json").schema("value long").option("maxFilesPerTrigger", "2")
                    .load("s3a://" + bucket + "/in")
                    : mode.startsWith("window")
                    ? sluice.readStream().format("json").schema("value long, ts timestamp")
                    .option("maxFilesPerTrigger", "2").load("s3a://" + bucket + "/in")
                    .withWatermark("ts", "30 seconds").groupBy(Functions.window(Functions.col("ts"), "10 seconds"))
                    .count()
                    : sluice.readStream().format("rate").option("rowsPerSecond", 50).option("numPartitions", 2).load();
            boolean last = mode.endsWith("-last");
            StreamingQuery q = input.writeStream().format("json").option("path", "s3a://" + bucket + "/out")
                    .option("checkpointLocation", "s3a://" + bucket + "/chk")
                    .trigger(last ? Trigger.availableNow() : Trigger.processingTime(100))
                    .start();
            if (last) {
                q.awaitTermination();
                System.out.println(q.exception().map(e -> "failed " + e).orElse("done"));
                return;
            }
            java.io.BufferedReader in = new java.io.BufferedReader(new java.io.InputStreamReader(System.in));
            String line;
            while ((line = in.readLine()) != null && !line.equals("stop")) {
                // wait for the parent
            }
            q.stop();
        }
        System.out.println("stopped");
    }
}
