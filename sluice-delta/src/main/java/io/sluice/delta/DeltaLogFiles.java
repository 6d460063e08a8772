package io.sluice.delta;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The commit files of a table's {@code _delta_log} on the local file system: which versions exist and the actions of
 * one commit. Kernel 4.0 has no public API for one commit's actions (4.1's TableManager.loadCommitRange), and the
 * commit JSON is the protocol's stable part, so the source reads it directly; snapshots come from Kernel.
 */
final class DeltaLogFiles {

    private static final Pattern COMMIT = Pattern.compile("(\\d{20})\\.json");
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Path logDir;

    DeltaLogFiles(Path tableDir) {
        this.logDir = tableDir.resolve("_delta_log");
    }

    Path logDir() {
        return logDir;
    }

    /** Commit versions present, with each commit file's modification time (ms), in version order. */
    TreeMap<Long, Long> versions() {
        TreeMap<Long, Long> out = new TreeMap<>();
        if (!Files.isDirectory(logDir)) {
            return out;
        }
        try (Stream<Path> s = Files.list(logDir)) {
            for (Path p : (Iterable<Path>) s::iterator) {
                Matcher m = COMMIT.matcher(p.getFileName().toString());
                if (m.matches()) {
                    try {
                        out.put(Long.parseLong(m.group(1)), Files.getLastModifiedTime(p).toMillis());
                    } catch (NoSuchFileException gone) {
                        // cleaned up while listing: as if absent
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot list " + logDir, e);
        }
        return out;
    }

    boolean exists(long version) {
        return Files.exists(commitFile(version));
    }

    Path commitFile(long version) {
        return logDir.resolve(String.format("%020d.json", version));
    }

    /** One commit's actions in log order; empty when the file does not exist. */
    List<JsonNode> actions(long version) {
        List<JsonNode> out = new ArrayList<>();
        try (BufferedReader r = Files.newBufferedReader(commitFile(version), StandardCharsets.UTF_8)) {
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                if (!line.isBlank()) {
                    out.add(JSON.readTree(line));
                }
            }
        } catch (NoSuchFileException e) {
            return null;
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read " + commitFile(version), e);
        }
        return out;
    }

    static Map<String, String> partitionValues(JsonNode add) {
        Map<String, String> out = new java.util.LinkedHashMap<>();
        JsonNode pv = add.path("partitionValues");
        pv.fields().forEachRemaining(e -> out.put(e.getKey(), e.getValue().isNull() ? null : e.getValue().asText()));
        return out;
    }
}
