package io.sluice.core;

import io.sluice.api.Options;
import io.sluice.api.Row;
import io.sluice.api.datasource.DataSource;
import io.sluice.api.datasource.DataSourceContext;
import io.sluice.api.datasource.DataSourceStreamReader;
import io.sluice.api.datasource.ReadResult;
import io.sluice.api.datasource.SimpleDataSourceStreamReader;
import io.sluice.api.datasource.SourceContractException;
import io.sluice.api.source.DriverLocalReaders;
import io.sluice.api.source.InputPartition;
import io.sluice.api.source.MicroBatchStream;
import io.sluice.api.source.StreamContext;
import io.sluice.api.types.StructType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The high-level data source API through the engine: registration, offsets, limits, replay and bad sources. */
class DataSourceTest extends EngineTestBase {
    CounterDataSource.State counter;

    @Override
    Sluice newSluice(io.sluice.api.SluiceClock clock) {
        counter = CounterDataSource.state(name);
        return super.newSluice(clock);
    }

    @AfterEach
    void resetCounter() {
        CounterDataSource.reset(name);
    }

    private DataStreamWriter counterQuery() {
        return recording(sluice.readStream().format("counter").option("name", name).load());
    }

    private static List<Row> counterRows(long from, long to) {
        List<Row> out = new ArrayList<>();
        CounterDataSource.rows(from - 1, to).forEachRemaining(out::add);
        return out;
    }

    private static void runToCompletion(DataStreamWriter w) throws Exception {
        StreamingQuery q = w.start();
        q.processAllAvailable();
        q.stop();
    }

    @Test
    void aDataSourceListedAsAServiceRunsWithRecordOffsetsInTheLogAndResumes() throws Exception {
        counter.available = 5;
        runToCompletion(counterQuery());

        assertThat(sink.committed).containsOnlyKeys(0L);
        assertThat(sink.committed.get(0L)).containsExactlyInAnyOrderElementsOf(counterRows(1, 5));
        assertThat(read("offsets/0")).endsWith("\n{\"n\":5}");
        assertThat(counter.calls).startsWith("initialOffset", "latestOffset(0)", "partitions(0,5)", "commit(5)",
                "latestOffset(5)");

        counter.available = 8;
        counter.calls.clear();
        runToCompletion(counterQuery());

        assertThat(sink.committed.get(1L)).containsExactlyInAnyOrderElementsOf(counterRows(6, 8));
        assertThat(counter.calls).startsWith("commit(5)", "latestOffset(5)", "partitions(5,8)", "commit(8)");
        assertThat(counter.calls).doesNotContain("initialOffset").endsWith("stop");
    }

    @Test
    void readLimitsAndAvailableNowApplyAsToAnySource() throws Exception {
        counter.available = 5;
        StreamingQuery q = recording(sluice.readStream().format("counter").option("name", name)
                .option("maxRowsPerBatch", 2).load()).trigger(Trigger.availableNow()).start();
        q.awaitTermination();

        assertThat(sink.committed).containsOnlyKeys(0L, 1L, 2L);
        assertThat(sink.committed.get(0L)).containsExactlyInAnyOrderElementsOf(counterRows(1, 2));
        assertThat(sink.committed.get(2L)).containsExactlyInAnyOrderElementsOf(counterRows(5, 5));
        assertThat(counter.calls.get(0)).isEqualTo("prepareForTriggerAvailableNow");
        assertThat(q.lastProgress().sources().get(0).description()).isEqualTo("DataSource[counter]");
        assertThat(q.lastProgress().sources().get(0).endOffset()).isEqualTo("{\"n\":5}");
    }

    @Test
    void aOneOffReadUsesTheBatchReader() throws Exception {
        counter.available = 4;
        List<Row> rows = sluice.read().format("counter").option("name", name).load().collectAsList();
        assertThat(rows).containsExactlyElementsOf(counterRows(1, 4));
    }

    @Test
    void aReaderThatThrowsFailsTheQueryWithTheCauseAndARestartReReadsTheSameRange() throws Exception {
        counter.available = 5;
        counter.failAtRow = 4;
        counter.failures = 1;
        StreamingQuery q = counterQuery().start();

        assertThatThrownBy(q::awaitTermination).isInstanceOf(StreamingQueryException.class)
                .cause().isInstanceOf(IllegalStateException.class).hasMessage("counter unavailable at row 4");
        assertThat(exists("offsets/0")).isTrue();
        assertThat(exists("commits/0")).isFalse();
        assertThat(sink.committed).isEmpty();
        assertThat(counter.calls).doesNotContain("commit(5)");

        counter.available = 9;
        counter.calls.clear();
        runToCompletion(counterQuery());

        assertThat(counter.calls).startsWith("initialOffset", "partitions(0,5)", "commit(5)", "latestOffset(5)");
        assertThat(sink.committed.get(0L)).containsExactlyInAnyOrderElementsOf(counterRows(1, 5));
        assertThat(sink.committed.get(1L)).containsExactlyInAnyOrderElementsOf(counterRows(6, 9));
        assertThat(sink.allRows()).hasSize(9).doesNotHaveDuplicates();
    }

    // ------------------------------------------------------------------ the simple reader

    /** The lines of a shared list; offset = how many were read. */
    static final class Lines implements DataSource {
        static final List<String> LINES = Collections.synchronizedList(new ArrayList<>());
        static final List<String> CALLS = Collections.synchronizedList(new ArrayList<>());

        @Override
        public String name() {
            return "lines";
        }

        @Override
        public String schemaDdl(Options options) {
            return "line string";
        }

        @Override
        public SimpleDataSourceStreamReader<?> simpleStreamReader(DataSourceContext context) {
            return new SimpleDataSourceStreamReader<Map<String, Object>>() {
                @Override
                public Map<String, Object> initialOffset() {
                    return Map.of("lines", 0L);
                }

                @Override
                public ReadResult<Map<String, Object>> read(Map<String, Object> start) {
                    int from = ((Number) start.get("lines")).intValue();
                    CALLS.add("read(" + from + ")");
                    List<Row> rows = new ArrayList<>();
                    synchronized (LINES) {
                        for (int i = from; i < LINES.size(); i++) {
                            rows.add(Row.of(LINES.get(i)));
                        }
                    }
                    return new ReadResult<>(rows, Map.of("lines", (long) from + rows.size()));
                }

                @Override
                public List<Row> readBetweenOffsets(Map<String, Object> start, Map<String, Object> end) {
                    int from = ((Number) start.get("lines")).intValue();
                    int to = ((Number) end.get("lines")).intValue();
                    CALLS.add("readBetweenOffsets(" + from + "," + to + ")");
                    return LINES.subList(from, to).stream().map(l -> Row.of(l)).toList();
                }

                @Override
                public void commit(Map<String, Object> end) {
                    CALLS.add("commit(" + end.get("lines") + ")");
                }
            };
        }
    }

    @Test
    void aSimpleReaderRegisteredInCodeReadsOncePerBatchAndReplaysWithReadBetweenOffsets() throws Exception {
        Lines.LINES.clear();
        Lines.CALLS.clear();
        sluice.registerDataSource(new Lines());
        Lines.LINES.addAll(List.of("a", "b", "c"));
        runToCompletion(recording(sluice.readStream().format("LINES").load()));

        assertThat(sink.committed.get(0L)).containsExactly(Row.of("a"), Row.of("b"), Row.of("c"));
        assertThat(read("offsets/0")).endsWith("\n{\"lines\":3}");
        assertThat(Lines.CALLS).startsWith("read(0)", "commit(3)", "read(3)");

        // A crash after offsets/0 and before commits/0: the re-run replays exactly its range.
        Files.delete(checkpoint.resolve("commits/0"));
        Lines.LINES.add("d");
        Lines.CALLS.clear();
        sink.committed.clear();
        runToCompletion(recording(sluice.readStream().format("lines").load()));

        assertThat(Lines.CALLS).startsWith("readBetweenOffsets(0,3)", "commit(3)", "read(3)", "commit(4)");
        assertThat(sink.committed.get(0L)).containsExactly(Row.of("a"), Row.of("b"), Row.of("c"));
        assertThat(sink.committed.get(1L)).containsExactly(Row.of("d"));
    }

    @Test
    void onlySimpleReadersAndTheInMemorySourcesNeedTheStreamThatPlannedThem() {
        StreamContext context = new StreamContext(Options.of(Map.of("name", name)), StructType.fromDDL("n bigint"),
                tmp, sluice.clock(), "q", 0);
        MicroBatchStream simple = Sluice.sourceProviderOf(new Lines()).createStream(context);
        MicroBatchStream partitioned = Sluice.sourceProviderOf(new CounterDataSource()).createStream(context);
        try {
            assertThat(simple).isInstanceOf(DriverLocalReaders.class);
            assertThat(((DriverLocalReaders) simple).driverLocalReason()).startsWith("it is a simple DataSource: "
                    + "SimpleDataSourceStreamReader.read(start) reads each batch's rows on the query thread");
            assertThat(partitioned).isNotInstanceOf(DriverLocalReaders.class);
        } finally {
            simple.stop();
            partitioned.stop();
        }
        assertThat(Sluice.sourceProviderOf(new Lines()).shortName()).isEqualTo("lines");
        assertThat(sluice.sourceProvider("socket")).isInstanceOf(DriverLocalReaders.class);
        assertThat(sluice.sourceProvider("memory")).isInstanceOf(DriverLocalReaders.class);
        assertThat(sluice.sourceProvider("rate")).isNotInstanceOf(DriverLocalReaders.class);
    }

    // ------------------------------------------------------------------ registration

    /** A low-level provider claiming the counter's name. */
    public static final class ClashingProvider implements io.sluice.api.source.SourceProvider {
        @Override
        public String shortName() {
            return "COUNTER";
        }

        @Override
        public io.sluice.api.source.MicroBatchStream createStream(io.sluice.api.source.StreamContext context) {
            throw new UnsupportedOperationException();
        }
    }

    @Test
    void aSourceProviderAndADataSourceClaimingOneNameIsAClearError() throws IOException {
        Path dir = tmp.resolve("plugin");
        Path services = dir.resolve("META-INF/services");
        Files.createDirectories(services);
        Files.writeString(services.resolve("io.sluice.api.source.SourceProvider"), ClashingProvider.class.getName());
        try (URLClassLoader loader = new URLClassLoader(new URL[] {dir.toUri().toURL()},
                getClass().getClassLoader())) {
            assertThatThrownBy(() -> Sluice.builder().classLoader(loader).build())
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessage("Two sources claim the short name 'counter': SourceProvider "
                            + ClashingProvider.class.getName() + " and DataSource io.sluice.core.CounterDataSource. "
                            + "Remove one of them from the classpath.");
        }
    }

    @Test
    void anUnknownFormatMentionsDataSources() {
        assertThatThrownBy(() -> sluice.readStream().format("nope").load())
                .hasMessageEndingWith("A custom source is found when its SourceProvider is listed in "
                        + "META-INF/services/io.sluice.api.source.SourceProvider (or its DataSource in "
                        + "META-INF/services/io.sluice.api.datasource.DataSource) on the classpath, or registered "
                        + "with Sluice.registerSource(...) or Sluice.registerDataSource(...).");
        assertThat(sluice.sourceProvider("counter").shortName()).isEqualTo("counter");
        assertThat(sluice.readStream().format(CounterDataSource.class.getName()).option("name", name).load()
                .schema().toDDL()).isEqualTo("n BIGINT, label STRING");
    }

    // ------------------------------------------------------------------ bad sources

    /** A data source around a reader a test builds. */
    record Fn(String name, Supplier<DataSourceStreamReader<?>> reader) implements DataSource {
        @Override
        public String schemaDdl(Options options) {
            return "n bigint";
        }

        @Override
        public DataSourceStreamReader<?> streamReader(DataSourceContext context) {
            return reader.get();
        }
    }

    /** Offsets are {"seq": n} maps taken in turn from a script; rows are the seq numbers of the range. */
    static class Scripted implements DataSourceStreamReader<Object> {
        final Iterator<Object> latest;
        final Object initial;

        Scripted(Object initial, Object... latest) {
            this.initial = initial;
            this.latest = List.of(latest).iterator();
        }

        @Override
        public Object initialOffset() {
            return initial;
        }

        @Override
        public Object latestOffset() {
            return latest.hasNext() ? latest.next() : null;
        }

        @Override
        public List<? extends InputPartition> partitions(Object start, Object end) {
            return List.of(new Range(seq(start), seq(end)));
        }

        @Override
        public Iterator<Row> read(InputPartition partition) {
            Range r = (Range) partition;
            List<Row> rows = new ArrayList<>();
            for (long n = r.from() + 1; n <= r.to(); n++) {
                rows.add(Row.of(n));
            }
            return rows.iterator();
        }

        static long seq(Object o) {
            return ((Number) ((Map<?, ?>) o).get("seq")).longValue();
        }
    }

    record Range(long from, long to) implements InputPartition {
    }

    record Pos(long seq) {
    }

    /** Its constructor moves the value, so what is written is not what is read back. */
    record Drifting(long n) {
        Drifting {
            n = n + 1;
        }
    }

    record Locked(long from, Object lock) implements InputPartition {
    }

    private void assertFailsWith(DataSourceStreamReader<?> reader, String message) throws Exception {
        sluice.registerDataSource(new Fn("bad", () -> reader));
        StreamingQuery q = recording(sluice.readStream().format("bad").load()).start();
        assertThatThrownBy(q::awaitTermination).isInstanceOf(StreamingQueryException.class)
                .cause().isInstanceOf(SourceContractException.class).hasMessage(message);
        assertThat(exists("commits/0") && exists("commits/1")).isFalse();
    }

    @Test
    void anOffsetThatIsNotJsonFailsTheQueryNamingThePart() throws Exception {
        assertFailsWith(new Scripted(Map.of("seq", 0), Map.of("seq", 1, "at", Instant.EPOCH)),
                "Data source 'bad': the offset from latestOffset does not round-trip through JSON: the offset.at is "
                        + "a java.time.Instant, which is not a JSON value: use a record, Map, List, String, Number, "
                        + "Boolean or null");
    }

    @Test
    void aRecordOffsetWithoutItsOffsetTypeCannotBeReadBack() throws Exception {
        assertFailsWith(new Scripted(new Pos(0)),
                "Data source 'bad': the offset from initialOffset() does not round-trip through JSON: it is a Pos "
                        + "but offsetType() returns Object, so the offset log would give back a Map: override "
                        + "offsetType() to return Pos.class");
    }

    @Test
    void anOffsetThatReadsBackDifferentlyFailsTheQuery() throws Exception {
        assertFailsWith(new Scripted(new Drifting(0)) {
            @Override
            public Class<?> offsetType() {
                return Drifting.class;
            }
        }, "Data source 'bad': the offset from initialOffset() does not round-trip through JSON: it is written "
                + "as {\"n\":1} but reads back as {\"n\":2}");
    }

    @Test
    void anEndOffsetBeforeTheStartFailsTheQuery() throws Exception {
        assertFailsWith(new Scripted(Map.of("seq", 10), Map.of("seq", 5)),
                "Data source 'bad': latestOffset returned {\"seq\":5}, which is before the batch start "
                        + "{\"seq\":10}; offsets must never go backwards");
    }

    @Test
    void aLatestOffsetGoingBackwardsFailsTheQueryAfterTheBatchesBefore() throws Exception {
        assertFailsWith(new Scripted(Map.of("seq", 0), Map.of("seq", 10), Map.of("seq", 7)),
                "Data source 'bad': latestOffset went backwards from {\"seq\":10} to {\"seq\":7}; offsets must "
                        + "never go backwards");
        assertThat(sink.committed.get(0L)).containsExactlyElementsOf(rows(1, 10));
    }

    @Test
    void aPartitionThatCannotBeSerializedFailsTheQuery() throws Exception {
        assertFailsWith(new Scripted(Map.of("seq", 0), Map.of("seq", 3)) {
            @Override
            public List<? extends InputPartition> partitions(Object start, Object end) {
                return List.of(new Locked(seq(start), new Object()));
            }
        }, "Data source 'bad': partition 0 of range {\"seq\":0} -> {\"seq\":3} cannot be serialized (a partition "
                + "must be a small Serializable value, such as a record of offsets): java.io.NotSerializableException: "
                + "java.lang.Object");
    }
}
