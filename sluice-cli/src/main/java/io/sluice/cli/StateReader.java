package io.sluice.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sluice.api.io.Storage;
import io.sluice.api.io.Storages;
import io.sluice.core.state.StateStoreProvider;
import io.sluice.core.state.StateStoreProviders;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The state of a checkpoint's stateful operators for {@code sluice checkpoint show}: per operator folder
 * {@code state/<id>/}, its name and partition count from {@code _metadata/metadata} (Spark's operator metadata,
 * as the engine writes it), per partition folder its latest committed version (the highest {@code <N>.<kind>} file
 * name: every store names its version files so), its files and bytes, and its rows when the store that wrote them
 * tells them cheaply ({@link StateStoreProvider#numRows(Storage, String, long)}). Read through a {@link Storage}
 * (the local disk or an object store, one listing of {@code state/}), so that a checkpoint on S3 shows as a local
 * one. Reads only, like the rest of the command.
 */
final class StateReader {
    private static final Pattern VERSION_FILE = Pattern.compile("(\\d+)\\.[A-Za-z]+");
    private static final Pattern NUMBER = Pattern.compile("\\d{1,9}");
    private static final ObjectMapper JSON = new ObjectMapper();
    /** More than an operator's metadata file can be. */
    private static final long MAX_METADATA_BYTES = 1L << 20;

    private StateReader() {
    }

    /** {@link #read(Storage, String, String, ClassLoader)} for a local checkpoint folder. */
    static List<CheckpointReport.StateOperator> read(Path checkpoint, String storeName, ClassLoader loader) {
        return read(Storages.local(), checkpoint.toAbsolutePath().toString(), storeName, loader);
    }

    /**
     * Every operator under {@code <checkpoint>/state/}, by id; empty when there is nothing there.
     *
     * @param checkpoint the checkpoint on {@code storage}: a local path, or a URI ({@code s3a://lake/chk})
     * @param storeName  the store the query runs with (the offset log's
     *                   {@code spark.sql.streaming.stateStore.providerClass}, else the default)
     * @param loader     where to look the store up, for its row counts
     */
    static List<CheckpointReport.StateOperator> read(Storage storage, String checkpoint, String storeName,
                                                     ClassLoader loader) {
        String state = Storages.asFolder(Storages.child(checkpoint, "state"));
        // Every file under state/, as its path relative to it ("0/3/1.delta") and its size; temporary files (a
        // name starting with a dot) are left out.
        TreeMap<String, Long> files = new TreeMap<>();
        try {
            storage.list(state, null, o -> {
                String rel = o.uri().substring(state.length());
                if (Arrays.stream(rel.split("/")).noneMatch(seg -> seg.startsWith("."))) {
                    files.put(rel, o.size());
                }
                return true;
            });
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot list " + state + ": " + e.getMessage(), e);
        }
        if (files.isEmpty()) {
            return List.of();
        }
        StateStoreProvider store;
        try {
            store = StateStoreProviders.find(storeName, loader);
        } catch (IllegalArgumentException | java.util.ServiceConfigurationError notHere) {
            store = null; // rows unknown; the rest is read from the files alone
        }
        List<CheckpointReport.StateOperator> operators = new ArrayList<>();
        for (int id : numbered(files.keySet(), "")) {
            String op = id + "/";
            String name = null;
            Integer declared = null;
            String problem = null;
            String meta = "state/" + op + "_metadata/metadata";
            try {
                String text = new String(storage.readAll(Storages.child(checkpoint, meta), MAX_METADATA_BYTES),
                        StandardCharsets.UTF_8);
                String[] lines = text.split("\n", -1);
                JsonNode doc = JSON.readTree(lines.length > 1 ? lines[1] : "");
                name = doc.path("operatorInfo").path("operatorName").asText(null);
                JsonNode parts = doc.path("stateStoreInfo").path(0).path("numPartitions");
                declared = parts.isInt() ? parts.asInt() : null;
                if (name == null) {
                    problem = "cannot read " + meta + ": it names no operator";
                }
            } catch (IOException | RuntimeException e) {
                problem = "cannot read " + meta + ": " + (e instanceof java.nio.file.NoSuchFileException
                        ? "no such file" : e.getMessage());
            }
            List<CheckpointReport.StatePartition> partitions = new ArrayList<>();
            long version = 0;
            Long rows = 0L;
            for (int p : numbered(files.keySet(), op)) {
                String part = op + p + "/";
                long v = latestVersion(files.keySet(), part);
                OptionalLong n = store == null ? OptionalLong.empty()
                        : store.numRows(storage, Storages.child(state, op + p), v);
                long[] size = size(files, part);
                partitions.add(new CheckpointReport.StatePartition(p, v, size[0], size[1],
                        n.isPresent() ? n.getAsLong() : null));
                version = Math.max(version, v);
                rows = rows == null || n.isEmpty() ? null : rows + n.getAsLong();
            }
            long[] size = size(files, op);
            operators.add(new CheckpointReport.StateOperator(id, name, declared, storeName, version, size[0], size[1],
                    partitions.isEmpty() ? null : rows, partitions, problem));
        }
        return operators;
    }

    /** The numbers that name a folder directly under {@code prefix} (a relative path ending in /), in order. */
    private static TreeSet<Integer> numbered(Set<String> files, String prefix) {
        TreeSet<Integer> out = new TreeSet<>();
        for (String f : files) {
            if (f.startsWith(prefix)) {
                int slash = f.indexOf('/', prefix.length());
                if (slash > 0 && NUMBER.matcher(f.substring(prefix.length(), slash)).matches()) {
                    out.add(Integer.parseInt(f.substring(prefix.length(), slash)));
                }
            }
        }
        return out;
    }

    /** The highest version a file directly in the partition folder is named by; 0 (the empty state) when none. */
    private static long latestVersion(Set<String> files, String partition) {
        long latest = 0;
        for (String f : files) {
            if (f.startsWith(partition) && f.indexOf('/', partition.length()) < 0) {
                Matcher m = VERSION_FILE.matcher(f.substring(partition.length()));
                if (m.matches() && m.group(1).length() < 19) {
                    latest = Math.max(latest, Long.parseLong(m.group(1)));
                }
            }
        }
        return latest;
    }

    /** Files and bytes under {@code prefix}, every level. */
    private static long[] size(Map<String, Long> files, String prefix) {
        long[] size = new long[2];
        files.forEach((f, bytes) -> {
            if (f.startsWith(prefix)) {
                size[0]++;
                size[1] += bytes;
            }
        });
        return size;
    }
}
