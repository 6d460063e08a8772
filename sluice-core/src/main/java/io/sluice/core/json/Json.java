package io.sluice.core.json;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Small JSON reading and writing on Jackson's streaming core, for the engine's own files and progress. Internal to
 * Sluice: not part of the public contract.
 *
 * <p>Why not Jackson's ObjectMapper: loading it costs about 300 ms in a fresh JVM, most of Sluice's time to its
 * first batch; the streaming core loads in a fraction of that.
 *
 * <p>Parsed values: {@link Map} (insertion-ordered) for objects, {@link List} for arrays, {@link String},
 * {@link Long} (or {@link java.math.BigInteger} beyond a long) for whole numbers, {@link Double} for other numbers,
 * {@link Boolean}, and {@link #NULL} for a JSON null (so a missing key, {@code map.get(k) == null}, differs from
 * a null value).
 */
public final class Json {
    /** A JSON {@code null} in parsed values. */
    public static final Object NULL = new Object() {
        @Override
        public String toString() {
            return "null";
        }
    };

    /** Strict: duplicate keys are an error, as a file Sluice or Spark wrote never has them. */
    private static final JsonFactory FACTORY = JsonFactory.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .build();

    private Json() {
    }

    /** Writes JSON with a generator. */
    @FunctionalInterface
    public interface Writer {
        void write(JsonGenerator g) throws IOException;
    }

    /** Compact JSON (no spaces), fields in the order written, as Spark's json4s compact rendering. */
    public static String compact(Writer writer) {
        return render(writer, false);
    }

    /** Indented JSON as Spark's json4s pretty rendering ({@code "key" : value}, {@code [ ]} for empty arrays). */
    public static String pretty(Writer writer) {
        return render(writer, true);
    }

    private static String render(Writer writer, boolean pretty) {
        StringWriter out = new StringWriter();
        try (JsonGenerator g = FACTORY.createGenerator(out)) {
            if (pretty) {
                g.setPrettyPrinter(new DefaultPrettyPrinter());
            }
            writer.write(g);
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a StringWriter does not fail
        }
        return out.toString();
    }

    /**
     * Parses exactly one JSON value; anything after it is an error.
     *
     * @throws IOException with Jackson's description of what is wrong
     */
    public static Object parse(String text) throws IOException {
        try (JsonParser p = FACTORY.createParser(text)) {
            JsonToken t = p.nextToken();
            if (t == null) {
                throw new IOException("no JSON value");
            }
            Object value = read(p, t);
            if (p.nextToken() != null) {
                throw new IOException("unexpected content after the JSON value at column "
                        + p.currentTokenLocation().getColumnNr());
            }
            return value;
        }
    }

    /** True when {@code text} is exactly one JSON value. */
    public static boolean isValid(String text) {
        try {
            parse(text);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * Writes the JSON value in {@code json} into {@code g} (re-rendered in g's style), or the text as a JSON string
     * when it is not valid JSON, as Spark embeds offsets in progress.
     */
    public static void writeEmbedded(JsonGenerator g, String json) throws IOException {
        if (!isValid(json)) {
            g.writeString(json);
            return;
        }
        try (JsonParser p = FACTORY.createParser(json)) {
            p.nextToken();
            g.copyCurrentStructure(p);
        }
    }

    /** A Java string as a JSON string literal. */
    public static String quote(String s) {
        return compact(g -> g.writeString(s));
    }

    private static Object read(JsonParser p, JsonToken t) throws IOException {
        switch (t) {
            case START_OBJECT -> {
                Map<String, Object> map = new LinkedHashMap<>();
                while (p.nextToken() == JsonToken.FIELD_NAME) {
                    String name = p.currentName();
                    map.put(name, read(p, p.nextToken()));
                }
                return map;
            }
            case START_ARRAY -> {
                List<Object> list = new ArrayList<>();
                JsonToken e;
                while ((e = p.nextToken()) != JsonToken.END_ARRAY) {
                    list.add(read(p, e));
                }
                return list;
            }
            case VALUE_STRING -> {
                return p.getText();
            }
            case VALUE_NUMBER_INT -> {
                return p.getNumberType() == JsonParser.NumberType.BIG_INTEGER ? p.getBigIntegerValue() : p.getLongValue();
            }
            case VALUE_NUMBER_FLOAT -> {
                return p.getDoubleValue();
            }
            case VALUE_TRUE -> {
                return Boolean.TRUE;
            }
            case VALUE_FALSE -> {
                return Boolean.FALSE;
            }
            case VALUE_NULL -> {
                return NULL;
            }
            default -> throw new IOException("unexpected JSON token " + t);
        }
    }
}
