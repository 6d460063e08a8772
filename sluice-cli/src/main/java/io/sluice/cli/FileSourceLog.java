package io.sluice.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sluice.api.io.MetadataLogFiles;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

/**
 * The files a file source read, from its private log in {@code sources/<i>/}: Spark's FileStreamSource log
 * ({@code v1}, then one JSON entry per file with {@code path}, {@code timestamp}, {@code batchId}), a file per log
 * id or a {@code <id>.compact} file. This is the source's format, not the checkpoint's (which
 * {@link io.sluice.core.CheckpointView} reads); a log in any other format is skipped quietly (null).
 */
final class FileSourceLog {
    private static final ObjectMapper JSON = new ObjectMapper();

    private FileSourceLog() {
    }

    /**
     * The paths logged with log ids in {@code (start.logOffset, end.logOffset]}. Null when the offsets are not
     * {@code {"logOffset":N}} or the log is missing or in another format.
     */
    static List<String> filesRead(Path sourceDir, String start, String end) {
        Long to = logOffset(end);
        Long from = start == null ? Long.valueOf(-1) : logOffset(start);
        if (to == null || from == null || !Files.isDirectory(sourceDir)) {
            return null;
        }
        List<String> files = new ArrayList<>();
        boolean found = false;
        for (long logId = from + 1; logId <= to; logId++) {
            List<String> entries = logEntries(sourceDir, logId);
            if (entries != null) {
                found = true;
                files.addAll(entries);
            }
        }
        return found || from.equals(to) ? files : null;
    }

    private static Long logOffset(String json) {
        JsonNode node = json == null ? null : tree(json);
        JsonNode n = node == null ? null : node.get("logOffset");
        return node != null && node.isObject() && node.size() == 1 && n != null && n.canConvertToLong()
                ? n.longValue() : null;
    }

    /** The paths logged for one log id, from its own file or the first compact file at or after it; or null. */
    private static List<String> logEntries(Path sourceDir, long logId) {
        Path plain = sourceDir.resolve(Long.toString(logId));
        if (Files.isRegularFile(plain)) {
            return paths(plain, logId);
        }
        Long compact = null;
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(sourceDir, "*.compact")) {
            for (Path p : entries) {
                OptionalLong id = MetadataLogFiles.compactId(p.getFileName().toString());
                if (id.isPresent() && id.getAsLong() >= logId && (compact == null || id.getAsLong() < compact)) {
                    compact = id.getAsLong();
                }
            }
        } catch (IOException e) {
            return null;
        }
        return compact == null ? null : paths(sourceDir.resolve(compact + MetadataLogFiles.COMPACT_SUFFIX), logId);
    }

    /** The {@code path} of each entry with this batchId; null when the file is not in Spark's format. */
    private static List<String> paths(Path file, long logId) {
        String text;
        try {
            text = new String(MetadataLogFiles.readAll(file, MetadataLogFiles.MAX_READ_BYTES), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return null;
        }
        String[] lines = text.split("\n");
        if (lines.length == 0 || !lines[0].equals("v1")) {
            return null;
        }
        List<String> out = new ArrayList<>();
        for (int i = 1; i < lines.length; i++) {
            JsonNode entry = tree(lines[i]);
            JsonNode path = entry == null ? null : entry.get("path");
            if (entry == null || !entry.isObject() || path == null || !path.isTextual()) {
                return null;
            }
            JsonNode batchId = entry.get("batchId");
            if (batchId == null || !batchId.canConvertToLong() || batchId.longValue() == logId) {
                out.add(path.textValue());
            }
        }
        return out;
    }

    /** The parsed JSON value, or null when the text is not JSON. */
    private static JsonNode tree(String text) {
        try {
            JsonNode node = JSON.readTree(text);
            return node == null || node.isMissingNode() ? null : node;
        } catch (IOException e) {
            return null;
        }
    }
}
