package io.sluice.python;

import io.sluice.api.Options;
import io.sluice.api.ReadLimit;
import io.sluice.api.Row;
import io.sluice.api.datasource.DataSource;
import io.sluice.api.datasource.DataSourceContext;
import io.sluice.api.datasource.DataSourceStreamReader;
import io.sluice.api.source.InputPartition;
import io.sluice.core.Sluice;
import io.sluice.core.StreamingQuery;
import io.sluice.core.Trigger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Rows per second from a Python stream reader yielding {@code (seq, account, amount)} tuples, through the engine
 * to noop, beside the same source in Java, in one run. A measurement, not a test of behaviour: run with
 * {@code -Dsluice.measure=true} ({@code -Dsluice.measure.rows=N}, default 4,000,000).
 */
@EnabledIfSystemProperty(named = "sluice.measure", matches = "true")
class PythonThroughputMeasure {
    static final long ROWS = Long.getLong("sluice.measure.rows", 4_000_000L);

    @TempDir
    Path tmp;

    record Span(long start, long end) implements InputPartition {
    }

    /** The Java twin of throughput_source.py. */
    static final class JavaThroughput implements DataSource {
        @Override
        public String name() {
            return "java-throughput";
        }

        @Override
        public String schemaDdl(Options options) {
            return "seq BIGINT, account STRING, amount BIGINT";
        }

        @Override
        public DataSourceStreamReader<?> streamReader(DataSourceContext c) {
            long total = Long.parseLong(c.options().require("total"));
            int parts = Integer.parseInt(c.options().require("partitions"));
            return new DataSourceStreamReader<Map<String, Object>>() {
                public Map<String, Object> initialOffset() {
                    return Map.of("seq", 0L);
                }

                public Map<String, Object> latestOffset() {
                    return Map.of("seq", total);
                }

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

                public Iterator<Row> read(InputPartition p) {
                    Span s = (Span) p;
                    return LongStream.range(s.start(), s.end())
                            .mapToObj(i -> Row.of(i, "acct-" + (i % 100), i * 10)).iterator();
                }
            };
        }
    }

    private double rowsPerSecond(Sluice sluice, String format, String chk) throws Exception {
        long t0 = System.nanoTime();
        StreamingQuery q = sluice.readStream().format(format).option("total", ROWS).option("partitions", 8).load()
                .writeStream().format("noop").option("checkpointLocation", tmp.resolve(chk).toString())
                .trigger(Trigger.availableNow()).start();
        q.awaitTermination();
        double s = (System.nanoTime() - t0) / 1e9;
        assertThat(q.lastProgress().numInputRows()).isEqualTo(ROWS);
        return ROWS / s;
    }

    /** The JVM's share: decoding one 8,192-row batch that Python's encoder wrote, many times. */
    @Test
    void decoding() throws Exception {
        Path home = PythonRuntime.home();
        Path batch = tmp.resolve("batch.bin");
        String script = "import json,sys; from sluice_rows import Encoder\n"
                + "s={'type':'struct','fields':[{'name':'seq','type':'long'},{'name':'account','type':'string'},"
                + "{'name':'amount','type':'long'}]}\n"
                + "open(sys.argv[1],'wb').write(Encoder(s).encode([(i,'acct-%d'%(i%100),i*10) for i in range(8192)]))";
        ProcessBuilder pb = new ProcessBuilder(PythonRuntime.python(), "-c", script, batch.toString()).inheritIO();
        pb.environment().put("PYTHONPATH", home.resolve("worker").toString());
        Process p = pb.start();
        assertThat(p.waitFor()).isZero();
        p.destroy();
        byte[] bytes = java.nio.file.Files.readAllBytes(batch);
        RowDecoder decoder = new RowDecoder(io.sluice.api.types.StructType.fromDDL(
                "seq BIGINT, account STRING, amount BIGINT"));
        for (int i = 0; i < 200; i++) {
            decoder.decode(bytes);
        }
        int n = 1000;
        long t0 = System.nanoTime();
        long rows = 0;
        for (int i = 0; i < n; i++) {
            rows += decoder.decode(bytes).length;
        }
        double s = (System.nanoTime() - t0) / 1e9;
        System.out.printf("MEASURE decode %.0f rows/s (%.3f us/row), %d bytes per 8192-row batch%n", rows / s,
                s * 1e6 / rows, bytes.length);
    }

    @Test
    void measure() throws Exception {
        try (Sluice sluice = Sluice.builder().parallelism(2)
                .dataSourceFiles(PythonSourceTest.py("throughput_source.py")).build()) {
            sluice.registerDataSource(new JavaThroughput());
            rowsPerSecond(sluice, "java-throughput", "warm-java");
            double java = rowsPerSecond(sluice, "java-throughput", "java");
            double python = rowsPerSecond(sluice, "py-throughput", "python");
            System.out.printf("MEASURE rows=%d java=%.0f rows/s python(2 workers)=%.0f rows/s ratio=%.2f%n",
                    ROWS, java, python, java / python);
        }
    }
}
