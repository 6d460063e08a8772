package io.sluice.cli;

import io.sluice.files.sink.FileSinkManifest;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.Callable;

/**
 * {@code sluice sink check DIR}: checks a file sink's output folder against its manifest ({@code _spark_metadata}):
 * damaged manifest files, data files the manifest names that are missing, files it does not name (orphans). Exit
 * 0 when clean, 1 otherwise. Reads only: safe beside a running query (a batch being committed may show its files
 * as orphans for a moment).
 */
@Command(name = "check", mixinStandardHelpOptions = true,
        description = {"Checks a file sink's output folder against its manifest (_spark_metadata): damaged manifest "
                + "files, data files it names that are missing, and files it does not name (orphans).",
                "Exit code 0 when clean, 1 otherwise. Reads only."})
final class SinkCheckCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "DIR", description = "The sink's output folder (its path option).")
    String dir;

    @Override
    public Integer call() throws Exception {
        Path local = CliPaths.local(spec, "DIR", dir).normalize();
        PrintWriter out = spec.commandLine().getOut();
        try {
            return check(local, out) ? 0 : 1;
        } finally {
            out.flush();
        }
    }

    /** Prints the report; true when the folder is clean. */
    private static boolean check(Path folder, PrintWriter out) throws Exception {
        out.println("Sink folder: " + folder);
        if (!FileSinkManifest.exists(folder)) {
            out.println("No manifest: " + folder.resolve(FileSinkManifest.METADATA_DIR) + " does not exist (not a "
                    + "file sink's output folder, or its manifest was deleted)");
            return false;
        }
        FileSinkManifest.Check check = FileSinkManifest.check(folder);
        OptionalLong latest = FileSinkManifest.latestBatchId(folder);
        if (check.damaged().isEmpty()) {
            int files = FileSinkManifest.allFiles(folder).size();
            out.println("Manifest: " + (latest.isPresent() ? "batches up to " + latest.getAsLong() : "no batch")
                    + ", " + files + " data file" + (files == 1 ? "" : "s"));
        }
        for (FileSinkManifest.Damage d : check.damaged()) {
            out.println("damaged manifest file " + d.file() + ": " + d.problem());
        }
        if (!check.damaged().isEmpty()) {
            out.println("Data files not checked: the manifest cannot be read");
        }
        for (Path p : check.missingFiles()) {
            out.println("missing data file " + p);
        }
        for (Path p : check.orphans()) {
            out.println("orphan " + p + " (" + Files.size(p) + " bytes)");
        }
        if (check.clean()) {
            out.println("Clean: every file the manifest names exists, and the folder holds no other file");
            return true;
        }
        List<String> counts = new ArrayList<>();
        count(counts, check.damaged().size(), "damaged manifest file");
        count(counts, check.missingFiles().size(), "missing data file");
        count(counts, check.orphans().size(), "orphan");
        out.println("Not clean: " + String.join(", ", counts));
        return false;
    }

    private static void count(List<String> counts, int n, String what) {
        if (n > 0) {
            counts.add(n + " " + what + (n == 1 ? "" : "s"));
        }
    }
}
