package io.sluice.core.checkpoint;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/** The text conventions shared by every checkpoint file, and strict JSON reading and compact JSON writing. */
final class FileFormat {

    /**
     * Strict: one JSON value per text, nothing after it, no duplicate keys. A file that Spark or Sluice wrote always
     * passes; anything else is better reported than half-understood.
     */
    static final JsonMapper JSON = JsonMapper.builder()
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .build();

    private FileFormat() {
    }

    /** What is wrong with a file's content, as a clause for the operator's message (e.g. "it is empty"). */
    static final class Malformed extends Exception {
        Malformed(String problem) {
            super(problem, null, false, false);
        }

        Malformed(String problem, Throwable cause) {
            super(problem, cause, false, false);
        }
    }

    @FunctionalInterface
    interface JsonWriter {
        void write(JsonGenerator g) throws IOException;
    }

    /** Compact JSON (no spaces), fields in the order written: what Spark's json4s rendering produces. */
    static String json(JsonWriter writer) {
        StringWriter out = new StringWriter();
        try (JsonGenerator g = JSON.createGenerator(out)) {
            writer.write(g);
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a StringWriter does not fail
        }
        return out.toString();
    }

    /** The file's text: UTF-8, not empty, no carriage returns. */
    static String text(byte[] bytes) throws Malformed {
        if (bytes.length == 0) {
            throw new Malformed("it is empty");
        }
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes))
                    .toString();
        } catch (CharacterCodingException e) {
            throw new Malformed("it is not UTF-8 text", e);
        }
        if (text.indexOf('\r') >= 0) {
            // Lines end with \n alone. A \r would otherwise slip into an offset string that is compared verbatim.
            throw new Malformed("it contains a carriage return; lines must end with \\n alone");
        }
        return text;
    }

    /**
     * The file's lines. Spark writes no trailing newline, but its reader accepts one (a hand-edited file often
     * has one), so one is ignored here too.
     */
    static List<String> lines(byte[] bytes) throws Malformed {
        String text = text(bytes);
        if (text.endsWith("\n")) {
            text = text.substring(0, text.length() - 1);
        }
        return Arrays.asList(text.split("\n", -1));
    }

    /** Lines joined by {@code \n}, no trailing newline, UTF-8. */
    static byte[] join(List<String> lines) {
        return String.join("\n", lines).getBytes(StandardCharsets.UTF_8);
    }

    /** Parses one JSON value; {@code what} names it in the problem, e.g. {@code line 2}. */
    static JsonNode parse(String text, String what) throws Malformed {
        JsonNode node;
        try {
            node = JSON.readTree(text);
        } catch (JsonProcessingException e) {
            throw new Malformed(what + " is not valid JSON", e);
        }
        if (node == null || node.isMissingNode()) {
            throw new Malformed(what + " is not valid JSON");
        }
        return node;
    }

    static boolean isJson(String text) {
        try {
            JsonNode node = JSON.readTree(text);
            return node != null && !node.isMissingNode();
        } catch (JsonProcessingException e) {
            return false;
        }
    }

    /**
     * An optional whole number field of a JSON object; {@code dflt} when absent, as Spark's json4s reading fills
     * defaults for fields an older writer did not know.
     */
    static long longField(JsonNode object, String field, String what, long dflt) throws Malformed {
        JsonNode v = object.get(field);
        if (v == null) {
            return dflt;
        }
        if (!v.isIntegralNumber() || !v.canConvertToLong()) {
            throw new Malformed(what + ": \"" + field + "\" is not a whole number");
        }
        return v.longValue();
    }

    /** A short, quoted rendering of untrusted file content for a message. */
    static String quote(String s) {
        final int max = 40;
        String shown = s.length() > max ? s.substring(0, max) + "..." : s;
        return "\"" + shown + "\"";
    }
}
