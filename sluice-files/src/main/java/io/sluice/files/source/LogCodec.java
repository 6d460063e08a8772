package io.sluice.files.source;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Consumer;

/**
 * Spark's metadata-log text: a version line ({@code v1}) then one compact JSON object per line, lines joined by
 * {@code \n}, no trailing newline. Used for the source's {@code sources/<i>/N} files and for a file sink's
 * {@code _spark_metadata/N} manifest.
 */
final class LogCodec {
    static final String VERSION = "v1";
    private static final JsonFactory JSON = new JsonFactory();

    private LogCodec() {
    }

    /**
     * {@code {"path":"file:///in/a.json","timestamp":1718000000000,"batchId":3}}, written by hand (a batch may log
     * 100,000 files) with the escapes Jackson and json4s use: quote, backslash and control characters.
     */
    static String entryJson(FileEntry e) {
        String p = e.path();
        StringBuilder sb = new StringBuilder(p.length() + 64).append("{\"path\":\"");
        for (int i = 0; i < p.length(); i++) {
            char c = p.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                case '\b' -> sb.append("\\b");
                case '\f' -> sb.append("\\f");
                default -> {
                    if (c < 0x20) {
                        sb.append(String.format("\\u%04X", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        return sb.append("\",\"timestamp\":").append(e.timestamp()).append(",\"batchId\":").append(e.batchId())
                .append('}').toString();
    }

    /** The whole file for one batch. */
    static void writeEntries(List<FileEntry> entries, OutputStream out) throws IOException {
        out.write(VERSION.getBytes(StandardCharsets.US_ASCII));
        for (FileEntry e : entries) {
            out.write('\n');
            out.write(entryJson(e).getBytes(StandardCharsets.UTF_8));
        }
    }

    static byte[] entriesBytes(List<FileEntry> entries) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(32 + entries.size() * 96);
        try {
            writeEntries(entries, out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    /** One line of a seen-files log. Unknown fields are ignored, as Spark's reader does. */
    static FileEntry parseEntry(String line) throws IOException {
        FileEntry fast = parseExact(line);
        return fast != null ? fast : parseAny(line);
    }

    private static final String P1 = "{\"path\":\"";
    private static final String P2 = "\",\"timestamp\":";
    private static final String P3 = ",\"batchId\":";

    /**
     * The line exactly as Sluice and Spark write it, with no escapes in the path: parsed without a JSON parser,
     * as a restart may read 500,000 of them. Null for anything else (then the JSON parser decides).
     */
    private static FileEntry parseExact(String line) {
        if (!line.startsWith(P1) || !line.endsWith("}")) {
            return null;
        }
        int pathEnd = line.indexOf('"', P1.length());
        if (pathEnd < 0 || !line.startsWith(P2, pathEnd)) {
            return null;
        }
        String path = line.substring(P1.length(), pathEnd);
        if (path.indexOf('\\') >= 0) {
            return null;
        }
        int tsStart = pathEnd + P2.length();
        int tsEnd = line.indexOf(',', tsStart);
        if (tsEnd < 0 || !line.startsWith(P3, tsEnd)) {
            return null;
        }
        try {
            long ts = Long.parseLong(line, tsStart, tsEnd, 10);
            long batch = Long.parseLong(line, tsEnd + P3.length(), line.length() - 1, 10);
            return new FileEntry(path, ts, batch);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static FileEntry parseAny(String line) throws IOException {
        String path = null;
        long timestamp = Long.MIN_VALUE;
        long batchId = Long.MIN_VALUE;
        try (JsonParser p = JSON.createParser(line)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw new IOException("not a JSON object");
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                JsonToken t = p.nextToken();
                switch (field) {
                    case "path" -> path = p.getValueAsString();
                    case "timestamp" -> timestamp = p.getLongValue();
                    case "batchId" -> batchId = p.getLongValue();
                    default -> {
                        if (t == JsonToken.START_OBJECT || t == JsonToken.START_ARRAY) {
                            p.skipChildren();
                        }
                    }
                }
            }
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IOException(e.getOriginalMessage(), e);
        }
        if (path == null || timestamp == Long.MIN_VALUE || batchId == Long.MIN_VALUE) {
            throw new IOException("a seen-files entry needs path, timestamp and batchId");
        }
        return new FileEntry(path, timestamp, batchId);
    }

    /** One entry of a file sink's manifest ({@code _spark_metadata/N}). */
    record SinkEntry(String path, long size, boolean isDir, long modificationTime, String action) {
    }

    static SinkEntry parseSinkEntry(String line) throws IOException {
        String path = null;
        String action = null;
        long size = 0;
        long modificationTime = 0;
        boolean isDir = false;
        try (JsonParser p = JSON.createParser(line)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw new IOException("not a JSON object");
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                JsonToken t = p.nextToken();
                switch (field) {
                    case "path" -> path = p.getValueAsString();
                    case "size" -> size = p.getLongValue();
                    case "isDir" -> isDir = p.getBooleanValue();
                    case "modificationTime" -> modificationTime = p.getLongValue();
                    case "action" -> action = p.getValueAsString();
                    default -> {
                        if (t == JsonToken.START_OBJECT || t == JsonToken.START_ARRAY) {
                            p.skipChildren();
                        }
                    }
                }
            }
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IOException(e.getOriginalMessage(), e);
        }
        if (path == null || action == null) {
            throw new IOException("a manifest entry needs path and action");
        }
        return new SinkEntry(path, size, isDir, modificationTime, action);
    }

    /** A line-oriented parser callback that may throw. */
    @FunctionalInterface
    interface LineHandler {
        void line(String line, int lineNumber) throws IOException;
    }

    /**
     * Reads a log file: checks the version line ({@code v1}; a higher version is refused) and hands over each
     * non-empty following line.
     *
     * @param what how to name the file in errors
     */
    static void readLines(InputStream in, String what, LineHandler handler) throws IOException {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8), 1 << 16)) {
            String version = r.readLine();
            if (version == null || version.isEmpty()) {
                throw new IOException(what + " is empty: a log file starts with its version line (v1)");
            }
            if (!version.startsWith("v")) {
                throw new IOException(what + " does not start with a version line (v1): '" + abbreviate(version)
                        + "'");
            }
            int v;
            try {
                v = Integer.parseInt(version.substring(1).trim());
            } catch (NumberFormatException e) {
                throw new IOException(what + " has an unreadable version line '" + abbreviate(version) + "'");
            }
            if (v > 1) {
                throw new IOException(what + " was written in log version v" + v + " but this Sluice reads only "
                        + "v1: it was written by a newer version");
            }
            String line;
            int n = 1;
            while ((line = r.readLine()) != null) {
                n++;
                if (!line.isEmpty()) {
                    try {
                        handler.line(line, n);
                    } catch (IOException e) {
                        throw new IOException(what + ", line " + n + ": " + e.getMessage() + ": '"
                                + abbreviate(line) + "'", e);
                    }
                }
            }
        }
    }

    static void forEachEntry(InputStream in, String what, Consumer<FileEntry> out) throws IOException {
        readLines(in, what, (line, n) -> out.accept(parseEntry(line)));
    }

    private static String abbreviate(String s) {
        return s.length() <= 200 ? s : s.substring(0, 200) + "...";
    }
}
