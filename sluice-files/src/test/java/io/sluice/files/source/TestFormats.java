package io.sluice.files.source;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sluice.api.Options;
import io.sluice.api.Row;
import io.sluice.api.types.AtomicType;
import io.sluice.api.types.DataType;
import io.sluice.api.types.StructType;
import io.sluice.files.format.FileFormatReader;
import io.sluice.files.format.RowIterator;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * A stand-in for the real parsers while they are written elsewhere: JSON lines (long, int, double, boolean and
 * string columns; a bad line fails) and text. Only what the file source's tests need.
 */
final class TestFormats implements Formats {
    static final TestFormats INSTANCE = new TestFormats();
    static final StructType TEXT = StructType.fromDDL("value string");
    private static final ObjectMapper MAPPER = new ObjectMapper();

    /** Schemas handed to {@link #infer}, and the files, for assertions. */
    volatile List<Path> lastInferred;

    @Override
    public Optional<StructType> fixedSchema(String format, Options options) {
        return format.equals("text") ? Optional.of(TEXT) : Optional.empty();
    }

    @Override
    public void validate(String format, Options options, StructType dataSchema) {
        if (options.contains("mode") && !options.get("mode").get().equalsIgnoreCase("FAILFAST")) {
            throw new io.sluice.api.InvalidOptionException("mode", options.get("mode").get(), "the test format "
                    + "knows only FAILFAST");
        }
    }

    @Override
    public FileFormatReader reader(String format, Options options, StructType dataSchema) {
        return file -> open(format, dataSchema, file);
    }

    @Override
    public StructType infer(String format, Options options, List<Path> sampleFiles) {
        lastInferred = List.copyOf(sampleFiles);
        try {
            for (Path p : sampleFiles) {
                for (String line : Files.readAllLines(p)) {
                    if (line.isBlank()) {
                        continue;
                    }
                    JsonNode n = MAPPER.readTree(line);
                    StructType s = StructType.empty();
                    for (var e : n.properties()) {
                        s = s.add(e.getKey(), e.getValue().isIntegralNumber() ? DataType.longType()
                                : e.getValue().isNumber() ? DataType.doubleType()
                                : e.getValue().isBoolean() ? DataType.booleanType() : DataType.stringType());
                    }
                    return s;
                }
            }
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return StructType.empty();
    }

    private static RowIterator open(String format, StructType schema, Path file) throws IOException {
        BufferedReader r = Files.newBufferedReader(file, StandardCharsets.UTF_8);
        return new RowIterator() {
            Row row;
            int lineNo;

            @Override
            public boolean next() throws IOException {
                String line;
                while ((line = r.readLine()) != null) {
                    lineNo++;
                    if (format.equals("text")) {
                        row = Row.of(line);
                        return true;
                    }
                    if (line.isBlank()) {
                        continue;
                    }
                    JsonNode n;
                    try {
                        n = MAPPER.readTree(line);
                    } catch (IOException e) {
                        throw new IOException("Malformed JSON in " + file + " line " + lineNo, e);
                    }
                    Object[] v = new Object[schema.size()];
                    for (int i = 0; i < v.length; i++) {
                        JsonNode f = n.get(schema.field(i).name());
                        v[i] = f == null || f.isNull() ? null : convert(f, schema.field(i).dataType());
                    }
                    row = Row.wrap(v);
                    return true;
                }
                return false;
            }

            @Override
            public Row get() {
                return row;
            }

            @Override
            public void close() throws IOException {
                r.close();
            }
        };
    }

    private static Object convert(JsonNode f, DataType t) {
        if (t instanceof AtomicType a) {
            return switch (a) {
                case LONG_TYPE -> f.asLong();
                case INT_TYPE -> f.asInt();
                case DOUBLE_TYPE -> f.asDouble();
                case BOOLEAN_TYPE -> f.asBoolean();
                default -> f.isTextual() ? f.asText() : f.toString();
            };
        }
        return f.toString();
    }
}
