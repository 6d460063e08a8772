package io.sluice.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;

/**
 * {@code sluice checkpoint show DIR [--json]}: the query id, each retained batch with its offsets per source and
 * whether it committed, the files a file source read, the batch a restart would re-run, and each stateful
 * operator's state size. Reads without the
 * checkpoint's lock and changes nothing, so it is safe beside a running query.
 */
@Command(name = "show", mixinStandardHelpOptions = true,
        description = {"Shows a checkpoint: the query id, each retained batch (its offsets per source, whether it "
                + "committed, the files a file source read), the batch a restart would re-run and each stateful "
                + "operator's state (partitions, latest version, files, bytes, rows).",
                "Reads only; safe while the query runs."})
final class CheckpointShowCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "DIR", description = "The checkpoint folder.")
    String dir;

    @Option(names = "--json", description = "Print a JSON document instead of text.")
    boolean json;

    @Override
    public Integer call() throws Exception {
        Path local = CliPaths.local(spec, "DIR", dir);
        // The built plugins too: the RocksDB store (a plugin) tells its partitions' rows.
        ClassLoader own = CheckpointShowCommand.class.getClassLoader();
        CheckpointReport report;
        try (PluginLoader plugins = Plugins.loader(null, Plugins.builtFolder(), own).orElse(null)) {
            report = CheckpointReader.read(local, plugins != null ? plugins : own);
        }
        PrintWriter out = spec.commandLine().getOut();
        out.print(json ? report.json() : report.text());
        out.flush();
        return 0;
    }
}
