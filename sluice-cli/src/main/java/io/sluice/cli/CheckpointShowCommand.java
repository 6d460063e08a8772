package io.sluice.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import io.sluice.api.io.Storage;
import io.sluice.api.io.Storages;
import io.sluice.api.io.StoredObject;
import picocli.CommandLine.ParameterException;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Stream;

/**
 * {@code sluice checkpoint show DIR [--json]}: the query id, each retained batch with its offsets per source and
 * whether it committed, the files a file source read, the batch a restart would re-run, and each stateful
 * operator's state size. Reads without the
 * checkpoint's lock and changes nothing, so it is safe beside a running query.
 *
 * <p>A checkpoint on an object store ({@code s3a://lake/chk}, with the module sluice-s3 among the plugins) is
 * read through the storage contract, configured by {@code --conf fs.s3a.*}: its logs ({@code metadata},
 * {@code offsets/}, {@code commits/} and the file sources' logs, not their binary snapshots nor operator state)
 * are copied to a temporary folder that the local reader reads, then deleted; the operators' state is read in
 * place (one listing of {@code state/}, the small metadata objects, and the files a row count needs when they are
 * small), as for a local checkpoint.
 */
@Command(name = "show", mixinStandardHelpOptions = true,
        description = {"Shows a checkpoint: the query id, each retained batch (its offsets per source, whether it "
                + "committed, the files a file source read), the batch a restart would re-run and each stateful "
                + "operator's state (partitions, latest version, files, bytes, rows).",
                "Reads only; safe while the query runs."})
final class CheckpointShowCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "DIR", description = "The checkpoint folder, or its URI on an object "
            + "store (s3a://bucket/chk).")
    String dir;

    @Option(names = "--conf", paramLabel = "KEY=VALUE",
            description = "A storage setting for a checkpoint on an object store (repeatable), e.g. "
                    + "fs.s3a.endpoint=http://localhost:9090; the spark.hadoop. prefix is accepted.")
    List<String> conf = new ArrayList<>();

    @Option(names = "--json", description = "Print a JSON document instead of text.")
    boolean json;

    @Override
    public Integer call() throws Exception {
        CheckpointReport report;
        if (Storages.isLocal(dir)) {
            Path local = CliPaths.local(spec, "DIR", dir);
            // The built plugins too: the RocksDB store (a plugin) tells its partitions' rows.
            ClassLoader own = CheckpointShowCommand.class.getClassLoader();
            try (PluginLoader plugins = Plugins.loader(null, Plugins.builtFolder(), own).orElse(null)) {
                report = CheckpointReader.read(local, plugins != null ? plugins : own);
            }
        } else {
            report = readStored();
        }
        PrintWriter out = spec.commandLine().getOut();
        out.print(json ? report.json() : report.text());
        out.flush();
        return 0;
    }

    /** Copies the checkpoint's logs from its store to a temporary folder, reads them there, deletes the folder. */
    private CheckpointReport readStored() throws IOException {
        Map<String, String> settings = new LinkedHashMap<>();
        for (String pair : conf) {
            int eq = pair.indexOf('=');
            if (eq <= 0) {
                throw new ParameterException(spec.commandLine(), "Invalid --conf '" + Redactor.pairWithoutEquals(pair)
                        + "': expected KEY=VALUE");
            }
            settings.put(pair.substring(0, eq).strip(), pair.substring(eq + 1));
        }
        ClassLoader parent = CheckpointShowCommand.class.getClassLoader();
        PluginLoader plugins = Plugins.loader(null, Plugins.builtFolder(), parent).orElse(null);
        try {
            return readStored(settings, plugins != null ? plugins : parent);
        } finally {
            if (plugins != null) {
                plugins.close();
            }
        }
    }

    private CheckpointReport readStored(Map<String, String> settings, ClassLoader loader) throws IOException {
        try {
            Storages.check("DIR", dir, loader);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
        String folder = Storages.asFolder(dir);
        Path tmp = Files.createTempDirectory("sluice-checkpoint-show-");
        try (Storage storage = Storages.of(dir, Storages.conf(settings, Map.of()), loader)) {
            int copied = 0;
            for (StoredObject o : storage.list(folder)) {
                String rel = o.uri().substring(folder.length());
                if (!wanted(rel)) {
                    continue;
                }
                Path target = tmp.resolve(rel).normalize();
                if (!target.startsWith(tmp)) {
                    continue; // a key with .. segments: not the checkpoint's
                }
                Files.createDirectories(target.getParent());
                try (InputStream in = storage.open(o.uri(), null)) {
                    Files.copy(in, target);
                } catch (java.nio.file.NoSuchFileException gone) {
                    continue; // purged by the running query since the listing
                }
                copied++;
            }
            if (copied == 0) {
                throw new IllegalArgumentException("No checkpoint at " + dir + ": no object under " + folder);
            }
            CheckpointReport local;
            try {
                // Operator state is not copied (its files may be large): read where it is.
                local = CheckpointReader.read(tmp, loader, storage, folder.substring(0, folder.length() - 1));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(e.getMessage().replace(tmp.toString(), dir), e);
            }
            return new CheckpointReport(dir, local.queryId(), local.metadataProblem(), local.batches(),
                    local.rerunBatch(), local.state());
        } finally {
            try (Stream<Path> all = Files.walk(tmp)) {
                all.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    /**
     * The objects {@code checkpoint show} reads: the logs; not the lease, probes, snapshots ({@code N.hot}, which
     * may be large and are not shown) or operator state.
     */
    static boolean wanted(String rel) {
        if (rel.isEmpty() || rel.startsWith(".") || rel.startsWith("state/") || rel.endsWith(".hot")) {
            return false;
        }
        return rel.equals("metadata") || rel.startsWith("offsets/") || rel.startsWith("commits/")
                || rel.startsWith("sources/");
    }
}
