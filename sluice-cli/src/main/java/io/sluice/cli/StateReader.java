package io.sluice.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sluice.core.state.StateStoreProvider;
import io.sluice.core.state.StateStoreProviders;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The state of a checkpoint's stateful operators for {@code sluice checkpoint show}: per operator folder
 * {@code state/<id>/}, its name and partition count from {@code _metadata/metadata} (Spark's operator metadata,
 * as the engine writes it), per partition folder its latest committed version (the highest {@code <N>.<kind>} file
 * name: every store names its version files so), its files and bytes on disk, and its rows when the store that
 * wrote them tells them cheaply ({@link StateStoreProvider#numRows}). Reads only, like the rest of the command.
 */
final class StateReader {
    private static final Pattern VERSION_FILE = Pattern.compile("(\\d+)\\.[A-Za-z]+");
    private static final ObjectMapper JSON = new ObjectMapper();

    private StateReader() {
    }

    /**
     * Every operator under {@code <checkpoint>/state/}, by id; empty when there is no such folder.
     *
     * @param storeName the store the query runs with (the offset log's
     *                  {@code spark.sql.streaming.stateStore.providerClass}, else the default)
     * @param loader    where to look the store up, for its row counts
     */
    static List<CheckpointReport.StateOperator> read(Path checkpoint, String storeName, ClassLoader loader) {
        Path state = checkpoint.resolve("state");
        if (!Files.isDirectory(state)) {
            return List.of();
        }
        StateStoreProvider store;
        try {
            store = StateStoreProviders.find(storeName, loader);
        } catch (IllegalArgumentException | java.util.ServiceConfigurationError notHere) {
            store = null; // rows unknown; the rest is read from the files alone
        }
        List<CheckpointReport.StateOperator> operators = new ArrayList<>();
        for (Path op : numbered(state)) {
            int id = Integer.parseInt(op.getFileName().toString());
            String name = null;
            Integer declared = null;
            String problem = null;
            Path meta = op.resolve("_metadata").resolve("metadata");
            try {
                List<String> lines = Files.readAllLines(meta, StandardCharsets.UTF_8);
                JsonNode doc = JSON.readTree(lines.size() > 1 ? lines.get(1) : "");
                name = doc.path("operatorInfo").path("operatorName").asText(null);
                JsonNode parts = doc.path("stateStoreInfo").path(0).path("numPartitions");
                declared = parts.isInt() ? parts.asInt() : null;
                if (name == null) {
                    problem = "cannot read " + checkpoint.relativize(meta) + ": it names no operator";
                }
            } catch (IOException | RuntimeException e) {
                problem = "cannot read " + checkpoint.relativize(meta) + ": " + (e instanceof java.nio.file
                        .NoSuchFileException ? "no such file" : e.getMessage());
            }
            List<CheckpointReport.StatePartition> partitions = new ArrayList<>();
            long version = 0;
            Long rows = 0L;
            for (Path part : numbered(op)) {
                long v = latestVersion(part);
                OptionalLong n = store == null ? OptionalLong.empty() : store.numRows(part, v);
                long[] size = size(part);
                partitions.add(new CheckpointReport.StatePartition(Integer.parseInt(part.getFileName().toString()),
                        v, size[0], size[1], n.isPresent() ? n.getAsLong() : null));
                version = Math.max(version, v);
                rows = rows == null || n.isEmpty() ? null : rows + n.getAsLong();
            }
            long[] size = size(op);
            operators.add(new CheckpointReport.StateOperator(id, name, declared, storeName, version, size[0], size[1],
                    partitions.isEmpty() ? null : rows, partitions, problem));
        }
        return operators;
    }

    /** The sub-folders of {@code dir} named by a number, in numeric order. */
    private static List<Path> numbered(Path dir) {
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> Files.isDirectory(p) && p.getFileName().toString().matches("\\d{1,9}"))
                    .sorted(java.util.Comparator.comparingInt(p -> Integer.parseInt(p.getFileName().toString())))
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot list " + dir, e);
        }
    }

    /** The highest version a file of the partition folder is named by; 0 (the empty state) when none. */
    private static long latestVersion(Path partition) {
        try (Stream<Path> s = Files.list(partition)) {
            return s.map(p -> VERSION_FILE.matcher(p.getFileName().toString())).filter(Matcher::matches)
                    .mapToLong(m -> Long.parseLong(m.group(1))).max().orElse(0);
        } catch (IOException e) {
            return 0;
        }
    }

    /**
     * Files and bytes under {@code dir}, every level; temporary files (a name starting with a dot) are left out. A
     * file a running query deletes meanwhile is skipped.
     */
    private static long[] size(Path dir) {
        long[] size = new long[2];
        try (Stream<Path> s = Files.walk(dir)) {
            s.filter(p -> !p.getFileName().toString().startsWith(".")).forEach(p -> {
                try {
                    if (Files.isRegularFile(p)) {
                        size[1] += Files.size(p);
                        size[0]++;
                    }
                } catch (IOException deleted) {
                    // gone between the listing and its size
                }
            });
        } catch (IOException | UncheckedIOException e) {
            // a folder deleted meanwhile: what was counted
        }
        return size;
    }
}
