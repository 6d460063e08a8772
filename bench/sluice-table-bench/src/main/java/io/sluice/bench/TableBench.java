package io.sluice.bench;

import io.sluice.api.Row;
import io.sluice.api.types.StructType;
import io.sluice.core.Sluice;
import io.sluice.core.StreamingQuery;
import io.sluice.core.Trigger;
import io.sluice.core.sources.MemoryStream;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * The table workloads on Sluice (bench/tables.sh; Spark's peer is bench/spark40-bench's SparkTableBench):
 *
 * <pre>
 * gen delta|iceberg DIR [commits=100] [rowsPerCommit=20000]  a table of commits x rows (id bigint, account string,
 *                                                            amount double, ts timestamp), one commit per batch of
 *                                                            Sluice's sink, one file per commit
 * read delta|iceberg DIR                                     the table streamed whole (availableNow) to noop
 * write delta|iceberg [rowsPerBatch=100000] [batches=10]     rate-micro-batch into the sink, back to back, until
                                                              `batches` are committed; rows
 *                                                            committed (counted in the table) per second
 * </pre>
 *
 * One result line: {@code engine=sluice workload=... rows=N wholeMs=W queryMs=Q rowsPerSec=R}: whole is from main's
 * first line (the engine's creation included) to the query's end, query from its start().
 */
public final class TableBench {
    private TableBench() {
    }

    public static void main(String[] args) throws Exception {
        long mainEntered = System.nanoTime();
        String workload = args[0];
        String format = args[1];
        switch (workload) {
            case "gen" -> gen(format, Path.of(args[2]), arg(args, 3, 100), arg(args, 4, 20_000));
            case "read" -> read(mainEntered, format, args[2]);
            case "write" -> write(mainEntered, format, arg(args, 2, 100_000), arg(args, 3, 10));
            default -> {
                System.err.println("usage: TableBench gen|read|write delta|iceberg ...");
                System.exit(2);
            }
        }
        System.exit(0);
    }

    private static long arg(String[] args, int i, long dflt) {
        return args.length > i ? Long.parseLong(args[i]) : dflt;
    }

    static void gen(String format, Path dir, long commits, long rowsPerCommit) throws Exception {
        Path chk = Files.createTempDirectory("sluice-table-gen");
        MemoryStream in = MemoryStream.create(StructType.fromDDL(
                "id bigint, account string, amount double, ts timestamp"));
        // One partition per batch: one file per commit, as a table fed by small streaming commits looks.
        try (Sluice sluice = Sluice.builder().parallelism(1).build()) {
            StreamingQuery q = sluice.readStream().format("memory").option("name", in.name()).load().writeStream()
                    .format(format).option("checkpointLocation", chk.toString()).start(dir.toString());
            long id = 0;
            Instant t0 = Instant.parse("2026-01-01T00:00:00Z");
            for (long c = 0; c < commits; c++) {
                Row[] rows = new Row[(int) rowsPerCommit];
                for (int i = 0; i < rowsPerCommit; i++, id++) {
                    rows[i] = Row.of(id, "acct-" + (id % 1000), (id % 10_000) / 100.0, t0.plusMillis(id));
                }
                in.addData(rows);
                q.processAllAvailable();
            }
            q.stop();
        } finally {
            in.unregister();
            deleteRecursively(chk);
        }
        System.out.println("generated " + format + " table " + dir + ": " + commits + " commits x " + rowsPerCommit
                + " rows");
    }

    static void read(long mainEntered, String format, String dir) throws Exception {
        Path chk = Files.createTempDirectory("sluice-table-read");
        try (Sluice sluice = Sluice.local()) {
            long started = System.nanoTime();
            StreamingQuery q = sluice.readStream().format(format).load(dir).writeStream().format("noop")
                    .option("checkpointLocation", chk.toString()).trigger(Trigger.availableNow()).start();
            q.awaitTermination();
            long end = System.nanoTime();
            long rows = q.recentProgress().stream().mapToLong(p -> p.numInputRows()).sum();
            line(format + "read", rows, mainEntered, started, end);
        } finally {
            deleteRecursively(chk);
        }
    }

    static void write(long mainEntered, String format, long rowsPerBatch, long batches) throws Exception {
        Path chk = Files.createTempDirectory("sluice-table-write");
        Path table = Files.createTempDirectory("sluice-table-out").resolve("t");
        try (Sluice sluice = Sluice.local()) {
            long started = System.nanoTime();
            StreamingQuery q = sluice.readStream().format("rate-micro-batch").option("rowsPerBatch", rowsPerBatch)
                    .option("numPartitions", 2).load().writeStream().format(format)
                    .option("checkpointLocation", chk.toString()).start(table.toString());
            // Until `batches` batches are committed (the progress of a batch comes after its commit): a fixed
            // amount of work for both engines, however loaded the machine is.
            while (q.isActive() && (q.lastProgress() == null || q.lastProgress().batchId() < batches - 1)) {
                Thread.sleep(20);
            }
            q.stop();
            long end = System.nanoTime();
            long rows = sluice.read().format(format).load(table.toString()).count();
            line(format + "write", rows, mainEntered, started, end);
        } finally {
            deleteRecursively(chk);
            deleteRecursively(table.getParent());
        }
    }

    private static void line(String workload, long rows, long mainEntered, long started, long end) {
        long wholeMs = (end - mainEntered) / 1_000_000;
        long queryMs = (end - started) / 1_000_000;
        System.out.println("engine=sluice workload=" + workload + " rows=" + rows + " wholeMs=" + wholeMs
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
