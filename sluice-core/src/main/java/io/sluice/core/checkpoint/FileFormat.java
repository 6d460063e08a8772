package io.sluice.core.checkpoint;

import io.sluice.core.CorruptCheckpointException;
import io.sluice.core.json.Json;

import io.sluice.api.io.MetadataLogFiles;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.function.Function;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/** The text conventions shared by every checkpoint file, and strict JSON reading and compact JSON writing. */
final class FileFormat {

    /** What an operator can always do about a bad file, whatever the file: the end of its message. */
    static final String RESTORE_OR_START_OVER =
            "restore the checkpoint from a backup or start over with a new checkpoint location.";

    /** What a bad batch or metadata file means for the query. */
    static final String CANNOT_START = "The query cannot start from it without risking data loss.";

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

    /** Compact JSON (no spaces), fields in the order written: what Spark's json4s rendering produces. */
    static String json(Json.Writer writer) {
        return Json.compact(writer);
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

    /**
     * A checkpoint file's bytes (at most {@link MetadataLogFiles#MAX_READ_BYTES}); empty when it does not exist. A
     * path that cannot be a checkpoint file (a folder, a device, too big) is corrupt: {@code corrupt} turns the
     * problem clause into the exception thrown. Other I/O failures are {@link UncheckedIOException}s naming it.
     */
    static Optional<byte[]> read(Path file, Function<String, CorruptCheckpointException> corrupt) {
        try {
            return Optional.of(MetadataLogFiles.readAll(file, MetadataLogFiles.MAX_READ_BYTES));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (MetadataLogFiles.NotALogFileException e) {
            throw corrupt.apply(e.problem());
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read checkpoint file " + file + ": " + e.getMessage(), e);
        }
    }

    /** Lines joined by {@code \n}, no trailing newline, UTF-8. */
    static byte[] join(List<String> lines) {
        return String.join("\n", lines).getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Parses exactly one JSON value, strictly (nothing after it, no duplicate keys): a file that Spark or Sluice
     * wrote always passes; anything else is better reported than half-understood. {@code what} names the value in
     * the problem, e.g. {@code line 2}. Values as {@link Json#parse}.
     */
    static Object parse(String text, String what) throws Malformed {
        try {
            return Json.parse(text);
        } catch (IOException e) {
            throw new Malformed(what + " is not valid JSON", e);
        }
    }

    static boolean isJson(String text) {
        return Json.isValid(text);
    }

    /** The parsed value as an object's fields, or null when it is not a JSON object. */
    @SuppressWarnings("unchecked")
    static java.util.Map<String, Object> object(Object parsed) {
        return parsed instanceof java.util.Map<?, ?> m ? (java.util.Map<String, Object>) m : null;
    }

    /**
     * An optional whole number field of a JSON object; {@code dflt} when absent, as Spark's json4s reading fills
     * defaults for fields an older writer did not know.
     */
    static long longField(java.util.Map<String, Object> object, String field, String what, long dflt)
            throws Malformed {
        Object v = object.get(field);
        if (v == null) {
            return dflt;
        }
        if (!(v instanceof Long l)) {
            throw new Malformed(what + ": \"" + field + "\" is not a whole number");
        }
        return l;
    }

    /** A short, quoted rendering of untrusted file content for a message. */
    static String quote(String s) {
        final int max = 40;
        String shown = s.length() > max ? s.substring(0, max) + "..." : s;
        return "\"" + shown + "\"";
    }
}
