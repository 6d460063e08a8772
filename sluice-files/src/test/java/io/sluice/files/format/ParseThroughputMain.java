package io.sluice.files.format;

import io.sluice.api.Options;
import io.sluice.api.Row;
import io.sluice.api.types.StructType;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;

/**
 * Single-thread parse throughput, not a test: generates N event lines (schema {@code event_id string, user_id
 * string, amount_cents long, event_time timestamp}) as JSON lines and as CSV in a temp folder, then reads each file
 * several times and prints rows/s of the best round (json also without its fast path: json-jackson-only).
 * Usage: {@code ParseThroughputMain [rows] [rounds]}
 * (defaults 1,000,000 and 5).
 */
public final class ParseThroughputMain {
    private ParseThroughputMain() {
    }

    public static void main(String[] args) throws IOException {
        int rows = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        StructType schema = StructType.fromDDL("event_id string, user_id string, amount_cents long, event_time timestamp");
        Path dir = Files.createTempDirectory("sluice-parse");
        try {
            Path json = dir.resolve("events.json");
            Path csv = dir.resolve("events.csv");
            generate(json, csv, rows);
            System.out.printf("%,d rows; json %,d bytes, csv %,d bytes; %d rounds each, best round shown%n",
                    rows, Files.size(json), Files.size(csv), rounds);
            Options utc = Options.of(Map.of("timeZone", "UTC"));
            measure("json", FileFormats.reader("json", utc, schema), json, rows, rounds);
            measure("json-jackson-only", new JsonFormat(JsonSettings.of(utc), schema, false), json, rows, rounds);
            measure("csv", FileFormats.reader("csv", utc, schema), csv, rows, rounds);
        } finally {
            try (var s = Files.list(dir)) {
                for (Path p : (Iterable<Path>) s::iterator) {
                    Files.deleteIfExists(p);
                }
            }
            Files.deleteIfExists(dir);
        }
    }

    private static void generate(Path json, Path csv, int rows) throws IOException {
        long base = Instant.parse("2026-10-04T00:00:00Z").toEpochMilli();
        try (BufferedWriter j = Files.newBufferedWriter(json, StandardCharsets.UTF_8);
             BufferedWriter c = Files.newBufferedWriter(csv, StandardCharsets.UTF_8)) {
            for (int i = 0; i < rows; i++) {
                String id = "e-" + (i % 100) + "-" + i;
                String user = "u" + (i * 7 % 1000);
                long amount = (i * 37L) % 100_000;
                String time = Instant.ofEpochMilli(base + i * 13L).toString();
                if (time.length() == 20) {
                    time = time.substring(0, 19) + ".000Z";
                }
                j.write("{\"event_id\": \"" + id + "\", \"user_id\": \"" + user + "\", \"amount_cents\": " + amount
                        + ", \"event_time\": \"" + time + "\"}\n");
                c.write(id + "," + user + "," + amount + "," + time + "\n");
            }
        }
    }

    private static void measure(String format, FileFormatReader reader, Path file, int rows, int rounds)
            throws IOException {
        double best = 0;
        long checksum = 0;
        for (int r = 0; r < rounds; r++) {
            long start = System.nanoTime();
            int n = 0;
            try (RowIterator it = reader.open(file)) {
                while (it.next()) {
                    Row row = it.get();
                    checksum += row.getLong(2);
                    n++;
                }
            }
            long ns = System.nanoTime() - start;
            if (n != rows) {
                throw new IllegalStateException(format + ": read " + n + " rows, expected " + rows);
            }
            double perSecond = rows * 1e9 / ns;
            best = Math.max(best, perSecond);
            System.out.printf("  %s round %d: %,.0f rows/s%n", format, r + 1, perSecond);
        }
        System.out.printf("%s: best %,.0f rows/s (%.0f ns/row), single thread (checksum %d)%n", format, best, 1e9 / best,
                checksum);
    }
}
