package io.sluice.iceberg;

import io.sluice.api.Row;
import io.sluice.api.types.StructType;
import io.sluice.core.Sluice;
import io.sluice.core.StreamingQuery;
import io.sluice.core.Trigger;
import io.sluice.core.sinks.MemorySink;
import io.sluice.core.sources.MemoryStream;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.hadoop.HadoopTables;
import org.apache.iceberg.io.CloseableIterable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every type the sink and the source support, through the sink's InternalWriter views and the source's
 * InternalReader rows: what Iceberg's own generic reader finds in the table, and what Sluice reads back, exactly.
 */
class IcebergTypesTest {
    private static final String DDL = "id bigint, b boolean, t tinyint, s smallint, i int, f float, d double, "
            + "str string, bin binary, dt date, ts timestamp, dec decimal(20,4), "
            + "st struct<x: int, y: string, at: timestamp>, arr array<timestamp>, m map<string,date>";
    private static final Instant BEFORE_EPOCH = Instant.parse("1969-12-31T23:59:59.999999Z");
    private static final Instant LATER = Instant.parse("2026-12-03T10:15:30.123456Z");

    @TempDir
    Path tmp;
    private final Sluice sluice = Sluice.builder().parallelism(2).build();
    private final String sink = "types_" + UUID.randomUUID().toString().replace('-', '_');

    @AfterEach
    void tearDown() {
        sluice.close();
        MemorySink.clear(sink);
    }

    private static Map<String, LocalDate> dates(String key, LocalDate value) {
        Map<String, LocalDate> m = new LinkedHashMap<>();
        m.put(key, value);
        m.put("none", null);
        return m;
    }

    /** Row 1 with a value of every type (edge values: before the epoch, non-ASCII, negative), row 2 all nulls. */
    private static Row[] input() {
        Row full = Row.of(1L, true, (byte) -7, (short) 300, Integer.MIN_VALUE, 1.5f, -2.25, "zoë ☃",
                new byte[] {0, -1, 42}, LocalDate.of(1969, 12, 31), BEFORE_EPOCH, new BigDecimal("-12345678.9012"),
                Row.of(3, "y", LATER), Arrays.asList(LATER, null, BEFORE_EPOCH), dates("k", LocalDate.of(2026, 12, 3)));
        Row nulls = Row.of(2L, null, null, null, null, null, null, null, null, null, null, null, null, null, null);
        return new Row[] {full, nulls};
    }

    /** The rows as Sluice reads them back: tinyint and smallint were written as Iceberg ints. */
    private static List<Row> expected() {
        Row full = Row.of(1L, true, -7, 300, Integer.MIN_VALUE, 1.5f, -2.25, "zoë ☃", new byte[] {0, -1, 42},
                LocalDate.of(1969, 12, 31), BEFORE_EPOCH, new BigDecimal("-12345678.9012"), Row.of(3, "y", LATER),
                Arrays.asList(LATER, null, BEFORE_EPOCH), dates("k", LocalDate.of(2026, 12, 3)));
        Row nulls = Row.of(2L, null, null, null, null, null, null, null, null, null, null, null, null, null, null);
        return List.of(full, nulls);
    }

    private Path write(String partitionBy) throws Exception {
        Path dir = tmp.resolve("t");
        MemoryStream in = MemoryStream.create(StructType.fromDDL(DDL));
        try {
            var writer = sluice.readStream().format("memory").option("name", in.name()).load().writeStream()
                    .format("iceberg").option("checkpointLocation", tmp.resolve("chk-w").toString());
            if (partitionBy != null) {
                writer = writer.partitionBy(partitionBy);
            }
            StreamingQuery q = writer.start(dir.toString());
            in.addData(input());
            q.processAllAvailable();
            q.stop();
        } finally {
            in.unregister();
        }
        return dir;
    }

    private static OffsetDateTime utc(Instant t) {
        return t.atOffset(ZoneOffset.UTC);
    }

    /** What the sink stored, read by Iceberg's generic reader (not Sluice's): Iceberg's Java forms of the values. */
    private static void assertStoredByIceberg(Path dir) throws Exception {
        Table t = new HadoopTables(new Configuration()).load(dir.toString());
        List<Record> records = new ArrayList<>();
        try (CloseableIterable<Record> all = IcebergGenerics.read(t).build()) {
            all.forEach(r -> records.add(r.copy()));
        }
        records.sort(Comparator.comparing(r -> (Long) r.getField("id")));
        assertThat(records).hasSize(2);
        Record r = records.get(0);
        assertThat(r.getField("b")).isEqualTo(true);
        assertThat(r.getField("t")).isEqualTo(-7);
        assertThat(r.getField("s")).isEqualTo(300);
        assertThat(r.getField("i")).isEqualTo(Integer.MIN_VALUE);
        assertThat(r.getField("f")).isEqualTo(1.5f);
        assertThat(r.getField("d")).isEqualTo(-2.25);
        assertThat(r.getField("str")).isEqualTo("zoë ☃");
        assertThat(r.getField("bin")).isEqualTo(ByteBuffer.wrap(new byte[] {0, -1, 42}));
        assertThat(r.getField("dt")).isEqualTo(LocalDate.of(1969, 12, 31));
        assertThat(r.getField("ts")).isEqualTo(utc(BEFORE_EPOCH));
        assertThat(r.getField("dec")).isEqualTo(new BigDecimal("-12345678.9012"));
        Record st = (Record) r.getField("st");
        assertThat(List.of(st.getField("x"), st.getField("y"), st.getField("at"))).containsExactly(3, "y", utc(LATER));
        assertThat((List<?>) r.getField("arr")).isEqualTo(Arrays.asList(utc(LATER), null, utc(BEFORE_EPOCH)));
        assertThat((Map<?, ?>) r.getField("m")).isEqualTo(dates("k", LocalDate.of(2026, 12, 3)));
        Record nulls = records.get(1);
        for (int i = 1; i < nulls.size(); i++) {
            assertThat(nulls.get(i)).as("column %d", i).isNull();
        }
    }

    private List<Row> readBack(Path dir) throws Exception {
        sluice.readStream().format("iceberg").load(dir.toString()).writeStream().format("memory").queryName(sink)
                .option("checkpointLocation", tmp.resolve("chk-r").toString()).trigger(Trigger.availableNow())
                .start().awaitTermination();
        List<Row> rows = new ArrayList<>(MemorySink.rows(sink));
        rows.sort(Comparator.comparing(r -> r.getLong(0)));
        return rows;
    }

    @Test
    void everyTypeIsStoredAsIcebergsOwnReaderSeesItAndStreamsBackExactly() throws Exception {
        Path dir = write(null);
        assertStoredByIceberg(dir);
        assertThat(readBack(dir)).containsExactlyElementsOf(expected());
        List<Row> bounded = new ArrayList<>(sluice.read().format("iceberg").load(dir.toString()).collectAsList());
        bounded.sort(Comparator.comparing(r -> r.getLong(0)));
        assertThat(bounded).containsExactlyElementsOf(expected());
        assertThat(sluice.read().format("iceberg").load(dir.toString()).schema().toDDL()).isEqualTo(
                "id BIGINT, b BOOLEAN, t INT, s INT, i INT, f FLOAT, d DOUBLE, str STRING, bin BINARY, dt DATE, "
                        + "ts TIMESTAMP, dec DECIMAL(20,4), st STRUCT<x: INT, y: STRING, at: TIMESTAMP>, "
                        + "arr ARRAY<TIMESTAMP>, m MAP<STRING, DATE>");
    }

    @Test
    void identityPartitionsOnADateAndATimestampTakeTheirInternalValues() throws Exception {
        Path dir = write("dt,ts");
        Table t = new HadoopTables(new Configuration()).load(dir.toString());
        List<String> partitions = new ArrayList<>();
        try (var tasks = t.newScan().planFiles()) {
            tasks.forEach(task -> partitions.add(task.file().partition().get(0, Integer.class) + "/"
                    + task.file().partition().get(1, Long.class) + " " + t.spec().partitionToPath(task.file().partition())));
        }
        assertThat(partitions).containsExactlyInAnyOrder("-1/-1 dt=1969-12-31/ts=1969-12-31T23%3A59%3A59.999999%2B00%3A00",
                "null/null dt=null/ts=null");
        assertStoredByIceberg(dir);
        assertThat(readBack(dir)).containsExactlyElementsOf(expected());
    }
}
