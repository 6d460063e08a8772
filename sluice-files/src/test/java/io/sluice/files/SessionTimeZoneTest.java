package io.sluice.files;

import io.sluice.api.Row;
import io.sluice.api.types.StructType;
import io.sluice.core.Sluice;
import io.sluice.core.StreamingQuery;
import io.sluice.core.Trigger;
import io.sluice.core.sinks.MemorySink;
import io.sluice.core.sources.MemoryStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The file formats' {@code timeZone} option defaults to the session time zone ({@code spark.sql.session.timeZone},
 * set here through the config, not the JVM's zone), as in Spark: the file source (streaming and {@code read()}) reads
 * zone-less text in it, and the file sink writes timestamps in its offset.
 */
class SessionTimeZoneTest {
    private static final Instant NOON_LA = Instant.parse("2020-01-01T20:00:00Z");

    @TempDir
    Path tmp;

    private static Sluice losAngeles() {
        return Sluice.builder().parallelism(1).config("spark.sql.session.timeZone", "America/Los_Angeles").build();
    }

    @Test
    void theJsonAndCsvSourcesReadZoneLessTimestampsInTheSessionZone() throws Exception {
        Path json = Files.createDirectories(tmp.resolve("json"));
        Files.writeString(json.resolve("a.json"), "{\"t\":\"2020-01-01 12:00\"}\n");
        Path csv = Files.createDirectories(tmp.resolve("csv"));
        Files.writeString(csv.resolve("a.csv"), "2020-01-01 12:00\n");
        try (Sluice la = losAngeles()) {
            for (String format : List.of("json", "csv")) {
                Path dir = format.equals("json") ? json : csv;
                assertThat(la.read().format(format).schema("t timestamp").option("path", dir.toString()).load()
                        .collectAsList()).as(format).containsExactly(Row.of(NOON_LA));
                // The option, when given, wins over the session zone.
                assertThat(la.read().format(format).schema("t timestamp").option("path", dir.toString())
                        .option("timeZone", "UTC").load().collectAsList()).as(format)
                        .containsExactly(Row.of(Instant.parse("2020-01-01T12:00:00Z")));
            }
            String table = "zoned-" + java.util.UUID.randomUUID();
            StreamingQuery q = la.readStream().format("json").schema("t timestamp").option("path", json.toString())
                    .load().writeStream().format("memory").queryName(table)
                    .option("checkpointLocation", tmp.resolve("chk").toString())
                    .trigger(Trigger.availableNow()).start();
            q.awaitTermination();
            assertThat(MemorySink.rows(table)).containsExactly(Row.of(NOON_LA));
            MemorySink.clear(table);
        }
    }

    @Test
    void timestampPartitionValuesAreInTheSessionZone() throws Exception {
        Path folder = Files.createDirectories(tmp.resolve("parts").resolve("t=2020-01-01 12%3A00%3A00"));
        Files.writeString(folder.resolve("a.json"), "{\"v\":1}\n");
        try (Sluice la = losAngeles()) {
            assertThat(la.read().format("json").schema("v int, t timestamp")
                    .option("path", tmp.resolve("parts").toString()).load().collectAsList())
                    .containsExactly(Row.of(1, NOON_LA));
        }
    }

    @Test
    void theJsonSinkWritesTimestampsInTheSessionZonesOffset() throws Exception {
        MemoryStream input = MemoryStream.create(StructType.fromDDL("t timestamp"));
        Path out = tmp.resolve("out");
        try (Sluice la = losAngeles()) {
            StreamingQuery q = la.readStream().format("memory").option("name", input.name()).load()
                    .writeStream().format("json").option("checkpointLocation", tmp.resolve("chk").toString())
                    .start(out.toString());
            input.addData(Row.of(NOON_LA));
            q.processAllAvailable();
            q.stop();
        } finally {
            input.unregister();
        }
        try (Stream<Path> files = Files.list(out)) {
            List<Path> parts = files.filter(p -> p.getFileName().toString().startsWith("part-")).toList();
            assertThat(parts).hasSize(1);
            assertThat(Files.readString(parts.get(0))).isEqualTo("{\"t\":\"2020-01-01T12:00:00.000-08:00\"}\n");
        }
    }
}
