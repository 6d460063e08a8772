package io.sluice.files.source;

import io.sluice.api.Row;
import io.sluice.core.Sluice;
import io.sluice.core.StreamingQuery;
import io.sluice.core.StreamingQueryException;
import io.sluice.core.Trigger;
import io.sluice.core.sinks.MemorySink;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import java.util.zip.GZIPOutputStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The registered json, csv and text sources (found by format name, with the real parsers) through the engine:
 * exact rows, gzip, parse modes, and one-off reads of a folder.
 */
class RealFormatsEndToEndTest {
    @TempDir
    Path tmp;
    private final String table = "t_" + UUID.randomUUID().toString().replace('-', '_');
    private final Sluice sluice = Sluice.builder().parallelism(2).build();
    private long mtime = 1_700_000_000_000L;

    @AfterEach
    void tearDown() {
        sluice.close();
        MemorySink.clear(table);
    }

    private Path file(String name, String content) throws IOException {
        Path f = tmp.resolve("in").resolve(name);
        Files.createDirectories(f.getParent());
        if (name.endsWith(".gz")) {
            try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(f))) {
                out.write(content.getBytes(StandardCharsets.UTF_8));
            }
        } else {
            Files.writeString(f, content);
        }
        Files.setLastModifiedTime(f, FileTime.fromMillis(mtime += 1000));
        return f;
    }

    private List<Row> runAvailableNow(String format, String schema, String... options) throws Exception {
        var reader = sluice.readStream().format(format);
        if (schema != null) {
            reader.schema(schema);
        }
        for (int i = 0; i < options.length; i += 2) {
            reader.option(options[i], options[i + 1]);
        }
        StreamingQuery q = reader.load(tmp.resolve("in").toString()).writeStream().format("memory").queryName(table)
                .option("checkpointLocation", tmp.resolve("chk").toString()).trigger(Trigger.availableNow()).start();
        q.awaitTermination();
        return MemorySink.rows(table);
    }

    @Test
    void jsonLinesWithNestedTypesTimestampsAndGzip() throws Exception {
        file("a.json", "{\"id\":1,\"at\":\"2026-10-04T00:00:00.000Z\",\"tags\":[\"x\",\"y\"],\"geo\":{\"lat\":1.5}}\n"
                + "{\"id\":2,\"at\":\"2026-10-04 01:02:03\",\"extra\":true}\n");
        file("b.json.gz", "{\"id\":3,\"geo\":{\"lat\":-2.25}}\n");

        List<Row> rows = runAvailableNow("json", "id long, at timestamp, tags array<string>, geo struct<lat: double>");

        assertThat(rows.stream().sorted(Comparator.comparingLong(r -> r.getLong(0))).toList()).containsExactly(
                Row.of(1L, Instant.parse("2026-10-04T00:00:00Z"), List.of("x", "y"), Row.of(1.5)),
                Row.of(2L, Instant.parse("2026-10-04T01:02:03Z"), null, null),
                Row.of(3L, null, null, Row.of(-2.25)));
    }

    @Test
    void csvWithHeaderQuotesAndNulls() throws Exception {
        file("a.csv", "id,name,amount\n1,\"Smith, J\",10\n2,,\n");
        List<Row> rows = runAvailableNow("csv", "id int, name string, amount long", "header", "true");
        assertThat(rows).containsExactlyInAnyOrder(Row.of(1, "Smith, J", 10L), Row.of(2, null, null));
    }

    @Test
    void textReadsLinesOrWholeFiles() throws Exception {
        file("a.txt", "one\ntwo\n");
        assertThat(runAvailableNow("text", null)).containsExactlyInAnyOrder(Row.of("one"), Row.of("two"));
    }

    @Test
    void permissiveKeepsTheMalformedRecordInTheCorruptColumn() throws Exception {
        file("a.json", "{\"id\":1}\n{\"id\":\"oops\"}\n{bad\n");
        List<Row> rows = runAvailableNow("json", "id long, _corrupt_record string");
        assertThat(rows).containsExactlyInAnyOrder(Row.of(1L, null), Row.of(null, "{\"id\":\"oops\"}"),
                Row.of(null, "{bad"));
    }

    @Test
    void dropMalformedSkipsTheRecord() throws Exception {
        file("a.json", "{\"id\":1}\n{bad\n{\"id\":3}\n");
        assertThat(runAvailableNow("json", "id long", "mode", "DROPMALFORMED"))
                .containsExactlyInAnyOrder(Row.of(1L), Row.of(3L));
    }

    @Test
    void failFastStopsTheQueryNamingTheFileAndLine() throws Exception {
        Path f = file("a.json", "{\"id\":1}\n{\"id\":2}\n{bad\n");
        assertThatThrownBy(() -> runAvailableNow("json", "id long", "mode", "FAILFAST"))
                .isInstanceOf(StreamingQueryException.class)
                .hasMessageContaining("file " + f + ", line 3: {bad")
                .hasMessageContaining("Parse Mode: FAILFAST");
        assertThat(MemorySink.rows(table)).isEmpty();
    }

    @Test
    void aSchemaIsRequiredForJsonWithSparksMessage() {
        assertThatThrownBy(() -> sluice.readStream().format("json").load(tmp.toString()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Schema must be specified when creating a streaming source DataFrame");
    }

    @Test
    void aOneOffReadOfAFolderForBackfills() throws Exception {
        file("a.json", "{\"id\":1}\n{\"id\":2}\n");
        file("b.json", "{\"id\":3}\n");
        var frame = sluice.read().format("json").schema("id long").load(tmp.resolve("in").toString());
        assertThat(frame.where("id > 1").collectAsList()).containsExactlyInAnyOrder(Row.of(2L), Row.of(3L));
        assertThat(frame.count()).isEqualTo(3);
        // Nothing is remembered between reads: a read has no checkpoint.
        file("c.json", "{\"id\":4}\n");
        assertThat(frame.count()).isEqualTo(4);
    }

    @Test
    void inferSchemaIsOptInAndReadsTheFilesPresentAtStart() throws Exception {
        file("a.csv", "id,name\n1,x\n2,y\n");
        var frame = sluice.readStream().format("csv").option("header", "true").option("inferSchema", "true")
                .load(tmp.resolve("in").toString());
        assertThat(frame.schema().toDDL()).isEqualTo("id INT, name STRING");
        assertThat(runAvailableNow("csv", null, "header", "true", "inferSchema", "true"))
                .containsExactlyInAnyOrder(Row.of(1, "x"), Row.of(2, "y"));
    }

    @Test
    void aCrashAfterTheSourceLoggedItsFilesButBeforeOffsetsNReadsThemOnceOnRestart() throws Exception {
        file("a.json", "{\"id\":1}\n");
        file("b.json", "{\"id\":2}\n");
        assertThat(runAvailableNow("json", "id long", "maxFilesPerTrigger", "1"))
                .containsExactlyInAnyOrder(Row.of(1L), Row.of(2L));
        Path chk = tmp.resolve("chk");
        assertThat(chk.resolve("sources/0/1")).exists();
        // The process died after the source wrote its log entry for batch 1 and before the engine wrote offsets/1.
        Files.delete(chk.resolve("offsets/1"));
        Files.delete(chk.resolve("commits/1"));
        file("c.json", "{\"id\":3}\n");

        StreamingQuery q = sluice.readStream().format("json").schema("id long").option("maxFilesPerTrigger", "1")
                .load(tmp.resolve("in").toString()).writeStream().format("recording-rows")
                .option("checkpointLocation", chk.toString()).trigger(Trigger.availableNow()).start();
        q.awaitTermination();

        // b.json, logged by the source before the crash, is offered again as batch 1 on its own; then c.json.
        assertThat(q.recentProgress()).extracting(p -> p.batchId(), p -> p.sources().get(0).endOffset(),
                p -> p.numInputRows()).containsExactly(
                org.assertj.core.groups.Tuple.tuple(1L, "{\"logOffset\":1}", 1L),
                org.assertj.core.groups.Tuple.tuple(2L, "{\"logOffset\":2}", 1L));
        assertThat(ROWS_BY_BATCH).containsEntry(1L, List.of(Row.of(2L))).containsEntry(2L, List.of(Row.of(3L)));
    }

    /** What the recording-rows sink received, by batch id (re-runs replace). */
    private static final java.util.Map<Long, List<Row>> ROWS_BY_BATCH = new java.util.concurrent.ConcurrentHashMap<>();

    {
        sluice.registerSink(new io.sluice.api.sink.SinkProvider() {
            @Override
            public String shortName() {
                return "recording-rows";
            }

            @Override
            public io.sluice.api.sink.Sink createSink(io.sluice.api.sink.SinkContext context) {
                return batchId -> new io.sluice.api.sink.BatchWriter() {
                    @Override
                    public io.sluice.api.sink.PartitionWriter partitionWriter(int partitionId) {
                        List<Row> rows = new java.util.ArrayList<>();
                        return new io.sluice.api.sink.PartitionWriter() {
                            @Override
                            public void write(Row row) {
                                rows.add(row);
                            }

                            @Override
                            public Object commit() {
                                return rows;
                            }
                        };
                    }

                    @Override
                    @SuppressWarnings("unchecked")
                    public void commit(List<Object> parts) {
                        List<Row> all = new java.util.ArrayList<>();
                        parts.forEach(p -> all.addAll((List<Row>) p));
                        ROWS_BY_BATCH.put(batchId, all);
                    }
                };
            }
        });
    }

    @Test
    void aQueryParsesOnlyTheJsonColumnsItUsesAndSkipsPartitionFoldersItsWhereRulesOut() throws Exception {
        file("day=1/a.json", "{\"a\": 1, \"b\": \"x\"}\n");
        file("day=2/b.json", "{\"a\": 2, \"b\": \"y\"}\n");
        file("day=3/c.json", "{not json\n");
        String in = tmp.resolve("in").toString();
        var frame = sluice.read().format("json").schema("a int, b int, day int").option("mode", "FAILFAST").load(in);
        // b is a string in the files: parsing it fails, so does reading day=3's broken file.
        org.assertj.core.api.Assertions.assertThatThrownBy(frame::collectAsList)
                .hasStackTraceContaining("Malformed records are detected in record parsing");
        assertThat(frame.where("day < 3").select("a", "day").collectAsList())
                .containsExactlyInAnyOrder(Row.of(1, 1), Row.of(2, 2));
        StreamingQuery q = sluice.readStream().format("json").schema("a int, b int, day int").option("mode", "FAILFAST")
                .load(in).where("day = 2").selectExpr("a * 10 AS x").writeStream().format("memory").queryName(table)
                .option("checkpointLocation", tmp.resolve("chk").toString()).trigger(Trigger.availableNow()).start();
        q.awaitTermination();
        assertThat(MemorySink.rows(table)).containsExactly(Row.of(20));
    }
}
