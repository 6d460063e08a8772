package io.sluice.parquet;

import io.sluice.api.Row;
import io.sluice.core.Sluice;
import io.sluice.core.StreamFrame;
import io.sluice.core.StreamingQuery;
import io.sluice.core.StreamingQueryException;
import io.sluice.core.Trigger;
import io.sluice.core.sinks.MemorySink;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.IntFunction;
import java.util.function.UnaryOperator;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Column pruning and row-group skipping of the Parquet source in engine queries: the query's columns and the simple
 * filters of its first {@code where} reach the reader through the file source's push-down, the reader decodes
 * only those columns and skips the row groups whose statistics rule every row out. Each case checks the rows
 * (always those of the query without push-down) and the counts of the metrics {@code numRowGroupsRead} and
 * {@code numRowGroupsSkipped}. Files are written by parquet-java with 100 rows per row group.
 */
class ParquetPushDownTest {
    /** 1,000 rows in 10 row groups: id 0..999, name "n" + id, opt = id except null for ids 300..399. */
    static final String TEN_GROUPS = "message m { required int64 id; optional binary name (STRING); "
            + "optional int64 opt; }";
    static final String DDL = "id bigint, name string, opt bigint";

    @TempDir
    Path tmp;
    private Path in;
    private final Sluice sluice = Sluice.builder().parallelism(2).build();
    private int queries;

    @BeforeEach
    void files() throws Exception {
        in = Files.createDirectories(tmp.resolve("in"));
        TestParquetFiles.write(in.resolve("a.parquet"), TEN_GROUPS, 100, rows(1000, i -> new Object[]{(long) i,
                "n" + i, i >= 300 && i < 400 ? null : (long) i}));
    }

    @AfterEach
    void close() {
        sluice.close();
    }

    static List<Object[]> rows(int n, IntFunction<Object[]> row) {
        return IntStream.range(0, n).mapToObj(row).toList();
    }

    record Result(List<Row> rows, long read, long skipped) {
    }

    /** Runs the query over {@link #in} to the end (availableNow) into a memory table. */
    private Result stream(String ddl, UnaryOperator<StreamFrame> query) throws Exception {
        String table = "pushdown" + queries++;
        StreamingQuery q = query.apply(sluice.readStream().format("parquet").schema(ddl).load(in.toString()))
                .writeStream().format("memory").queryName(table)
                .option("checkpointLocation", tmp.resolve("chk-" + table).toString())
                .trigger(Trigger.availableNow()).start();
        q.awaitTermination();
        Map<String, String> m = q.lastProgress().sources().get(0).metrics();
        List<Row> rows = new ArrayList<>(MemorySink.rows(table));
        MemorySink.clear(table);
        return new Result(rows, Long.parseLong(m.get("numRowGroupsRead")),
                Long.parseLong(m.get("numRowGroupsSkipped")));
    }

    private Result where(String condition) throws Exception {
        return stream(DDL, f -> f.where(condition));
    }

    private static List<Row> expected(IntStream ids) {
        return ids.mapToObj(i -> Row.of((long) i, "n" + i, i >= 300 && i < 400 ? null : (long) i)).toList();
    }

    @Test
    void aWhereOnTheLast100IdsReadsOneRowGroupOfTen() throws Exception {
        Result r = where("id > 900");
        assertThat(r.rows()).containsExactlyInAnyOrderElementsOf(expected(IntStream.range(901, 1000)));
        assertThat(r.read()).isEqualTo(1);
        assertThat(r.skipped()).isEqualTo(9);
        Result all = stream(DDL, f -> f);
        assertThat(all.rows()).hasSize(1000);
        assertThat(all.read()).isEqualTo(10);
        assertThat(all.skipped()).isEqualTo(0);
    }

    @Test
    void everyComparisonInAndBetweenSkipWhatTheStatisticsRuleOut() throws Exception {
        record Case(String where, IntStream ids, long read) {
        }
        for (Case c : List.of(
                new Case("id = 150", IntStream.of(150), 1),
                new Case("150 = id", IntStream.of(150), 1),
                new Case("id <=> 150", IntStream.of(150), 1),
                new Case("id < 100", IntStream.range(0, 100), 1),
                new Case("id <= 100", IntStream.rangeClosed(0, 100), 2),
                new Case("id >= 950", IntStream.range(950, 1000), 1),
                new Case("100 > id", IntStream.range(0, 100), 1),
                new Case("id BETWEEN 250 AND 349", IntStream.rangeClosed(250, 349), 2),
                // parquet-java's statistics test an IN by its least and greatest values: groups 0 to 5 may hold 5..505
                new Case("id IN (5, 505, NULL)", IntStream.of(5, 505), 6),
                new Case("name = 'n5'", IntStream.of(5), 1), // strings in UTF-8 byte order: n0 < n5 < n99 < n500
                new Case("name IN ('n5', 'n50')", IntStream.of(5, 50), 1),
                new Case("name >= 'n950'", IntStream.concat(IntStream.range(96, 100), IntStream.range(950, 1000)), 2),
                new Case("id != 5", IntStream.range(0, 1000).filter(i -> i != 5), 10),
                new Case("id > 900 OR id < 10", IntStream.concat(IntStream.range(0, 10), IntStream.range(901, 1000)),
                        10),
                new Case("id + 0 > 900", IntStream.range(901, 1000), 10))) {
            Result r = where(c.where());
            assertThat(r.rows()).as(c.where()).containsExactlyInAnyOrderElementsOf(expected(c.ids()));
            assertThat(r.read()).as(c.where()).isEqualTo(c.read());
            assertThat(r.skipped()).as(c.where()).isEqualTo(10 - c.read());
        }
    }

    @Test
    void nullChecksUseTheNullCounts() throws Exception {
        Result isNull = where("opt IS NULL");
        assertThat(isNull.rows()).containsExactlyInAnyOrderElementsOf(expected(IntStream.range(300, 400)));
        assertThat(isNull.read()).isEqualTo(1); // the other row groups' null counts are 0
        Result notNull = where("opt IS NOT NULL");
        assertThat(notNull.rows()).hasSize(900);
        assertThat(notNull.read()).isEqualTo(9);
        assertThat(notNull.skipped()).isEqualTo(1);
    }

    @Test
    void anAndOfTwoColumnsSkipsByBoth() throws Exception {
        Result r = where("id > 500 AND opt < 700");
        assertThat(r.rows()).containsExactlyInAnyOrderElementsOf(expected(IntStream.range(501, 700)));
        assertThat(r.read()).isEqualTo(2);
        Result later = stream(DDL, f -> f.where("id > 500").select("name", "opt", "id").where("opt < 700"));
        assertThat(later.rows()).extracting(row -> row.get(2)).containsExactlyInAnyOrderElementsOf(
                IntStream.range(501, 700).mapToObj(i -> (Object) (long) i).toList());
        assertThat(later.read()).isEqualTo(2);
    }

    @Test
    void aFilterAfterOpaqueCodeIsNotPushed() throws Exception {
        Result r = stream(DDL, f -> f.filter(row -> true).where("id > 900"));
        assertThat(r.rows()).containsExactlyInAnyOrderElementsOf(expected(IntStream.range(901, 1000)));
        assertThat(r.read()).isEqualTo(10);
    }

    @Test
    void anEqualityTheStatisticsCannotRuleOutIsRuledOutByTheDictionary() throws Exception {
        Files.delete(in.resolve("a.parquet"));
        // k alternates 0 and 100 in every row group, and is 50 once in group 7: min 0, max 100 everywhere.
        TestParquetFiles.write(in.resolve("d.parquet"), "message m { required int64 id; required int64 k; }", 100,
                rows(1000, i -> new Object[]{(long) i, i == 750 ? 50L : i % 2 == 0 ? 0L : 100L}), true);
        Result r = stream("id bigint, k bigint", f -> f.where("k = 50"));
        assertThat(r.rows()).containsExactly(Row.of(750L, 50L));
        assertThat(r.read()).isEqualTo(1);
        Result in = stream("id bigint, k bigint", f -> f.where("k IN (25, 50)"));
        assertThat(in.rows()).containsExactly(Row.of(750L, 50L));
        assertThat(in.read()).isEqualTo(1);
    }

    @Test
    void aColumnMissingFromAFileReadsAsNullSoAComparisonOnItSkipsTheWholeFile() throws Exception {
        TestParquetFiles.write(in.resolve("b.parquet"), "message m { required int64 id; }", 100,
                rows(200, i -> new Object[]{1000L + i}));
        Result r = where("opt > 950");
        assertThat(r.rows()).containsExactlyInAnyOrderElementsOf(expected(IntStream.range(951, 1000)));
        assertThat(r.read()).isEqualTo(1);
        assertThat(r.skipped()).isEqualTo(11);
        Result isNull = where("opt IS NULL");
        List<Row> rows = new ArrayList<>(expected(IntStream.range(300, 400)));
        IntStream.range(1000, 1200).forEach(i -> rows.add(Row.of((long) i, null, null)));
        assertThat(isNull.rows()).containsExactlyInAnyOrderElementsOf(rows);
        assertThat(isNull.read()).isEqualTo(3);
    }

    @Test
    void namesMatchIgnoringCaseAndAnInt32ColumnReadAsBigintIsFilteredByItsOwnType() throws Exception {
        Result r = stream("ID bigint, NAME string, OPT bigint", f -> f.where("ID > 900"));
        assertThat(r.rows()).containsExactlyInAnyOrderElementsOf(expected(IntStream.range(901, 1000)));
        assertThat(r.read()).isEqualTo(1);
        Files.delete(in.resolve("a.parquet"));
        TestParquetFiles.write(in.resolve("narrow.parquet"), "message m { required int32 id; }", 100,
                rows(1000, i -> new Object[]{i}));
        Result widened = stream("id bigint", f -> f.where("id > 900"));
        assertThat(widened.rows()).containsExactlyInAnyOrderElementsOf(
                IntStream.range(901, 1000).mapToObj(i -> Row.of((long) i)).toList());
        assertThat(widened.read()).isEqualTo(1);
        // A bigint beyond int's range is not handed to parquet-java for an INT32 column: read, and no row matches.
        Result beyond = stream("id bigint", f -> f.where("id < 3000000000"));
        assertThat(beyond.rows()).hasSize(1000);
        assertThat(beyond.read()).isEqualTo(10);
        Result none = stream("id bigint", f -> f.where("id > 3000000000"));
        assertThat(none.rows()).isEmpty();
        assertThat(none.read()).isEqualTo(10);
    }

    @Test
    void decimalsDatesAndTimestampsSkipRowGroupsInt96AndDoublesDoNot() throws Exception {
        Files.delete(in.resolve("a.parquet"));
        TestParquetFiles.write(in.resolve("types.parquet"), "message m { required int32 i; "
                + "optional int32 d9 (DECIMAL(9,2)); optional int64 d18 (DECIMAL(18,2)); "
                + "optional fixed_len_byte_array(9) d20 (DECIMAL(20,2)); optional int32 dt (DATE); "
                + "optional int64 ts (TIMESTAMP(MICROS,true)); optional int64 tsm (TIMESTAMP(MILLIS,true)); "
                + "optional int96 ts96; optional double f; }", 100, rows(1000, i -> new Object[]{i, i - 500,
                (long) i - 500, fixed(i - 500), i, i * 1_000_000L, i * 1000L, int96(i), (double) i}));
        String ddl = "i int, d9 decimal(9,2), d18 decimal(18,2), d20 decimal(20,2), dt date, ts timestamp, "
                + "tsm timestamp, ts96 timestamp, f double";
        String day900 = LocalDate.ofEpochDay(900).toString();
        for (String where : List.of("d9 > 4.00", "d18 > 4.00", "d20 > 4.00", "dt > DATE '" + day900 + "'",
                "ts > TIMESTAMP '1970-01-01 00:15:00Z'", "tsm > TIMESTAMP '1970-01-01 00:15:00Z'",
                "ts96 > TIMESTAMP '1970-01-01 00:15:00Z'", "f > 900.0", "d20 < -4.99", "d20 IN (-5.00, 4.99)")) {
            Result r = stream(ddl, f -> f.where(where).select("i"));
            List<Integer> ids = r.rows().stream().map(row -> (Integer) row.get(0)).sorted().toList();
            boolean skips = !where.startsWith("ts96") && !where.startsWith("f ");
            if (where.startsWith("d20 <")) {
                assertThat(ids).as(where).isEqualTo(IntStream.range(0, 1).boxed().toList());
                assertThat(r.read()).as(where).isEqualTo(1);
            } else if (where.startsWith("d20 IN")) {
                assertThat(ids).as(where).containsExactly(0, 999);
                assertThat(r.read()).as(where).isEqualTo(10);
            } else {
                assertThat(ids).as(where).isEqualTo(IntStream.range(901, 1000).boxed().toList());
                assertThat(r.read()).as(where).isEqualTo(skips ? 1 : 10);
            }
        }
    }

    /** The unscaled value in 9 bytes, big-endian two's complement. */
    private static byte[] fixed(long unscaled) {
        byte[] out = new byte[9];
        out[0] = (byte) (unscaled < 0 ? 0xFF : 0);
        ByteBuffer.wrap(out, 1, 8).putLong(unscaled);
        return out;
    }

    /** Second {@code seconds} of 1970-01-01 as INT96: nanoseconds of the day, then the Julian day, little-endian. */
    private static byte[] int96(long seconds) {
        return ByteBuffer.allocate(12).order(java.nio.ByteOrder.LITTLE_ENDIAN).putLong(seconds * 1_000_000_000L)
                .putInt(2_440_588).array();
    }

    @Test
    void onlyTheColumnsTheQueryUsesAreDecoded() throws Exception {
        Files.delete(in.resolve("a.parquet"));
        TestParquetFiles.write(in.resolve("c.parquet"), "message m { required int64 id; required int64 bad; }",
                100, rows(1000, i -> new Object[]{(long) i, (long) i}));
        // "bad" is bigint in the file and int in the schema: decoding it fails, as in Spark.
        String ddl = "id bigint, bad int";
        assertThatThrownBy(() -> stream(ddl, f -> f)).isInstanceOf(StreamingQueryException.class)
                .hasStackTraceContaining("PARQUET_COLUMN_DATA_TYPE_MISMATCH");
        Result r = stream(ddl, f -> f.where("id > 900").select("id"));
        assertThat(r.rows()).containsExactlyInAnyOrderElementsOf(
                IntStream.range(901, 1000).mapToObj(i -> Row.of((long) i)).toList());
        assertThat(r.read()).isEqualTo(1);
        Result computed = stream(ddl, f -> f.selectExpr("id * 2 AS twice").where("twice = 4"));
        assertThat(computed.rows()).containsExactly(Row.of(4L));
        assertThat(computed.read()).isEqualTo(10);
        assertThatThrownBy(() -> stream(ddl, f -> f.map(row -> Row.of(row.get(0)),
                io.sluice.api.types.StructType.fromDDL("id bigint")))).isInstanceOf(StreamingQueryException.class)
                .hasStackTraceContaining("PARQUET_COLUMN_DATA_TYPE_MISMATCH");
        // The bounded read prunes and filters alike.
        var frame = sluice.read().format("parquet").schema(ddl).load(in.toString());
        assertThat(frame.where("id > 997").select("id").collectAsList()).containsExactlyInAnyOrder(Row.of(998L),
                Row.of(999L));
        assertThat(frame.drop("bad").count()).isEqualTo(1000);
        assertThatThrownBy(frame::collectAsList).hasStackTraceContaining("PARQUET_COLUMN_DATA_TYPE_MISMATCH");
        // count() needs no column: the file source reads its first one (id) to count the rows, as Spark's count
        // of Parquet reads none.
        assertThat(frame.count()).isEqualTo(1000);
        assertThat(frame.where("id >= 990").count()).isEqualTo(10);
    }

    @Test
    void theBoundedReadSkipsRowGroupsToo() throws Exception {
        assertThat(sluice.read().format("parquet").schema(DDL).load(in.toString()).where("id > 900 AND opt < 905")
                .collectAsList()).containsExactlyInAnyOrderElementsOf(expected(IntStream.range(901, 905)));
    }

    @Test
    void aBatchReRunAfterAFailureReadsTheSameRows() throws Exception {
        TestParquetFiles.write(in.resolve("b.parquet"), TEN_GROUPS, 100, rows(1000, i -> new Object[]{1000L + i,
                "n" + (1000 + i), 1000L + i}));
        Files.setLastModifiedTime(in.resolve("a.parquet"), java.nio.file.attribute.FileTime.fromMillis(1_000));
        Files.setLastModifiedTime(in.resolve("b.parquet"), java.nio.file.attribute.FileTime.fromMillis(2_000));
        List<Row> seen = new CopyOnWriteArrayList<>();
        boolean[] failed = {false};
        Path chk = tmp.resolve("chk-rerun");
        java.util.function.Supplier<StreamingQuery> start = () -> sluice.readStream().format("parquet").schema(DDL)
                .option("maxFilesPerTrigger", "1").load(in.toString()).where("id > 900 AND id < 1100")
                .select("id").writeStream().option("checkpointLocation", chk.toString())
                .foreachBatch((batch, id) -> {
                    if (id == 1 && !failed[0]) {
                        failed[0] = true;
                        throw new IllegalStateException("fails once");
                    }
                    seen.addAll(batch.rows());
                }).trigger(Trigger.availableNow()).start();
        StreamingQuery first = start.get();
        assertThatThrownBy(first::awaitTermination).hasStackTraceContaining("fails once");
        StreamingQuery second = start.get();
        second.awaitTermination();
        assertThat(seen).extracting(row -> (Long) row.get(0)).containsExactlyInAnyOrderElementsOf(
                IntStream.range(901, 1100).mapToObj(i -> (long) i).toList());
        Map<String, String> m = second.lastProgress().sources().get(0).metrics();
        assertThat(second.lastProgress().batchId()).isEqualTo(1);
        assertThat(m).containsEntry("numRowGroupsRead", "1").containsEntry("numRowGroupsSkipped", "9");
    }
}
