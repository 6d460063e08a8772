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
        return new Result(rows, Long.parseLong(m.get("numRowGroupsRead")), Long.parseLong(m.get("numRowGroupsSkipped")));
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
}
