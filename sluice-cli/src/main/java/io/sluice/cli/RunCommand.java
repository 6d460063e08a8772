package io.sluice.cli;

import io.sluice.api.InvalidOptionException;
import io.sluice.api.io.LocalPaths;
import io.sluice.api.io.Storages;
import io.sluice.api.types.StructType;
import io.sluice.core.DataStreamReader;
import io.sluice.core.DataStreamWriter;
import io.sluice.core.Sluice;
import io.sluice.metrics.MetricsExporter;
import io.sluice.metrics.SluiceServer;
import io.sluice.metrics.SluiceUi;
import io.sluice.core.StreamFrame;
import io.sluice.core.StreamingQuery;
import io.sluice.core.StreamingQueryException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * {@code sluice run [PIPELINE.yaml] [flags]}: checks every setting, starts the query, shows its progress, and
 * returns when it ends: by itself (availableNow, once: exit 0), on Ctrl-C (at a batch boundary, or interrupted
 * after {@value #STOP_GRACE_SECONDS} s, exiting within twice that: exit 130) or by
 * failing (exit 1).
 */
@Command(name = "run", sortOptions = false, usageHelpAutoWidth = true,
        description = {"Runs a pipeline: a source, optional transformations, a sink.",
                "Settings come from PIPELINE.yaml, flags, or both (flags win)."},
        footer = {"", "Example:",
                "  sluice run --source rate-micro-batch --source-option rowsPerBatch=1000 \\",
                "      --sink noop --checkpoint /tmp/chk --trigger availableNow",
                "See docs/cli.md for the pipeline file, the live view and every error."})
final class RunCommand implements Callable<Integer> {
    /** How long the command waits for the listener to show the last progress after the query ended. */
    static final long DRAIN_TIMEOUT_MS = 10_000;
    /** The engine's stop grace period: Ctrl-C ends the query within twice this (docs/cli.md, Ctrl-C). */
    static final long STOP_GRACE_SECONDS = 5;

    private final Env env;
    private final ErrorReporter reporter;

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", arity = "0..1", paramLabel = "PIPELINE.yaml",
            description = "A pipeline file (YAML); flags override its settings.")
    Path pipelineFile;

    @Option(names = "--source", paramLabel = "FORMAT", description = "The source format, e.g. rate-micro-batch.")
    String source;

    @Option(names = "--source-option", paramLabel = "KEY=VALUE", description = "A source option (repeatable).")
    List<String> sourceOptions = new ArrayList<>();

    @Option(names = "--schema", paramLabel = "DDL", description = "The source's schema, e.g. \"id long, name string\".")
    String schema;

    @Option(names = "--transform", paramLabel = "EXPR",
            description = "'where:<SQL condition>' or 'select:<expr>, <expr>...' (repeatable, applied in order; "
                    + "replaces the file's transforms).")
    List<String> transforms;

    @Option(names = "--sink", paramLabel = "FORMAT", description = "The sink format, e.g. noop.")
    String sink;

    @Option(names = "--sink-option", paramLabel = "KEY=VALUE", description = "A sink option (repeatable).")
    List<String> sinkOptions = new ArrayList<>();

    @Option(names = "--checkpoint", paramLabel = "DIR", description = "The checkpoint folder.")
    String checkpoint;

    @Option(names = "--trigger", paramLabel = "TRIGGER",
            description = "availableNow, once or processingTime=<interval>, like processingTime=30s; "
                    + "default: batches back to back.")
    String trigger;

    @Option(names = "--name", paramLabel = "NAME", description = "The query's name.")
    String name;

    @Option(names = "--output-mode", paramLabel = "MODE",
            description = "The output mode: append (the default), update or complete, as Spark's outputMode.")
    String outputMode;

    @Option(names = "--sql", paramLabel = "QUERY",
            description = "A SQL query over the stream, named source: \"SELECT ... FROM source [WHERE ...]\"; "
                    + "applied after any --transform and --watermark; GROUP BY with window(...) and aggregates.")
    String sql;

    @Option(names = "--watermark", paramLabel = "'COLUMN, DELAY'",
            description = "The event-time column and the delay, as Spark's withWatermark, e.g. "
                    + "'timestamp, 10 seconds'.")
    String watermark;

    @Option(names = "--progress-file", paramLabel = "FILE",
            description = "Append each batch's progress JSON to FILE, one line per batch.")
    String progressFile;

    @Option(names = "--conf", paramLabel = "KEY=VALUE",
            description = "An engine setting (repeatable), e.g. sluice.options.unknown=error.")
    List<String> conf = new ArrayList<>();

    @Option(names = "--plugins", paramLabel = "DIR", defaultValue = "${env:SLUICE_PLUGINS}",
            description = "A folder of jars with more sources, data sources and sinks (found through "
                    + "META-INF/services), besides the plugins/ folder beside sluice.jar (Parquet...); default: "
                    + "the SLUICE_PLUGINS environment variable.")
    String plugins;

    @Option(names = "--python", paramLabel = "FILE",
            description = "A .py file of Python data sources (PySpark's DataSource API; repeatable); every *.py "
                    + "file in --plugins DIR is read too. Needs python3 (3.9+), not PySpark.")
    List<String> python = new ArrayList<>();

    @Option(names = "--metrics-port", paramLabel = "PORT",
            description = "Serve Prometheus metrics (GET /metrics: the Prometheus text format, or OpenMetrics by the "
                    + "Accept header) and the REST API (/api/v1/) on PORT while the query runs (0: a free port, "
                    + "printed). Off by default.")
    Integer metricsPort;

    @Option(names = "--metrics-host", paramLabel = "HOST",
            description = "The address --metrics-port binds; default 127.0.0.1 (this machine only).")
    String metricsHost;

    @Option(names = "--ui-port", paramLabel = "PORT",
            description = "Serve the web UI of the queries at / on PORT while the query runs (with /metrics and "
                    + "/api/v1/; 0: a free port, printed). Off by default.")
    Integer uiPort;

    @Option(names = "--ui-host", paramLabel = "HOST",
            description = "The address --ui-port binds; default 127.0.0.1 (this machine only).")
    String uiHost;

    @Option(names = "--otlp-endpoint", paramLabel = "URL",
            description = "Push the metrics to an OpenTelemetry collector's OTLP/HTTP endpoint while the query runs, "
                    + "e.g. http://localhost:4318/v1/metrics (the plugin sluice-otlp-plugin.jar). Off by default.")
    String otlpEndpoint;

    @Option(names = "--otlp-step", paramLabel = "TIME",
            description = "How often --otlp-endpoint is pushed to, e.g. 30s; default 1m (and once at the end).")
    String otlpStep;

    @Option(names = "--otlp-header", paramLabel = "KEY=VALUE",
            description = "An HTTP header of every OTLP push, e.g. Authorization=Bearer... (repeatable).")
    List<String> otlpHeaders = new ArrayList<>();

    @Option(names = "--plain", description = "One plain line per batch, even on a terminal.")
    boolean plain;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help message and exit.")
    boolean help;

    RunCommand(Env env, ErrorReporter reporter) {
        this.env = env;
        this.reporter = reporter;
    }

    @Override
    public Integer call() throws Exception {
        Pipeline pipeline = resolve();
        return run(pipeline);
    }

    /** The pipeline file with the flags on top, every setting checked that can be checked without the engine. */
    Pipeline resolve() {
        // The flags first: a usage error is reported before a file is read.
        Map<String, String> srcOpts = keyValues("--source-option", sourceOptions);
        Map<String, String> sinkOpts = keyValues("--sink-option", sinkOptions);
        Map<String, String> confs = keyValues("--conf", conf);
        reporter.redactor(Redactor.of(srcOpts, sinkOpts));
        List<Transform> steps = null;
        if (transforms != null) {
            steps = new ArrayList<>();
            for (String t : transforms) {
                try {
                    steps.add(Transform.parse(t));
                } catch (SpecException e) {
                    throw usage("Invalid --transform '" + t + "': " + e.getMessage());
                }
            }
        }
        TriggerSpec trig = null;
        if (trigger != null) {
            try {
                trig = TriggerSpec.parse(trigger);
            } catch (SpecException e) {
                throw usage("Invalid --trigger '" + trigger + "': " + e.getMessage());
            }
        }
        if (schema != null) {
            try {
                StructType.checkUserSpecified(StructType.fromDDL(schema));
            } catch (IllegalArgumentException e) {
                throw usage("Invalid --schema '" + schema + "': " + ErrorReporter.oneLine(e));
            }
        }
        String mode = null;
        if (outputMode != null) {
            mode = outputMode(outputMode);
            if (mode == null) {
                throw usage("Invalid --output-mode '" + outputMode + "': " + OUTPUT_MODES);
            }
        }
        WatermarkSpec wm = null;
        if (watermark != null) {
            try {
                wm = WatermarkSpec.parse(watermark);
            } catch (SpecException e) {
                throw usage("Invalid --watermark '" + watermark + "': " + e.getMessage());
            }
        }
        if (sql != null && sql.isBlank()) {
            throw usage("Invalid --sql: the query is empty; give \"SELECT ... FROM source [WHERE ...]\"");
        }
        // Path flags: a scheme Sluice cannot write is refused before anything is created. A checkpoint on an
        // object store (s3a://...) is checked in run(), once the plugins' class loader is known.
        if (checkpoint != null && Storages.isLocal(checkpoint)) {
            localPath("--checkpoint", checkpoint);
        }
        if (progressFile != null) {
            localPath("--progress-file", progressFile);
        }
        if (plugins != null) {
            localPath("--plugins", plugins);
        }
        Serving serving = servingFlags();
        Pipeline flags = new Pipeline(name, source, srcOpts, schema, steps, sink, sinkOpts, checkpoint, trig,
                progressFile, confs, mode, sql, wm, serving);
        Pipeline fromFile = pipelineFile == null ? Pipeline.empty() : PipelineFile.read(pipelineFile);
        Pipeline merged = fromFile.overriddenBy(flags);
        Serving both = merged.serving();
        // A host or an OTLP setting given by a flag needs its port or endpoint from a flag or the file.
        if (metricsHost != null && both.metricsPort() == null) {
            throw usage("--metrics-host needs --metrics-port");
        }
        if (uiHost != null && both.uiPort() == null) {
            throw usage("--ui-host needs --ui-port");
        }
        if (otlpStep != null && both.otlpEndpoint() == null) {
            throw usage("--otlp-step needs --otlp-endpoint");
        }
        if (!otlpHeaders.isEmpty() && both.otlpEndpoint() == null) {
            throw usage("--otlp-header needs --otlp-endpoint");
        }
        reporter.redactor(merged.redactor());
        if (checkpoint == null && merged.checkpoint() != null && Storages.isLocal(merged.checkpoint())) {
            filePath("checkpoint", merged.checkpoint());
        }
        if (progressFile == null && merged.progressFile() != null) {
            filePath("progressFile", merged.progressFile());
        }
        if (merged.sourceFormat() == null) {
            throw usage("No source: give --source FORMAT, or source.format in the pipeline file");
        }
        if (merged.sinkFormat() == null) {
            throw usage("No sink: give --sink FORMAT, or sink.format in the pipeline file");
        }
        if (schema == null && merged.schema() != null) {
            try {
                StructType.checkUserSpecified(StructType.fromDDL(merged.schema()));
            } catch (IllegalArgumentException e) {
                throw new PipelineFileException(pipelineFile + ": invalid source.schema '" + merged.schema() + "': "
                        + ErrorReporter.oneLine(e));
            }
        }
        return merged;
    }

    /** The serving flags, checked: ports in range, headers as KEY=VALUE without a comma. */
    private Serving servingFlags() {
        if (metricsPort != null && (metricsPort < 0 || metricsPort > 65535)) {
            throw usage("Invalid --metrics-port " + metricsPort + ": expected 0 to 65535");
        }
        if (uiPort != null && (uiPort < 0 || uiPort > 65535)) {
            throw usage("Invalid --ui-port " + uiPort + ": expected 0 to 65535");
        }
        if (metricsHost != null && metricsPort == null && pipelineFile == null) {
            throw usage("--metrics-host needs --metrics-port");
        }
        if (uiHost != null && uiPort == null && pipelineFile == null) {
            throw usage("--ui-host needs --ui-port");
        }
        Map<String, String> headers = keyValues("--otlp-header", otlpHeaders);
        for (Map.Entry<String, String> h : headers.entrySet()) {
            if (h.getKey().contains(",") || h.getValue().contains(",")) {
                // Micrometer's otlp.headers is key1=value1,key2=value2; the value may be a secret: not repeated.
                throw usage("Invalid --otlp-header '" + h.getKey() + "=...': a header's name or value cannot "
                        + "contain ','");
            }
        }
        return new Serving(metricsPort, metricsHost, uiPort, uiHost, otlpEndpoint, otlpStep, headers);
    }

    /** A port 0 to 65535 as text, or null when it is not one. */
    static Integer port(String text) {
        try {
            int port = Integer.parseInt(text.strip());
            return port >= 0 && port <= 65535 ? port : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private int run(Pipeline p) throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Path builtPlugins = Plugins.builtFolder();
        PluginLoader pluginLoader = Plugins.loader(plugins == null ? null : localPath("--plugins", plugins),
                builtPlugins, RunCommand.class.getClassLoader()).orElse(null);
        ClassLoader loader = pluginLoader != null ? pluginLoader : RunCommand.class.getClassLoader();
        if (p.checkpoint() != null && !Storages.isLocal(p.checkpoint())) {
            // A store's scheme is accepted when a module on the class path or among the plugins serves it.
            try {
                Storages.check(checkpoint != null ? "--checkpoint" : "checkpoint", p.checkpoint(), loader);
            } catch (InvalidOptionException e) {
                if (checkpoint != null) {
                    throw usage(e.getMessage());
                }
                throw new PipelineFileException(pipelineFile + ": " + e.getMessage());
            }
        }
        Thread self = Thread.currentThread();
        ClassLoader previous = self.getContextClassLoader();
        // A format given as a provider's class name is loaded through the context class loader.
        self.setContextClassLoader(loader);
        ProgressFile progress = null;
        Sluice.Builder builder = Sluice.builder().classLoader(loader)
                .stopGracePeriod(Duration.ofSeconds(STOP_GRACE_SECONDS));
        p.conf().forEach(builder::config);
        if (plugins != null) {
            builder.dataSourceFiles(localPath("--plugins", plugins));
        }
        for (String file : python) {
            Path f = localPath("--python", file);
            if (!Files.isRegularFile(f)) {
                throw usage("--python " + file + ": no such file");
            }
            builder.dataSourceFiles(f);
        }
        Serving serve = p.serving();
        Integer metricsPort = serve.metricsPort();
        String metricsHost = serve.metricsHost();
        Integer uiPort = serve.uiPort();
        String uiHost = serve.uiHost();
        SluiceServer server = null;
        SluiceServer uiServer = null;
        AutoCloseable otlp = null;
        try (Sluice sluice = builder.build()) {
            if (uiPort != null) {
                String host = uiHost == null ? "127.0.0.1" : uiHost;
                try {
                    Redactor redactor = p.redactor();
                    uiServer = SluiceUi.start(sluice, host, uiPort, 100, redactor::text);
                } catch (java.io.UncheckedIOException e) {
                    throw new IllegalStateException("--ui-port " + uiPort + ": " + e.getMessage(), e);
                }
                String shown = uiServer.address().getAddress().getHostAddress();
                if (shown.contains(":")) {
                    shown = "[" + shown + "]";
                }
                out.println("ui: http://" + shown + ":" + uiServer.port() + "/");
                out.flush();
            }
            if (metricsPort != null) {
                String host = metricsHost == null ? "127.0.0.1" : metricsHost;
                try {
                    Redactor redactor = p.redactor();
                    server = SluiceServer.start(sluice, host, metricsPort, 100, redactor::text);
                } catch (java.io.UncheckedIOException e) {
                    throw new IllegalStateException("--metrics-port " + metricsPort + ": " + e.getMessage(), e);
                }
                String shown = server.address().getAddress().getHostAddress();
                if (shown.contains(":")) {
                    shown = "[" + shown + "]";
                }
                out.println("metrics: http://" + shown + ":" + server.port() + "/metrics, REST API: http://" + shown
                        + ":" + server.port() + "/api/v1/queries");
                out.flush();
            }
            if (serve.otlpEndpoint() != null) {
                otlp = startOtlp(sluice, loader, builtPlugins, serve);
                String step = serve.otlpStep() == null ? "1m" : serve.otlpStep();
                out.println("otlp: pushing to " + serve.otlpEndpoint() + " every " + step);
                out.flush();
            }
            DataStreamReader reader = sluice.readStream().format(p.sourceFormat()).options(p.sourceOptions());
            if (p.schema() != null) {
                reader.schema(p.schema());
            }
            StreamFrame frame = Transforms.apply(reader.load(), p.effectiveTransforms());
            if (p.watermark() != null) {
                frame = frame.withWatermark(p.watermark().column(), p.watermark().delay());
            }
            if (p.sql() != null) {
                frame = frame.sql(p.sql());
            }
            TriggerSpec trig = p.effectiveTrigger();
            DataStreamWriter writer = frame.writeStream().format(p.sinkFormat()).options(p.sinkOptions())
                    .trigger(trig.trigger());
            if (p.outputMode() != null) {
                writer.outputMode(p.outputMode());
            }
            if (p.name() != null) {
                writer.queryName(p.name());
            }
            if (p.checkpoint() != null) {
                writer.option("checkpointLocation", p.checkpoint());
            }
            if (p.progressFile() != null) {
                progress = ProgressFile.open(LocalPaths.of("progressFile", p.progressFile()),
                        p.redactor());
            }
            LiveView view = new LiveView(out, err, env.interactive() && !plain, env.columns(), trig.availableNow(),
                    progress, startedLine(p));
            sluice.addListener(view);
            StreamingQuery query = writer.start();

            AtomicBoolean interrupted = new AtomicBoolean();
            CountDownLatch finished = new CountDownLatch(1);
            Runnable uninstall = env.hooks().install(() -> {
                interrupted.set(true);
                // At a batch boundary if it comes within the grace period, else interrupted; bounded either way.
                query.stop();
                if (query.isActive()) {
                    err.println("sluice: the query did not stop within " + 2 * STOP_GRACE_SECONDS + " s (its "
                            + "source or sink ignores interrupts); exiting anyway: the batch in flight, if any, is "
                            + "re-run at the next start");
                    err.flush();
                    return;
                }
                try {
                    finished.await(DRAIN_TIMEOUT_MS, TimeUnit.MILLISECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            try {
                try {
                    query.awaitTermination();
                } catch (StreamingQueryException e) {
                    view.awaitTerminated(DRAIN_TIMEOUT_MS);
                    throw e;
                }
                view.awaitTerminated(DRAIN_TIMEOUT_MS);
                boolean stopped = interrupted.get() || !trig.finite();
                out.println((stopped ? "stopped: " : "finished: ") + count(view.batches(), "batch", "batches")
                        + ", " + count(view.rows(), "row", "rows"));
                out.flush();
                return interrupted.get() ? 130 : 0;
            } finally {
                finished.countDown();
                uninstall.run();
            }
        } catch (InvalidOptionException e) {
            throw withHint(e);
        } catch (IllegalArgumentException e) {
            // A format of a plugin the project builds but that is not there: say which jar to add.
            var advice = Plugins.advice(e.getMessage(), builtPlugins);
            if (advice.isPresent()) {
                throw new IllegalArgumentException(advice.get());
            }
            throw e;
        } finally {
            if (otlp != null) {
                // The last push: after the query ended, with its final counts.
                otlp.close();
            }
            if (server != null) {
                server.close();
            }
            if (uiServer != null) {
                uiServer.close();
            }
            self.setContextClassLoader(previous);
            if (progress != null) {
                progress.close();
            }
            if (pluginLoader != null) {
                pluginLoader.close();
            }
        }
    }

    /**
     * The OTLP export, from the plugin sluice-otlp-plugin.jar: found through ServiceLoader, so the CLI jar holds
     * none of its libraries. Missing: the plugins' advice; a bad setting: the engine's message, naming the flags.
     */
    static AutoCloseable startOtlp(Sluice sluice, ClassLoader loader, Path builtPlugins, Serving serve) {
        MetricsExporter exporter = otlpExporter(loader)
                .orElseThrow(() -> new IllegalArgumentException(Plugins.missing("sluice-otlp",
                        "The OTLP export (--otlp-endpoint, otlpEndpoint in the pipeline file)", builtPlugins)));
        Map<String, String> settings = new java.util.LinkedHashMap<>();
        settings.put("otlp.url", serve.otlpEndpoint());
        if (serve.otlpStep() != null) {
            settings.put("otlp.step", serve.otlpStep());
        }
        if (!serve.otlpHeaders().isEmpty()) {
            settings.put("otlp.headers", serve.otlpHeadersText());
        }
        try {
            return exporter.start(sluice, io.sluice.api.Options.of(settings));
        } catch (InvalidOptionException e) {
            throw new InvalidOptionException(e.option(), e.value(), "--otlp-endpoint, --otlp-step, --otlp-header "
                    + "(otlpEndpoint, otlpStep, otlpHeaders in the pipeline file): " + e.getMessage(), true);
        }
    }

    static java.util.Optional<MetricsExporter> otlpExporter(ClassLoader loader) {
        for (MetricsExporter e : java.util.ServiceLoader.load(MetricsExporter.class, loader)) {
            if ("otlp".equals(e.name())) {
                return java.util.Optional.of(e);
            }
        }
        return java.util.Optional.empty();
    }

    /** The engine words two errors for its Java API; on the command line, say which flag fixes them. */
    private static RuntimeException withHint(InvalidOptionException e) {
        if (e.value() == null && "checkpointLocation".equals(e.option())) {
            String sink = e.getMessage().replaceAll(".* for the '([^']*)' sink.*", "$1");
            return new InvalidOptionException(e.option(), null, "The '" + sink + "' sink needs a checkpoint "
                    + "folder, so the query can recover after a restart: give --checkpoint DIR (or checkpoint: in the "
                    + "pipeline file)", true);
        }
        if ("queryName".equals(e.option()) && !e.getMessage().contains("--name")) {
            return new InvalidOptionException(e.option(), e.value(), e.getMessage()
                    + ": give --name NAME (or name: in the pipeline file)", true);
        }
        return e;
    }

    /** {@code started query <id>: rate-micro-batch {rowsPerBatch=10} -> noop {}; trigger availableNow; ...}. */
    private static LiveView.Header startedLine(Pipeline p) {
        StringBuilder flow = new StringBuilder();
        flow.append(p.sourceFormat()).append(' ').append(Redactor.options(p.sourceOptions()));
        for (Transform t : p.effectiveTransforms()) {
            flow.append(" | ").append(t);
        }
        flow.append(" -> ").append(p.sinkFormat()).append(' ').append(Redactor.options(p.sinkOptions()));
        flow.append("; trigger ").append(p.effectiveTrigger());
        flow.append("; checkpoint ").append(p.checkpoint() != null ? p.checkpoint() : "temporary");
        String rest = flow.toString();
        return (id, queryName) -> "started query " + (queryName != null ? queryName + " (id " + id + ")" : id)
                + ": " + rest;
    }

    private static String count(long n, String one, String many) {
        return n + " " + (n == 1 ? one : many);
    }

    /** KEY=VALUE pairs in order; a later key replaces an earlier one, whatever its case. */
    private Map<String, String> keyValues(String flag, List<String> pairs) {
        OptionMapBuilder out = new OptionMapBuilder();
        for (String pair : pairs) {
            int eq = pair.indexOf('=');
            if (eq < 0) {
                throw usage("Invalid " + flag + " '" + Redactor.pairWithoutEquals(pair) + "': expected KEY=VALUE");
            }
            String key = pair.substring(0, eq).strip();
            if (key.isEmpty()) {
                throw usage("Invalid " + flag + ": the KEY of KEY=VALUE is empty");
            }
            out.put(key, pair.substring(eq + 1));
        }
        return out.build();
    }

    /** The local path a path flag names; another scheme is a usage error (exit 2). */
    private Path localPath(String flag, String value) {
        return CliPaths.local(spec, flag, value);
    }

    /** The same check for a path the pipeline file gives: a pipeline file error (exit 1). */
    private void filePath(String key, String value) {
        try {
            LocalPaths.of(key, value);
        } catch (InvalidOptionException e) {
            throw new PipelineFileException(pipelineFile + ": " + e.getMessage());
        }
    }

    private ParameterException usage(String message) {
        return new ParameterException(spec.commandLine(), message);
    }

    /** What {@code --output-mode} and a pipeline file's {@code outputMode} accept. */
    static final String OUTPUT_MODES = "append, update or complete is accepted";

    /** The output mode in lower case, or null when it is none of append, update and complete. */
    static String outputMode(String value) {
        String m = value.strip().toLowerCase(java.util.Locale.ROOT);
        return List.of("append", "update", "complete").contains(m) ? m : null;
    }
}
