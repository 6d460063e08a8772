package io.sluice.python;

import io.sluice.api.Options;
import io.sluice.api.Row;
import io.sluice.api.datasource.DataSource;
import io.sluice.api.datasource.DataSourceContext;
import io.sluice.api.datasource.DataSourceStreamReader;
import io.sluice.api.source.InputPartition;
import io.sluice.api.types.StructType;
import io.sluice.core.Sluice;
import io.sluice.core.StreamingQuery;
import io.sluice.core.Trigger;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.LongStream;

/**
 * The {@code python} benchmark (bench/run.sh python; docs/benchmarks.md): rows per second from a Python stream
 * reader yielding {@code (seq, account, amount)} tuples (throughput_source.py), with 2 reading workers, through the
 * engine to {@code noop}, against the same source written with the Java API, alternating in one JVM; then where a
 * Python row's time goes, stage by stage. In this package (in the bench jar) to reach the decoder and the worker
 * scripts that sluice-python keeps package-private.
 *
 * <pre>
 * python [rows=4000000] [rounds=3]
 *   sluice python-round round=K java_seconds=.. java_rows_per_s=.. python_seconds=.. python_rows_per_s=.. ratio=..
 *   sluice python rows=.. ... (the median round of each source, by rows/s, and every round's ratio)
 *   sluice python-stages rows=.. generate_us=.. encode_us=.. send_us=.. decode_us=.. bytes_per_row=..
 * </pre>
 */
public final class PythonBench {
    static final String DDL = "seq BIGINT, account STRING, amount BIGINT";
    static final int PARTITIONS = 8;

    private PythonBench() {
    }

    record Span(long start, long end) implements InputPartition {
    }

    /** The Java twin of throughput_source.py: the same rows, offsets and partitions. */
    static final class JavaThroughput implements DataSource {
        @Override
        public String name() {
            return "java-throughput";
        }

        @Override
        public String schemaDdl(Options options) {
            return DDL;
        }

        @Override
        public DataSourceStreamReader<?> streamReader(DataSourceContext c) {
            long total = Long.parseLong(c.options().require("total"));
            int parts = Integer.parseInt(c.options().require("partitions"));
            return new DataSourceStreamReader<Map<String, Object>>() {
                @Override
                public Map<String, Object> initialOffset() {
                    return Map.of("seq", 0L);
                }

                @Override
                public Map<String, Object> latestOffset() {
                    return Map.of("seq", total);
                }

                @Override
                public List<? extends InputPartition> partitions(Map<String, Object> s, Map<String, Object> e) {
                    long a = ((Number) s.get("seq")).longValue();
                    long b = ((Number) e.get("seq")).longValue();
                    long step = (b - a + parts - 1) / parts;
                    List<Span> out = new ArrayList<>();
                    for (long x = a; x < b; x += step) {
                        out.add(new Span(x, Math.min(b, x + step)));
                    }
                    return out;
                }

                @Override
                public Iterator<Row> read(InputPartition p) {
                    Span s = (Span) p;
                    return LongStream.range(s.start(), s.end())
                            .mapToObj(i -> Row.of(i, "acct-" + (i % 100), i * 10)).iterator();
                }
            };
        }
    }

    public static void run(long rows, int rounds, Path dir) throws Exception {
        Path source = dir.resolve("throughput_source.py");
        Path stages = dir.resolve("python_stages.py");
        copy("/io/sluice/bench/throughput_source.py", source);
        copy("/io/sluice/bench/python_stages.py", stages);
        List<double[]> results = new ArrayList<>();
        try (Sluice sluice = Sluice.builder().parallelism(2).dataSourceFiles(source).build()) {
            sluice.registerDataSource(new JavaThroughput());
            // warm-up: the JIT for both paths, and the Python reading workers started (they stay warm)
            seconds(sluice, "java-throughput", rows, dir, "warm-java");
            seconds(sluice, "py-throughput", rows / 4, dir, "warm-python");
            for (int r = 1; r <= rounds; r++) {
                double java = seconds(sluice, "java-throughput", rows, dir, "java-" + r);
                double python = seconds(sluice, "py-throughput", rows, dir, "python-" + r);
                results.add(new double[] {java, python});
                System.out.printf(Locale.ROOT, "sluice python-round round=%d java_seconds=%.3f java_rows_per_s=%.0f"
                                + " python_seconds=%.3f python_rows_per_s=%.0f ratio=%.2f%n", r, java, rows / java,
                        python, rows / python, python / java);
            }
        }
        double[] java = results.stream().mapToDouble(x -> x[0]).sorted().toArray();
        double[] python = results.stream().mapToDouble(x -> x[1]).sorted().toArray();
        double j = java[(java.length - 1) / 2];
        double p = python[(python.length - 1) / 2];
        StringBuilder ratios = new StringBuilder();
        for (double[] x : results) {
            ratios.append(ratios.length() == 0 ? "" : ",").append(String.format(Locale.ROOT, "%.2f", x[1] / x[0]));
        }
        System.out.printf(Locale.ROOT, "sluice python rows=%d partitions=%d workers=2 rounds=%d java_seconds=%.3f"
                        + " java_rows_per_s=%.0f python_seconds=%.3f python_rows_per_s=%.0f ratio=%.2f"
                        + " round_ratios=%s%n", rows, PARTITIONS, rounds, j, rows / j, p, rows / p, p / j, ratios);
        stages(rows, stages, source);
    }

    private static double seconds(Sluice sluice, String format, long rows, Path dir, String name) throws Exception {
        Path chk = Files.createTempDirectory(dir, name + "-");
        long t0 = System.nanoTime();
        StreamingQuery q = sluice.readStream().format(format).option("total", rows).option("partitions", PARTITIONS)
                .load().writeStream().format("noop").option("checkpointLocation", chk.toString())
                .trigger(Trigger.availableNow()).start();
        q.awaitTermination();
        double s = (System.nanoTime() - t0) / 1e9;
        if (q.lastProgress().numInputRows() != rows) {
            throw new IllegalStateException(format + " read " + q.lastProgress().numInputRows() + " rows, not " + rows);
        }
        return s;
    }

    /**
     * One partition (rows / 8) read by the worker's own loop in python_stages.py, each stage timed there; its
     * batches come through a pipe as a reading worker's do, and are decoded here afterwards, timed alone.
     */
    private static void stages(long rows, Path script, Path source) throws Exception {
        StructType schema = StructType.fromDDL(DDL);
        Path home = PythonRuntime.home();
        ProcessBuilder pb = new ProcessBuilder(PythonRuntime.python(), "-B", script.toString(),
                home.resolve("lib").toString(), source.toString(), "Throughput", Long.toString(rows),
                Integer.toString(PARTITIONS), SchemaJson.write(schema), Integer.toString(PythonDataSources.BATCH_ROWS));
        pb.environment().put("PYTHONPATH", home.resolve("worker").toString());
        Process proc = pb.start();
        List<byte[]> batches = new ArrayList<>();
        long readNs = System.nanoTime();
        try (DataInputStream in = new DataInputStream(new BufferedInputStream(proc.getInputStream(), 1 << 16))) {
            while (true) {
                int n;
                try {
                    n = in.readInt();
                } catch (EOFException e) {
                    break;
                }
                if (in.readByte() != 'B') {
                    throw new IllegalStateException("not a batch frame");
                }
                byte[] b = new byte[n - 1];
                in.readFully(b);
                batches.add(b);
            }
        }
        readNs = System.nanoTime() - readNs;
        String err = new String(proc.getErrorStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        if (proc.waitFor() != 0) {
            throw new IllegalStateException("python_stages.py failed: " + err);
        }
        Map<String, String> py = new java.util.HashMap<>();
        for (String kv : err.lines().reduce((a, b) -> b).orElse("").split(" ")) {
            String[] p = kv.split("=", 2);
            py.put(p[0], p.length > 1 ? p[1] : "");
        }
        long n = Long.parseLong(py.get("rows"));
        RowDecoder decoder = new RowDecoder(schema);
        long decoded = 0;
        long best = Long.MAX_VALUE;
        for (int pass = 0; pass < 3; pass++) {  // the best of 3 passes: the decoder alone, not the machine's noise
            long t0 = System.nanoTime();
            long k = 0;
            for (byte[] b : batches) {
                k += decoder.decode(b).length;
            }
            best = Math.min(best, System.nanoTime() - t0);
            decoded = k;
        }
        if (decoded != n) {
            throw new IllegalStateException("decoded " + decoded + " rows of " + n);
        }
        double us = 1e6 / n;
        System.out.printf(Locale.ROOT, "sluice python-stages rows=%d batch_rows=%d batches=%d generate_us=%.3f"
                        + " encode_us=%.3f send_us=%.3f jvm_read_us=%.3f decode_us=%.3f bytes_per_row=%.1f"
                        + " generate_rows_per_s=%.0f%n", n, PythonDataSources.BATCH_ROWS, batches.size(),
                Double.parseDouble(py.get("generate")) * us, Double.parseDouble(py.get("encode")) * us,
                Double.parseDouble(py.get("send")) * us, readNs / 1e3 / n, best / 1e3 / n,
                (double) Long.parseLong(py.get("bytes")) / n, n / Double.parseDouble(py.get("generate")));
    }

    private static void copy(String resource, Path to) throws IOException {
        try (InputStream in = PythonBench.class.getResourceAsStream(resource)) {
            Files.write(to, in.readAllBytes());
        }
    }
}
