package io.sluice.bench;

import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.StreamingQueryProgress;
import org.apache.spark.sql.streaming.Trigger;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * The table workloads of sluice-table-bench's TableBench on Spark 4.0.1 local[2] with the official connectors
 * (delta-spark 4.0.0, iceberg-spark-runtime 1.10.0), the same arguments and result line ({@code engine=spark}):
 *
 * <pre>
 * read delta|iceberg DIR                                  the table streamed whole to noop (availableNow for Delta;
 *                                                         iceberg-spark 1.10 does not take availableNow and Spark
 *                                                         runs it as one batch of everything, Trigger.Once)
 * write delta|iceberg [rowsPerBatch=100000] [batches=10]  rate-micro-batch into the sink, back to back, until
                                                              `batches` are committed; rows
 *                                                         committed (counted in the table) per second
 * </pre>
 */
public final class SparkTableBench {
    private SparkTableBench() {
    }

    public static void main(String[] args) throws Exception {
        long mainEntered = System.nanoTime();
        String workload = args[0];
        String format = args[1];
        SparkSession spark = SparkSession.builder().master("local[2]").appName("table-bench")
                .config("spark.ui.enabled", "false")
                .config("spark.sql.shuffle.partitions", "2")
                .config("spark.sql.extensions", "io.delta.sql.DeltaSparkSessionExtension,"
                        + "org.apache.iceberg.spark.extensions.IcebergSparkSessionExtensions")
                .config("spark.sql.catalog.spark_catalog", "org.apache.spark.sql.delta.catalog.DeltaCatalog")
                // iceberg-spark loads a table by path through its own catalog default_iceberg (Hive by default,
                // which needs a metastore): a Hadoop one, whose warehouse is not used for paths.
                .config("spark.sql.catalog.default_iceberg", "org.apache.iceberg.spark.SparkCatalog")
                .config("spark.sql.catalog.default_iceberg.type", "hadoop")
                .config("spark.sql.catalog.default_iceberg.warehouse", System.getProperty("java.io.tmpdir")
                        + "/spark-table-bench-warehouse")
                .getOrCreate();
        spark.sparkContext().setLogLevel("WARN");
        try {
            switch (workload) {
                case "read" -> read(spark, mainEntered, format, args[2]);
                case "write" -> write(spark, mainEntered, format, arg(args, 2, 100_000), arg(args, 3, 10));
                default -> {
                    System.err.println("usage: SparkTableBench read|write delta|iceberg ...");
                    System.exit(2);
                }
            }
        } finally {
            spark.stop();
        }
        System.exit(0);
    }

    private static long arg(String[] args, int i, long dflt) {
        return args.length > i ? Long.parseLong(args[i]) : dflt;
    }

    static void read(SparkSession spark, long mainEntered, String format, String dir) throws Exception {
        Path chk = Files.createTempDirectory("spark-table-read");
        try {
            long started = System.nanoTime();
            StreamingQuery q = spark.readStream().format(format).load(dir).writeStream().format("noop")
                    .option("checkpointLocation", chk.toString()).trigger(Trigger.AvailableNow()).start();
            q.awaitTermination();
            long end = System.nanoTime();
            long rows = 0;
            for (StreamingQueryProgress p : q.recentProgress()) {
                rows += p.numInputRows();
            }
            line(format + "read", rows, mainEntered, started, end);
        } finally {
            deleteRecursively(chk);
        }
    }

    static void write(SparkSession spark, long mainEntered, String format, long rowsPerBatch, long batches)
            throws Exception {
        Path chk = Files.createTempDirectory("spark-table-write");
        Path table = Files.createTempDirectory("spark-table-out").resolve("t");
        try {
            long started = System.nanoTime();
            org.apache.spark.sql.Dataset<org.apache.spark.sql.Row> rate = spark.readStream()
                    .format("rate-micro-batch").option("rowsPerBatch", rowsPerBatch).option("numPartitions", 2)
                    .load();
            if (format.equals("iceberg")) {
                // iceberg-spark's streaming sink writes into an existing table only: a Hadoop table at the path
                // with the stream's schema (Sluice's sink creates it itself, and the creation is timed there too).
                new org.apache.iceberg.hadoop.HadoopTables(spark.sessionState().newHadoopConf()).create(
                        org.apache.iceberg.spark.SparkSchemaUtil.convert(rate.schema()), table.toString());
            }
            StreamingQuery q = rate.writeStream().format(format)
                    .option("checkpointLocation", chk.toString()).start(table.toString());
            // Until `batches` batches are committed (the progress of a batch comes after its commit): a fixed
            // amount of work for both engines, however loaded the machine is.
            while (q.isActive() && (q.lastProgress() == null || q.lastProgress().batchId() < batches - 1)) {
                Thread.sleep(20);
            }
            q.stop();
            long end = System.nanoTime();
            long rows = spark.read().format(format).load(table.toString()).count();
            line(format + "write", rows, mainEntered, started, end);
        } finally {
            deleteRecursively(chk);
            deleteRecursively(table.getParent());
        }
    }

    private static void line(String workload, long rows, long mainEntered, long started, long end) {
        long wholeMs = (end - mainEntered) / 1_000_000;
        long queryMs = (end - started) / 1_000_000;
        System.out.println("engine=spark workload=" + workload + " rows=" + rows + " wholeMs=" + wholeMs
                + " queryMs=" + queryMs + " rowsPerSec=" + (queryMs == 0 ? 0 : rows * 1000 / queryMs));
    }

    private static void deleteRecursively(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
