package io.sluice.files.format;

import io.sluice.api.Row;
import io.sluice.api.types.StructType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static io.sluice.files.format.FormatFixture.readAll;
import static io.sluice.files.format.FormatFixture.opts;
import static io.sluice.files.format.FormatFixture.write;
import static org.assertj.core.api.Assertions.assertThat;

/** One reader is shared by the file source's reader threads: files opened concurrently must not interfere. */
class ReaderConcurrencyTest {
    @TempDir
    Path dir;

    @Test
    void oneReaderReadsManyFilesOnManyThreads() throws Exception {
        StructType schema = StructType.fromDDL("id bigint, name string, t timestamp, s struct<x: int>");
        FileFormatReader json = FileFormats.reader("json", opts("timeZone", "UTC"), schema);
        FileFormatReader csv = FileFormats.reader("csv", opts("timeZone", "UTC"), StructType.fromDDL("id bigint, name string, t timestamp"));
        List<Path> jsonFiles = new ArrayList<>();
        List<Path> csvFiles = new ArrayList<>();
        for (int f = 0; f < 24; f++) {
            StringBuilder j = new StringBuilder();
            StringBuilder c = new StringBuilder();
            for (int i = 0; i < 500; i++) {
                long id = f * 1000L + i;
                j.append("{\"id\": ").append(id).append(", \"name\": \"n").append(id)
                        .append("\", \"t\": \"2026-10-04T00:00:").append(String.format("%02d", i % 60))
                        .append("Z\", \"s\": {\"x\": ").append(i).append("}}\n");
                c.append(id).append(",\"n").append(id).append("\",2026-10-04 00:00:")
                        .append(String.format("%02d", i % 60)).append('\n');
            }
            jsonFiles.add(write(dir, f + ".json", j.toString()));
            csvFiles.add(write(dir, f + ".csv", c.toString()));
        }
        ExecutorService pool = Executors.newFixedThreadPool(4, r -> new Thread(r, "format-test-reader"));
        try {
            List<Future<List<Row>>> results = new ArrayList<>();
            for (int f = 0; f < 24; f++) {
                Path jf = jsonFiles.get(f);
                Path cf = csvFiles.get(f);
                results.add(pool.submit(() -> readAll(json, jf)));
                results.add(pool.submit(() -> readAll(csv, cf)));
            }
            for (int f = 0; f < 24; f++) {
                List<Row> j = results.get(2 * f).get();
                List<Row> c = results.get(2 * f + 1).get();
                assertThat(j).hasSize(500);
                assertThat(c).hasSize(500);
                for (int i = 0; i < 500; i++) {
                    long id = f * 1000L + i;
                    Instant t = Instant.parse("2026-10-04T00:00:00Z").plusSeconds(i % 60);
                    assertThat(j.get(i)).isEqualTo(Row.of(id, "n" + id, t, Row.of(i)));
                    assertThat(c.get(i)).isEqualTo(Row.of(id, "n" + id, t));
                }
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
