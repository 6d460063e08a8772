package io.sluice.bench;

import io.sluice.api.Options;
import io.sluice.api.Row;
import io.sluice.api.types.StructType;
import io.sluice.files.format.FileFormat;
import io.sluice.files.format.FormatEncoder;

import java.io.BufferedOutputStream;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.Locale;
import java.util.ServiceLoader;

/**
 * Writes the file benchmarks' input: {@code GenerateEvents DIR FORMAT FILES LINES}, FORMAT {@code json},
 * {@code csv} or {@code parquet}, files {@code events-00000.json|csv|snappy.parquet}. Deterministic, so Sluice and
 * Spark read the same bytes. Rows follow the schema
 * {@code event_id string, user_id string, amount_cents long, event_time timestamp}: JSON lines such as
 * {@code {"event_id": "e-F-I", "user_id": "uN", "amount_cents": N, "event_time": "2026-10-04T00:00:00.000Z"}}, or
 * the same values as CSV without a header. 100 files x 20,000 lines is 2 M rows, ~216 MB of JSON.
 * {@code parquet}: the same rows, one Parquet file per FILES, written by Sluice's Parquet sink encoder (the
 * {@code parquet} format found through ServiceLoader, as the file sink finds it) with the sink's defaults, which are
 * Spark's: snappy, 128 MiB row groups (so one row group per file), 1 MiB pages, dictionary on, INT96 timestamps,
 * Spark's footer keys.
 * Refuses a DIR that already holds files (a half-written set would bias both engines alike, but silently).
 */
public final class GenerateEvents {
    private static final Instant BASE = Instant.parse("2026-10-04T00:00:00Z");
    private static final DateTimeFormatter TS = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'", Locale.ROOT)
            .withZone(java.time.ZoneOffset.UTC);

    private GenerateEvents() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 4 || !(args[1].equals("json") || args[1].equals("csv") || args[1].equals("parquet"))) {
            System.err.println("usage: GenerateEvents DIR json|csv|parquet FILES LINES");
            System.exit(2);
        }
        Path dir = Path.of(args[0]);
        String format = args[1];
        int files = Integer.parseInt(args[2].replace("_", ""));
        int lines = Integer.parseInt(args[3].replace("_", ""));
        Files.createDirectories(dir);
        try (var existing = Files.list(dir)) {
            if (existing.findAny().isPresent()) {
                throw new IllegalStateException(dir + " is not empty");
            }
        }
        long t0 = System.nanoTime();
        long bytes = format.equals("parquet") ? parquet(dir, files, lines) : text(dir, format, files, lines);
        System.out.printf(Locale.ROOT, "wrote %d %s files x %d lines (%d rows, %.1f MB) to %s in %d ms%n", files,
                format, lines, (long) files * lines, bytes / 1e6, dir, (System.nanoTime() - t0) / 1_000_000);
    }

    /** JSON lines or CSV; returns the characters written. */
    private static long text(Path dir, String format, int files, int lines) throws IOException {
        long bytes = 0;
        boolean json = format.equals("json");
        for (int f = 0; f < files; f++) {
            // Written under a dot name first: a source listing the folder never sees a partial file.
            Path tmp = dir.resolve(String.format(Locale.ROOT, ".events-%05d.%s.tmp", f, format));
            try (BufferedWriter w = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
                StringBuilder sb = new StringBuilder(128);
                for (int i = 0; i < lines; i++) {
                    long n = (long) f * lines + i;
                    String ts = TS.format(BASE.plus(n, ChronoUnit.MILLIS));
                    long user = n * 7919 % 100_000;
                    long amount = n * 104_729 % 1_000_000;
                    sb.setLength(0);
                    if (json) {
                        sb.append("{\"event_id\": \"e-").append(f).append('-').append(i)
                                .append("\", \"user_id\": \"u").append(user)
                                .append("\", \"amount_cents\": ").append(amount)
                                .append(", \"event_time\": \"").append(ts).append("\"}\n");
                    } else {
                        sb.append("e-").append(f).append('-').append(i).append(",u").append(user).append(',')
                                .append(amount).append(',').append(ts).append('\n');
                    }
                    w.append(sb);
                    bytes += sb.length();
                }
            }
            Files.move(tmp, dir.resolve(String.format(Locale.ROOT, "events-%05d.%s", f, format)));
        }
        return bytes;
    }

    /** The same rows as Parquet files through the sink's own encoder (its defaults); returns the bytes written. */
    private static long parquet(Path dir, int files, int lines) throws IOException {
        FileFormat format = ServiceLoader.load(FileFormat.class).stream().map(ServiceLoader.Provider::get)
                .filter(f -> f.name().equals("parquet")).findFirst()
                .orElseThrow(() -> new IllegalStateException("no parquet format on the class path"));
        StructType schema = StructType.fromDDL(EngineBench.EVENTS_DDL);
        FormatEncoder.Factory encoders = format.writing().orElseThrow().encoders(schema, new int[] {0, 1, 2, 3},
                Options.empty()).orElseThrow();
        long bytes = 0;
        for (int f = 0; f < files; f++) {
            Path tmp = dir.resolve(String.format(Locale.ROOT, ".events-%05d.snappy.parquet.tmp", f));
            try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(tmp), 1 << 16)) {
                FormatEncoder enc = encoders.open(out);
                for (int i = 0; i < lines; i++) {
                    long n = (long) f * lines + i;
                    enc.write(Row.of("e-" + f + "-" + i, "u" + n * 7919 % 100_000, n * 104_729 % 1_000_000,
                            BASE.plus(n, ChronoUnit.MILLIS)));
                }
                enc.finish();
            }
            bytes += Files.size(tmp);
            Files.move(tmp, dir.resolve(String.format(Locale.ROOT, "events-%05d.snappy.parquet", f)));
        }
        return bytes;
    }
}
