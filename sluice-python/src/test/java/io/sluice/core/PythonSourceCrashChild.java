package io.sluice.core;

import java.nio.file.Path;

/**
 * The process {@link PythonSourceCrashTest} kills: the Python source {@code endless} (100 rows a batch, two
 * partitions, read by Python workers) into the JSON file sink; prints {@code batch N} per batch; stops cleanly on
 * {@code stop} from stdin. Arguments: the .py file, checkpoint folder, output folder.
 */
public final class PythonSourceCrashChild {
    private PythonSourceCrashChild() {
    }

    public static void main(String[] args) throws Exception {
        try (Sluice sluice = Sluice.builder().parallelism(2).dataSourceFiles(Path.of(args[0])).build()) {
            CrashChildMain.reportBatches(sluice);
            StreamingQuery q = sluice.readStream().format("endless").load()
                    .writeStream().option("checkpointLocation", args[1])
                    .format("json").option("path", args[2]).start();
            CrashChildMain.runUntilStopped(q);
        }
    }
}
