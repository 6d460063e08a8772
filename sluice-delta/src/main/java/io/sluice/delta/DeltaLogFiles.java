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
 * The commit files of a table's {@code _delta_log}, on the local file system or an object store: which versions exist and the actions of
 * one commit. Kernel 4.0 has no public API for one commit's actions (4.1's TableManager.loadCommitRange), and the
 * commit JSON is the protocol's stable part, so the source reads it directly; snapshots come from Kernel.
 */
final class DeltaLogFiles {

    private static final Pattern COMMIT = Pattern.compile("(\\d{20})\\.json");
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Path logDir;
    /** For a table on an object store: its storage and {@code <table>/_delta_log/}; null for a local table. */
    private final io.sluice.api.io.Storage storage;
    private final String logUri;

    DeltaLogFiles(Path tableDir) {
        this.logDir = tableDir.resolve("_delta_log");
        this.storage = null;
        this.logUri = null;
    }

    DeltaLogFiles(DeltaTable table) {
        this.logDir = table.dir == null ? null : table.dir.resolve("_delta_log");
        this.storage = table.storage;
        this.logUri = table.uri.replaceAll("/+$", "") + "/_delta_log/";
    }

    /** The commit file of a version, as messages name it. */
    String commitLocation(long version) {
        return storage == null ? commitFile(version).toString() : logUri + String.format("%020d.json", version);
    }

    Path logDir() {
        return logDir;
    }

    /** Commit versions present, with each commit file's modification time (ms), in version order. */
    TreeMap<Long, Long> versions() {
        TreeMap<Long, Long> out = new TreeMap<>();
        if (storage != null) {
            try {
                storage.list(logUri, null, o -> {
                    Matcher m = COMMIT.matcher(o.uri().substring(logUri.length()));
                    if (m.matches()) {
                        out.put(Long.parseLong(m.group(1)), o.lastModified());
                    }
                    return true;
                });
            } catch (IOException e) {
                throw new UncheckedIOException("Cannot list " + logUri, e);
            }
            return out;
        }
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


    Path commitFile(long version) {
        return logDir.resolve(String.format("%020d.json", version));
    }

    /** One commit's actions in log order; empty when the file does not exist. */
    List<JsonNode> actions(long version) {
        List<JsonNode> out = new ArrayList<>();
        try (BufferedReader r = storage != null
                ? new BufferedReader(new java.io.InputStreamReader(storage.open(commitLocation(version), null),
                        StandardCharsets.UTF_8))
                : Files.newBufferedReader(commitFile(version), StandardCharsets.UTF_8)) {
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                if (!line.isBlank()) {
                    out.add(JSON.readTree(line));
                }
            }
        } catch (NoSuchFileException e) {
            return null;
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read " + commitLocation(version), e);
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
