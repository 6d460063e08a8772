package io.sluice.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sluice.api.io.MetadataLogFiles;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads a checkpoint folder without changing it and without its lock, so it works beside a running query:
 * {@code metadata}, {@code offsets/N}, {@code commits/N} and, for a file source, the files each batch read.
 *
 * <p>{@code io.sluice.core.checkpoint} offers its logs only through {@code Checkpoint.open}, which takes the
 * query's lock and creates folders, so the files are parsed here with the same rules: a batch file's name is a
 * batch id exactly as Spark writes it ({@link MetadataLogFiles}: {@code 0005}, temp and {@code .crc} files are
 * ignored), it is a regular file of at most {@link MetadataLogFiles#MAX_READ_BYTES}, its first line is the
 * version {@code v1}, lines are joined by {@code \n} and a trailing newline is tolerated. A file that breaks these rules is reported
 * with its batch, never skipped silently; a source's private files in an unknown format are skipped quietly.
 */
final class CheckpointReader {
    private static final Pattern VERSION_LINE = Pattern.compile("v([0-9]{1,9})");
    private static final ObjectMapper JSON = new ObjectMapper();

    private CheckpointReader() {
    }

    /**
     * @throws IllegalArgumentException when {@code dir} does not exist or holds neither {@code metadata} nor
     *                                  {@code offsets/}
     */
    static CheckpointReport read(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            throw new IllegalArgumentException("No checkpoint at " + dir + ": " + (Files.exists(dir)
                    ? "it is not a folder" : "no such folder"));
        }
        Path metadata = dir.resolve("metadata");
        Path offsetsDir = dir.resolve("offsets");
        if (!Files.exists(metadata) && !Files.isDirectory(offsetsDir)) {
            throw new IllegalArgumentException(dir + " is not a checkpoint: it has no metadata file and no offsets "
                    + "folder");
        }
        String queryId = null;
        String metadataProblem = null;
        try {
            queryId = queryId(metadata);
        } catch (Problem e) {
            metadataProblem = e.getMessage();
        }

        List<Long> offsetIds = batchIds(offsetsDir);
        List<Long> commitIds = batchIds(dir.resolve("commits"));
        Map<Long, Parsed> parsed = new TreeMap<>();
        for (long id : offsetIds) {
            parsed.put(id, parseOffsets(offsetsDir.resolve(Long.toString(id))));
        }
        List<CheckpointReport.Batch> batches = new ArrayList<>();
        for (long id : offsetIds) {
            Parsed p = parsed.get(id);
            boolean committed = commitIds.contains(id);
            if (p.problem != null) {
                batches.add(new CheckpointReport.Batch(id, committed, null, List.of(), "cannot read offsets/" + id
                        + ": " + p.problem));
                continue;
            }
            Parsed previous = id == 0 ? null : parsed.get(id - 1);
            List<CheckpointReport.SourceRange> sources = new ArrayList<>();
            for (int i = 0; i < p.offsets.size(); i++) {
                CheckpointReport.Start kind;
                String start = null;
                if (id == 0) {
                    kind = CheckpointReport.Start.INITIAL;
                } else if (previous == null || previous.problem != null || i >= previous.offsets.size()) {
                    kind = CheckpointReport.Start.UNKNOWN;
                } else {
                    start = previous.offsets.get(i);
                    // A source with no offset yet in the previous batch starts this one where it started.
                    kind = start == null ? CheckpointReport.Start.INITIAL : CheckpointReport.Start.PREVIOUS_BATCH;
                }
                String end = p.offsets.get(i);
                List<String> files = kind == CheckpointReport.Start.UNKNOWN ? null
                        : filesRead(dir.resolve("sources").resolve(Integer.toString(i)), start, end);
                sources.add(new CheckpointReport.SourceRange(i, kind, start, end, files));
            }
            batches.add(new CheckpointReport.Batch(id, committed, p.timestampMs, sources, null));
        }
        Long rerun = null;
        if (!offsetIds.isEmpty()) {
            long latest = offsetIds.get(offsetIds.size() - 1);
            if (!commitIds.contains(latest)) {
                rerun = latest;
            }
        }
        return new CheckpointReport(dir.toAbsolutePath().normalize(), queryId, metadataProblem, batches, rerun);
    }

    /** A file's problem, worded as a clause ("it is empty"). */
    private static final class Problem extends Exception {
        private static final long serialVersionUID = 1L;

        Problem(String message) {
            super(message, null, false, false);
        }
    }

    private record Parsed(Long timestampMs, List<String> offsets, String problem) {
    }

    private static String queryId(Path metadata) throws Problem, IOException {
        byte[] bytes;
        try {
            bytes = MetadataLogFiles.readAll(metadata, MetadataLogFiles.MAX_READ_BYTES);
        } catch (NoSuchFileException e) {
            return null;
        } catch (MetadataLogFiles.NotALogFileException e) {
            throw new Problem(e.problem());
        }
        JsonNode node = json(text(bytes).strip(), "it");
        JsonNode id = node.get("id");
        if (!node.isObject() || id == null || !id.isTextual()) {
            throw new Problem("it is not a JSON object with a string \"id\"");
        }
        return id.textValue();
    }

    private static Parsed parseOffsets(Path file) throws IOException {
        try {
            List<String> lines = lines(readLogFile(file));
            if (lines.size() < 3) {
                throw new Problem("expected at least 3 lines, found " + lines.size());
            }
            JsonNode meta = json(lines.get(1), "line 2");
            JsonNode ts = meta.get("batchTimestampMs");
            Long timestamp = ts != null && ts.canConvertToLong() ? ts.longValue() : null;
            List<String> offsets = new ArrayList<>();
            for (String line : lines.subList(2, lines.size())) {
                offsets.add(line.equals("-") ? null : line);
            }
            return new Parsed(timestamp, Collections.unmodifiableList(offsets), null);
        } catch (NoSuchFileException e) {
            return new Parsed(null, List.of(), "the file vanished (purged by a running query?)");
        } catch (Problem e) {
            return new Parsed(null, List.of(), e.getMessage());
        }
    }

    /**
     * The files a file source read between {@code start} and {@code end}, from its Spark-format log
     * {@code sources/<i>/<logId>} (or a {@code <id>.compact} file): the entries with log ids in
     * {@code (start.logOffset, end.logOffset]}. Null when the offsets are not {@code {"logOffset":N}} or the log is
     * missing or in another format.
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
        if (json == null) {
            return null;
        }
        try {
            JsonNode node = JSON.readTree(json);
            JsonNode n = node == null ? null : node.get("logOffset");
            return node != null && node.isObject() && node.size() == 1 && n != null && n.canConvertToLong()
                    ? n.longValue() : null;
        } catch (IOException e) {
            return null;
        }
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
                if (id.isPresent()) {
                    long c = id.getAsLong();
                    if (c >= logId && (compact == null || c < compact)) {
                        compact = c;
                    }
                }
            }
        } catch (IOException e) {
            return null;
        }
        return compact == null ? null : paths(sourceDir.resolve(compact + ".compact"), logId);
    }

    /** The {@code path} of each entry with this batchId; null when the file is not in Spark's format. */
    private static List<String> paths(Path file, long logId) {
        try {
            List<String> lines = lines(readLogFile(file));
            List<String> out = new ArrayList<>();
            for (String line : lines.subList(1, lines.size())) {
                JsonNode entry = json(line, "an entry");
                JsonNode path = entry.get("path");
                JsonNode batchId = entry.get("batchId");
                if (!entry.isObject() || path == null || !path.isTextual()) {
                    return null;
                }
                if (batchId == null || !batchId.canConvertToLong() || batchId.longValue() == logId) {
                    out.add(path.textValue());
                }
            }
            return out;
        } catch (IOException | Problem e) {
            return null;
        }
    }

    private static List<Long> batchIds(Path dir) throws IOException {
        List<Long> ids = new ArrayList<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
            for (Path p : entries) {
                MetadataLogFiles.batchId(p.getFileName().toString()).ifPresent(ids::add);
            }
        } catch (NoSuchFileException e) {
            return List.of();
        }
        Collections.sort(ids);
        return ids;
    }

    /** A log file's bytes; one that cannot be a log file (a folder, a device, too big) is its problem. */
    private static byte[] readLogFile(Path file) throws IOException, Problem {
        try {
            return MetadataLogFiles.readAll(file, MetadataLogFiles.MAX_READ_BYTES);
        } catch (MetadataLogFiles.NotALogFileException e) {
            throw new Problem(e.problem());
        }
    }

    /** The lines after the rules of every checkpoint log file, the version line checked. */
    private static List<String> lines(byte[] bytes) throws Problem {
        String text = text(bytes);
        if (text.endsWith("\n")) {
            text = text.substring(0, text.length() - 1);
        }
        List<String> lines = Arrays.asList(text.split("\n", -1));
        Matcher m = VERSION_LINE.matcher(lines.get(0));
        if (!m.matches()) {
            throw new Problem("line 1 should be the version \"v1\" but is \"" + shorten(lines.get(0)) + "\"");
        }
        if (!m.group(1).equals("1")) {
            throw new Problem("it was written in format v" + m.group(1) + "; this version reads v1");
        }
        return lines;
    }

    private static String text(byte[] bytes) throws Problem {
        if (bytes.length == 0) {
            throw new Problem("it is empty");
        }
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            throw new Problem("it is not UTF-8 text");
        }
    }

    private static JsonNode json(String text, String what) throws Problem {
        try {
            JsonNode node = JSON.readTree(text);
            if (node == null || node.isMissingNode()) {
                throw new Problem(what + " is not valid JSON");
            }
            return node;
        } catch (IOException e) {
            throw new Problem(what + " is not valid JSON");
        }
    }

    private static String shorten(String s) {
        return s.length() > 40 ? s.substring(0, 40) + "..." : s;
    }
}
