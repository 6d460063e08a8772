package io.sluice.files.format;

import io.sluice.api.Options;
import io.sluice.api.Row;
import io.sluice.api.types.StructType;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPOutputStream;

/** Helpers for the format tests: files in a temp folder, reading them back as rows. */
final class FormatFixture {
    private FormatFixture() {
    }

    static Options opts(String... kv) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        return Options.of(m);
    }

    /** {@link #opts} of the given key-value pairs plus {@code mode}. */
    static Options optsWithMode(String[] kv, String mode) {
        String[] all = java.util.Arrays.copyOf(kv, kv.length + 2);
        all[kv.length] = "mode";
        all[kv.length + 1] = mode;
        return opts(all);
    }

    static Path write(Path dir, String name, String content) throws IOException {
        return write(dir, name, content, StandardCharsets.UTF_8);
    }

    static Path write(Path dir, String name, String content, Charset cs) throws IOException {
        Path p = dir.resolve(name);
        Files.write(p, content.getBytes(cs));
        return p;
    }

    static Path gzip(Path dir, String name, String content) throws IOException {
        Path p = dir.resolve(name);
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(p))) {
            out.write(content.getBytes(StandardCharsets.UTF_8));
        }
        return p;
    }

    static List<Row> read(String format, Options options, String ddl, Path file) throws IOException {
        StructType schema = ddl == null ? FileFormats.fixedSchema(format, options).orElseThrow() : StructType.fromDDL(ddl);
        return readAll(FileFormats.reader(format, options, schema), file);
    }

    /** Every row the reader gives for the file, in order. */
    static List<Row> readAll(FileFormatReader reader, Path file) throws IOException {
        List<Row> rows = new ArrayList<>();
        try (RowIterator it = reader.open(file)) {
            while (it.next()) {
                rows.add(it.get());
            }
        }
        return rows;
    }

    /**
     * Every row of the file as a list of its values, or, when reading fails, the rows read so far with the error's
     * class, message and cause's message: two readers that must agree can be compared with one equality.
     */
    static Object rowsOrError(FileFormatReader format, Path file) {
        List<List<Object>> rows = new ArrayList<>();
        try (RowIterator it = format.open(file)) {
            while (it.next()) {
                Row r = it.get();
                List<Object> values = new ArrayList<>();
                for (int i = 0; i < r.size(); i++) {
                    values.add(r.get(i));
                }
                rows.add(values);
            }
        } catch (Exception e) {
            return List.of(rows, e.getClass().getName(), String.valueOf(e.getMessage()),
                    String.valueOf(e.getCause() == null ? null : e.getCause().getMessage()));
        }
        return rows;
    }
}
