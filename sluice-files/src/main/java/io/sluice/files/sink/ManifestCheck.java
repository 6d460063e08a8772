package io.sluice.files.sink;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * Checks a file sink's manifest the way a reader needs it: the newest compact file and every batch file after it
 * exist and parse (before the first compaction: every batch from 0). Used by the sink at start, so damage fails
 * {@code start()} naming the file instead of the next compaction, and by {@link FileSinkManifest#check}.
 */
final class ManifestCheck {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int SHOWN = 60;

    /** How to repair: the same words at start and in {@code sluice sink check}. */
    static final String REPAIR = "Repair: restore the output folder (data files and _spark_metadata) from a backup "
            + "taken together with the checkpoint, or start over with a fresh checkpoint and a new output folder";

    private ManifestCheck() {
    }

    /** The manifest files a reader needs that are missing or do not parse, in batch order; empty when sound. */
    static List<FileSinkManifest.Damage> damaged(Path outputDir, int defaultCompactInterval) throws IOException {
        Path metadataDir = outputDir.resolve(SinkLog.METADATA_DIR);
        TreeMap<Long, Path> files = SinkLog.list(metadataDir);
        List<FileSinkManifest.Damage> out = new ArrayList<>();
        if (files.isEmpty()) {
            return out;
        }
        int interval = SinkLog.compactInterval(files, defaultCompactInterval);
        long start = 0;
        for (Map.Entry<Long, Path> e : files.descendingMap().entrySet()) {
            if (e.getValue().getFileName().toString().endsWith(SinkLog.COMPACT_SUFFIX)) {
                start = e.getKey();
                break;
            }
        }
        for (long id = start; id <= files.lastKey(); id++) {
            Path f = files.get(id);
            if (f == null) {
                out.add(new FileSinkManifest.Damage(SinkLog.fileFor(metadataDir, id, interval),
                        "missing (the manifest holds batches up to " + files.lastKey() + ")"));
            } else {
                String problem = problem(f);
                if (problem != null) {
                    out.add(new FileSinkManifest.Damage(f, problem));
                }
            }
        }
        return out;
    }

    /** What is wrong with one manifest file, or null. */
    private static String problem(Path file) throws IOException {
        try (BufferedReader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            String version = r.readLine();
            if (version == null) {
                return "empty (no version line)";
            }
            if (!version.matches("v[1-9][0-9]*")) {
                return "not a manifest file: the first line is '" + cut(version) + "', not v1";
            }
            if (Integer.parseInt(version.substring(1)) > SinkLog.VERSION) {
                return "written by a newer Spark (" + version + "; this version reads v" + SinkLog.VERSION + ")";
            }
            String line;
            int n = 1;
            while ((line = r.readLine()) != null) {
                n++;
                if (line.isEmpty()) {
                    continue;
                }
                JsonNode entry;
                try {
                    entry = JSON.readTree(line);
                } catch (IOException e) {
                    entry = null;
                }
                if (entry == null || !entry.isObject() || !entry.path("path").isTextual()) {
                    return "line " + n + " is not a file entry (truncated or overwritten?): '" + cut(line) + "'";
                }
            }
            return null;
        } catch (java.nio.charset.MalformedInputException e) {
            return "not a manifest file: not UTF-8 text";
        }
    }

    private static String cut(String s) {
        return s.length() <= SHOWN ? s : s.substring(0, SHOWN) + "...";
    }

    /**
     * Fails {@code start()} when the manifest is damaged, or when it holds fewer batches than the checkpoint
     * committed (the folder, or its newest manifest files, were deleted or restored from an older copy): readers
     * would silently lose those batches.
     */
    static void atStart(Path outputDir, Path checkpoint, int defaultCompactInterval) throws IOException {
        Path metadataDir = outputDir.resolve(SinkLog.METADATA_DIR);
        List<FileSinkManifest.Damage> damage = damaged(outputDir, defaultCompactInterval);
        if (!damage.isEmpty()) {
            StringBuilder sb = new StringBuilder("The file sink's manifest " + metadataDir + " is damaged: ");
            for (int i = 0; i < damage.size(); i++) {
                sb.append(i == 0 ? "" : "; ").append(damage.get(i).file()).append(": ").append(damage.get(i).problem());
            }
            throw new IllegalStateException(sb.append(". Readers of the manifest (Spark, Sluice's file source) "
                    + "cannot list the output, and the sink cannot add to it. ").append(REPAIR)
                    .append(". 'sluice sink check ").append(outputDir).append("' lists what is damaged.").toString());
        }
        OptionalLong committed = latestCommit(checkpoint);
        TreeMap<Long, Path> files = SinkLog.list(metadataDir);
        long latest = files.isEmpty() ? -1 : files.lastKey();
        if (committed.isPresent() && latest < committed.getAsLong()) {
            String what = !Files.isDirectory(metadataDir) ? "is missing"
                    : latest < 0 ? "holds no batch" : "ends at batch " + latest;
            throw new IllegalStateException("The file sink's manifest " + metadataDir + " " + what + ", but the "
                    + "checkpoint " + checkpoint + " has committed batches up to " + committed.getAsLong()
                    + " (commits/" + committed.getAsLong() + "): readers of the manifest would silently lose those "
                    + "batches' files. " + REPAIR + ".");
        }
    }

    /** The newest {@code commits/<N>} of the checkpoint (Spark's layout), or empty. */
    private static OptionalLong latestCommit(Path checkpoint) throws IOException {
        Path commits = checkpoint.resolve("commits");
        if (!Files.isDirectory(commits)) {
            return OptionalLong.empty();
        }
        long latest = -1;
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(commits)) {
            for (Path p : ds) {
                String name = p.getFileName().toString();
                if (name.matches("[0-9]{1,18}")) {
                    latest = Math.max(latest, Long.parseLong(name));
                }
            }
        }
        return latest < 0 ? OptionalLong.empty() : OptionalLong.of(latest);
    }
}
