package io.sluice.core.sinks;

import io.sluice.api.InvalidOptionException;
import io.sluice.api.Options;
import io.sluice.api.Row;
import io.sluice.api.sink.BatchWriter;
import io.sluice.api.sink.PartitionWriter;
import io.sluice.api.sink.Sink;
import io.sluice.api.sink.SinkContext;
import io.sluice.api.SluiceClock;
import io.sluice.api.types.StructType;
import io.sluice.core.Sluice;
import io.sluice.core.StreamingQuery;
import io.sluice.core.sources.MemoryStream;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The console sink prints exactly what Spark's prints. */
class ConsoleSinkTest {
    private static final String BANNER = "-------------------------------------------\n";

    private static String print(StructType schema, int numRows, boolean truncate, long batchId,
                                List<List<Row>> partitions) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        ConsoleSink sink = new ConsoleSink(schema, numRows, truncate, ZoneOffset.UTC,
                new PrintStream(bytes, true, StandardCharsets.UTF_8));
        BatchWriter w = sink.beginBatch(batchId);
        List<Object> results = new ArrayList<>();
        for (int p = 0; p < partitions.size(); p++) {
            PartitionWriter pw = w.partitionWriter(p);
            for (Row r : partitions.get(p)) {
                pw.write(r);
            }
            results.add(pw.commit());
        }
        w.commit(results);
        return bytes.toString(StandardCharsets.UTF_8);
    }

    @Test
    void printsTheBannerAndASparkTable() throws Exception {
        String out = print(StructType.fromDDL("a int, name string"), 20, true, 3,
                List.of(List.of(Row.of(1, "x"), Row.of(22, "hello")), List.of(Row.of(333, null))));
        assertThat(out).isEqualTo(BANNER + "Batch: 3\n" + BANNER
                + "+---+-----+\n"
                + "|  a| name|\n"
                + "+---+-----+\n"
                + "|  1|    x|\n"
                + "| 22|hello|\n"
                + "|333| NULL|\n"
                + "+---+-----+\n"
                + "\n");
    }

    @Test
    void truncatesLongCellsAndSaysWhenRowsWereLeftOut() throws Exception {
        List<Row> rows = new ArrayList<>();
        for (int i = 0; i < 25; i++) {
            rows.add(Row.of((long) i, "a rather long text value number " + i));
        }
        String out = print(StructType.fromDDL("id long, text string"), 20, true, 0, List.of(rows));
        String[] lines = out.split("\n", -1);
        assertThat(lines[3]).isEqualTo("+---+--------------------+");
        assertThat(lines[4]).isEqualTo("| id|                text|");
        assertThat(lines[6]).isEqualTo("|  0|a rather long tex...|");
        assertThat(lines[25]).isEqualTo("| 19|a rather long tex...|");
        assertThat(lines[26]).isEqualTo("+---+--------------------+");
        assertThat(lines[27]).isEqualTo("only showing top 20 rows");
        assertThat(lines[28]).isEmpty();
        assertThat(lines).hasSize(30);
    }

    @Test
    void withoutTruncationCellsAreWholeAndLeftAligned() throws Exception {
        String out = print(StructType.fromDDL("id long, text string"), 1, false, 7,
                List.of(List.of(Row.of(1L, "a rather long text value, not cut")), List.of(Row.of(2L, "b"))));
        assertThat(out).isEqualTo(BANNER + "Batch: 7\n" + BANNER
                + "+---+---------------------------------+\n"
                + "|id |text                             |\n"
                + "+---+---------------------------------+\n"
                + "|1  |a rather long text value, not cut|\n"
                + "+---+---------------------------------+\n"
                + "only showing top 1 row\n"
                + "\n");
    }

    @Test
    void anEmptyBatchPrintsTheHeaderOnly() throws Exception {
        String out = print(StructType.fromDDL("timestamp timestamp, value long"), 20, true, 0, List.of());
        assertThat(out).isEqualTo(BANNER + "Batch: 0\n" + BANNER
                + "+---------+-----+\n"
                + "|timestamp|value|\n"
                + "+---------+-----+\n"
                + "+---------+-----+\n"
                + "\n");
    }

    @Test
    void valuesAreRenderedAsSparkShowsThem() throws Exception {
        StructType schema = StructType.fromDDL("ts timestamp, d date, dec decimal(5,2), dbl double, b binary, "
                + "arr array<int>, m map<string,int>, s struct<x: int, y: string>, t string");
        Map<String, Integer> m = new LinkedHashMap<>();
        m.put("k", 1);
        m.put("n", null);
        Row row = Row.of(Instant.parse("2026-10-02T00:00:00Z"), LocalDate.of(2026, 10, 2), new BigDecimal("1.5"),
                1.0E10, new byte[]{1, 10, (byte) 255}, java.util.Arrays.asList(1, null), m, Row.of(1, "a"),
                "tab\there");
        Row row2 = Row.of(Instant.parse("2026-10-02T00:00:00.120Z"), null, null, 0.5, new byte[0], List.of(),
                Map.of(), Row.of(null, null), "");
        String out = print(schema, 20, false, 1, List.of(List.of(row, row2)));
        assertThat(out).isEqualTo(BANNER + "Batch: 1\n" + BANNER
                + "+----------------------+----------+----+------+----------+---------+-------------------+------------+---------+\n"
                + "|ts                    |d         |dec |dbl   |b         |arr      |m                  |s           |t        |\n"
                + "+----------------------+----------+----+------+----------+---------+-------------------+------------+---------+\n"
                + "|2026-10-02 00:00:00   |2026-10-02|1.50|1.0E10|[01 0A FF]|[1, NULL]|{k -> 1, n -> NULL}|{1, a}      |tab\\there|\n"
                + "|2026-10-02 00:00:00.12|NULL      |NULL|0.5   |[]        |[]       |{}                 |{NULL, NULL}|         |\n"
                + "+----------------------+----------+----+------+----------+---------+-------------------+------------+---------+\n"
                + "\n");
    }

    @Test
    void optionsAreCheckedAndATemporaryCheckpointIsAllowed() {
        ConsoleSinkProvider p = new ConsoleSinkProvider();
        assertThat(p.shortName()).isEqualTo("console");
        assertThat(p.allowsTemporaryCheckpoint()).isTrue();
        assertThatThrownBy(() -> p.validate(Options.of(Map.of("numRows", "ten"))))
                .isInstanceOf(InvalidOptionException.class)
                .hasMessage("Invalid value 'ten' for option 'numRows': a whole number (int) is accepted");
        assertThatThrownBy(() -> p.validate(Options.of(Map.of("truncate", "yes"))))
                .isInstanceOf(InvalidOptionException.class)
                .hasMessage("Invalid value 'yes' for option 'truncate': true or false is accepted");
    }

    @Test
    void timestampsAreShownInTheSessionZoneUnlessTimeZoneIsGiven() throws Exception {
        StructType schema = StructType.fromDDL("t timestamp");
        ZoneId la = ZoneId.of("America/Los_Angeles");
        Row row = Row.of(Instant.parse("2020-01-01T20:00:00Z"));
        assertThat(printThroughProvider(Options.empty(), schema, la, row)).contains("|2020-01-01 12:00:00|");
        assertThat(printThroughProvider(Options.of(Map.of("timeZone", "UTC")), schema, la, row))
                .contains("|2020-01-01 20:00:00|");
    }

    private static String printThroughProvider(Options options, StructType schema, ZoneId sessionZone, Row row)
            throws Exception {
        PrintStream original = System.out;
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try {
            System.setOut(new PrintStream(bytes, true, StandardCharsets.UTF_8));
            Sink sink = new ConsoleSinkProvider().createSink(new SinkContext(options, schema, null, "q", null,
                    SluiceClock.system(), sessionZone));
            BatchWriter w = sink.beginBatch(0);
            PartitionWriter pw = w.partitionWriter(0);
            pw.write(row);
            w.commit(List.of(pw.commit()));
            sink.close();
        } finally {
            System.setOut(original);
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }

    @Test
    void aQueryPrintsEachBatchToStandardOutput() throws Exception {
        PrintStream original = System.out;
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        MemoryStream input = MemoryStream.create(StructType.fromDDL("v long"));
        try (Sluice sluice = Sluice.builder().parallelism(2).build()) {
            System.setOut(new PrintStream(bytes, true, StandardCharsets.UTF_8));
            StreamingQuery q = sluice.readStream().format("memory").option("name", input.name()).load()
                    .writeStream().format("console").option("numRows", 2).start();
            input.addData(Row.of(1L), Row.of(2L), Row.of(3L));
            q.processAllAvailable();
            q.stop();
        } finally {
            System.setOut(original);
            input.unregister();
        }
        assertThat(bytes.toString(StandardCharsets.UTF_8)).isEqualTo(BANNER + "Batch: 0\n" + BANNER
                + "+---+\n|  v|\n+---+\n|  1|\n|  2|\n+---+\nonly showing top 2 rows\n\n");
    }
}
