package io.sluice.core;

import io.sluice.api.Options;
import io.sluice.api.Row;
import io.sluice.api.source.ColumnFilter;
import io.sluice.api.source.ColumnFilter.Compare;
import io.sluice.api.source.ColumnFilter.Op;
import io.sluice.api.source.MicroBatchStream;
import io.sluice.api.source.PushDown;
import io.sluice.api.source.StreamContext;
import io.sluice.api.source.SupportsPushDown;
import io.sluice.api.types.StructType;
import io.sluice.core.sinks.MemorySink;
import io.sluice.core.sources.MemorySourceProvider;
import io.sluice.core.sources.MemoryStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;

import static io.sluice.core.Functions.col;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a query tells a {@link SupportsPushDown} source: the columns its steps and sink use, and the filters its
 * first conditions imply; and that the rows never depend on it (a source that claims EXACT but returns every row
 * still gives the query's rows).
 */
class QueryReadsTest {
    static final StructType SCHEMA = StructType.fromDDL("id bigint, name string, amount decimal(10,2), "
            + "st struct<x: int>, d double, other int");

    @TempDir
    Path tmp;
    private final Sluice sluice = Sluice.builder().parallelism(2).build();
    private final MemoryStream input = MemoryStream.create(SCHEMA);

    @AfterEach
    void close() {
        sluice.close();
        input.unregister();
    }

    /** A frame over the recording source (which reads the memory stream). */
    private StreamFrame frame(Recorder recorder) {
        return new StreamFrame(sluice, new DataStreamReader.SourceSpec(recorder,
                Options.of(Map.of("name", input.name())), SCHEMA), false);
    }

    private static QueryReads reads(StreamFrame f) {
        return f.reads();
    }

    /** Hands every filter back as EXACT, records the push-down, and ignores it (every row, every column). */
    static final class Recorder implements SupportsPushDown {
        final List<PushDown> seen = new CopyOnWriteArrayList<>();
        private final MemorySourceProvider memory = new MemorySourceProvider();

        @Override
        public String shortName() {
            return "recorder";
        }

        @Override
        public MicroBatchStream createStream(StreamContext context) {
            seen.add(PushDown.none(context.schema()));
            return memory.createStream(context);
        }

        @Override
        public FilterUse filterUse(Options options, StructType schema, ColumnFilter filter) {
            return filter instanceof Compare c && c.column().equals("name") ? FilterUse.UNUSED : FilterUse.EXACT;
        }

        @Override
        public MicroBatchStream createStream(StreamContext context, PushDown pushDown) {
            seen.add(pushDown);
            return memory.createStream(context);
        }
    }

    @Test
    void theColumnsAreThoseTheStepsAndTheSinkUse() {
        Recorder r = new Recorder();
        assertThat(reads(frame(r)).columns()).hasSize(6);
        assertThat(reads(frame(r).select("name")).columns()).containsExactly("name");
        assertThat(reads(frame(r).where("other > 1").select("name")).columns())
                .containsExactlyInAnyOrder("name", "other");
        assertThat(reads(frame(r).withColumn("x", col("id").plus(1)).select("x")).columns()).containsExactly("id");
        assertThat(reads(frame(r).selectExpr("st.x AS x", "upper(name) AS n")).columns())
                .containsExactlyInAnyOrder("st", "name");
        assertThat(reads(frame(r).drop("st", "d", "other")).columns())
                .containsExactlyInAnyOrder("id", "name", "amount");
        assertThat(reads(frame(r).withColumnRenamed("name", "n").select("n")).columns()).containsExactly("name");
        assertThat(reads(frame(r).selectExpr("1 AS one")).columns()).isEmpty();
        // Code the engine cannot see into reads everything it is given.
        assertThat(reads(frame(r).map(row -> row, SCHEMA).select("id")).columns()).hasSize(6);
        assertThat(reads(frame(r).select("id", "name").filter(row -> true).select("id")).columns())
                .containsExactlyInAnyOrder("id", "name");
    }

    @Test
    void theFiltersAreTheSimpleConjunctsOfTheFirstConditionsOverSourceColumns() {
        Recorder r = new Recorder();
        assertThat(reads(frame(r).where("id > 5 AND name IS NOT NULL AND (other = 1 OR other = 2)")).filters())
                .containsExactly(new Compare("id", Op.GREATER_THAN, 5L), new ColumnFilter.IsNotNull("name"));
        assertThat(reads(frame(r).where("5 >= id").where("name IN ('a', NULL, 'b')")).filters()).containsExactly(
                new Compare("id", Op.LESS_THAN_OR_EQUAL, 5L), new ColumnFilter.In("name", List.of("a", "b")));
        assertThat(reads(frame(r).where("amount BETWEEN 1 AND 2.5")).filters()).isEmpty(); // amount is cast
        assertThat(reads(frame(r).where("amount >= 1.50")).filters())
                .containsExactly(new Compare("amount", Op.GREATER_THAN_OR_EQUAL, new BigDecimal("1.50")));
        assertThat(reads(frame(r).where("ID = 3 AND other IS NULL")).filters()).containsExactly(
                new Compare("id", Op.EQUAL_TO, 3L), new ColumnFilter.IsNull("other"));
        // Through projections, by the column a pass-through keeps; not through computed columns or opaque code.
        assertThat(reads(frame(r).withColumnRenamed("id", "key").select("key", "name").where("key < 3")).filters())
                .containsExactly(new Compare("id", Op.LESS_THAN, 3L));
        assertThat(reads(frame(r).selectExpr("id + 1 AS id").where("id < 3")).filters()).isEmpty();
        assertThat(reads(frame(r).filter(row -> true).where("id < 3")).filters()).isEmpty();
        // Never: !=, NOT, functions of the column, a double against zero (-0.0 = 0.0), nested fields, a null.
        assertThat(reads(frame(r).where("id != 3 AND NOT (id = 4) AND abs(id) = 1 AND d = 0.0 AND st.x = 1 "
                + "AND id = NULL AND id IN (1, id)")).filters()).isEmpty();
        assertThat(reads(frame(r).where("d > 0.5")).filters()).containsExactly(new Compare("d", Op.GREATER_THAN, 0.5));
    }

    @Test
    void aSourceThatClaimsExactButReturnsEveryRowStillGivesTheQuerysRows() throws Exception {
        Recorder r = new Recorder();
        String table = "qr_" + System.nanoTime();
        StreamingQuery q = frame(r).where("id > 1 AND name = 'b'").select("id").writeStream().format("memory")
                .queryName(table).option("checkpointLocation", tmp.resolve("chk").toString()).start();
        input.addData(List.of(Row.of(1L, "b", null, null, null, null), Row.of(2L, "b", null, null, null, null),
                Row.of(3L, "c", null, null, null, null)));
        q.processAllAvailable();
        q.stop();
        assertThat(MemorySink.rows(table)).containsExactly(Row.of(2L));
        MemorySink.clear(table);
        // name = 'b' was UNUSED: not handed over; the columns are those the query uses.
        assertThat(r.seen).containsExactly(new PushDown(Set.of("id", "name"),
                List.of(new Compare("id", Op.GREATER_THAN, 1L))));
    }

    @Test
    void aQueryThatReadsEverythingAndFiltersNothingMakesThePlainStream() throws Exception {
        Recorder r = new Recorder();
        List<Row> rows = new StreamFrame(sluice, new DataStreamReader.SourceSpec(r,
                Options.of(Map.of("name", input.name())), SCHEMA), true).withColumnRenamed("id", "key")
                .collectAsList();
        assertThat(rows).isEmpty();
        assertThat(r.seen).containsExactly(PushDown.none(SCHEMA));
    }
}
