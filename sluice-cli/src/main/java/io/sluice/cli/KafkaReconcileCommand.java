package io.sluice.cli;

import io.sluice.api.Row;
import io.sluice.core.DataStreamReader;
import io.sluice.api.types.AtomicType;
import io.sluice.core.Functions;
import io.sluice.core.Sluice;
import io.sluice.core.StreamFrame;
import io.sluice.kafka.KafkaCalls;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;

/**
 * {@code sluice kafka reconcile}: counts the records Kafka holds for a time window (record timestamps in
 * {@code [from, to)}), per partition, with a bounded read of the Kafka source; with {@code --expected} compares
 * the total with what a sink reported writing, with {@code --table} with the rows of a table whose time column is in
 * the same window (a bounded read of the table's format, through the engine's generic {@code read()}: the format
 * comes from a plugin, named by {@code --table-format} or by the table's catalog). Exit 0 when equal (or nothing to
 * compare), 1 on a mismatch or a topic that does not exist.
 */
@Command(name = "reconcile", mixinStandardHelpOptions = true,
        description = "Counts the records of topics in a time window [from, to) and compares with an expected count.")
final class KafkaReconcileCommand implements Callable<Integer> {
    private static final String API_TIMEOUT = "kafka.default.api.timeout.ms";

    @Spec
    CommandSpec spec;

    @Option(names = "--bootstrap-servers", required = true, paramLabel = "HOST:PORT",
            description = "The brokers (kafka.bootstrap.servers).")
    String bootstrap;

    @Option(names = "--topic", required = true, paramLabel = "TOPICS", description = "A topic or a comma list.")
    String topics;

    @Option(names = "--from", paramLabel = "TIME",
            description = "Window start (inclusive): epoch milliseconds or an ISO-8601 instant. Default: the beginning.")
    String from;

    @Option(names = "--to", paramLabel = "TIME",
            description = "Window end (exclusive): epoch milliseconds or an ISO-8601 instant. Default: now (latest).")
    String to;

    @Option(names = "--expected", paramLabel = "COUNT", description = "The count to compare with, e.g. rows a sink wrote.")
    Long expected;

    @Option(names = "--table", paramLabel = "PATH_OR_NAME",
            description = "A table to compare with: its rows whose --table-time-column is in the window are counted. "
                    + "A path (or the format's load() argument) with --table-format; without it, a table name "
                    + "resolved through the catalogs of --conf (spark.sql.catalog.<name>=...).")
    String table;

    @Option(names = "--table-format", paramLabel = "FORMAT",
            description = "The table's format (delta, iceberg, ...), served by a plugin.")
    String tableFormat;

    @Option(names = "--table-time-column", paramLabel = "COLUMN",
            description = "The table's timestamp column the window applies to (required with --table).")
    String tableTimeColumn;

    @Option(names = "--table-option", paramLabel = "KEY=VALUE",
            description = "An option of the table's bounded read (repeatable).")
    Map<String, String> tableOptions = new LinkedHashMap<>();

    @Option(names = "--conf", paramLabel = "KEY=VALUE",
            description = "An engine setting for the table's read, e.g. spark.sql.catalog.lake=... (repeatable).")
    Map<String, String> conf = new LinkedHashMap<>();

    @Option(names = "--plugins", paramLabel = "DIR", defaultValue = "${env:SLUICE_PLUGINS}",
            description = "A folder of plugin jars (as for sluice run), besides the plugins/ folder beside sluice.jar "
                    + "(Delta, Iceberg...); default: $SLUICE_PLUGINS.")
    String plugins;

    @Option(names = "--option", paramLabel = "KEY=VALUE",
            description = "A Kafka source option, e.g. kafka.security.protocol=SSL (repeatable). "
                    + "kafka.isolation.level defaults to read_committed.")
    Map<String, String> options = new LinkedHashMap<>();

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        if (table != null && expected != null) {
            throw new ParameterException(spec.commandLine(), "--expected and --table are two ways to give what "
                    + "Kafka's count is compared with: give one of them");
        }
        if (table != null && tableTimeColumn == null) {
            throw new ParameterException(spec.commandLine(), "--table needs --table-time-column, the table's "
                    + "timestamp column the window [--from, --to) applies to");
        }
        if (table == null && (tableFormat != null || tableTimeColumn != null || !tableOptions.isEmpty())) {
            throw new ParameterException(spec.commandLine(), "--table-format, --table-time-column and "
                    + "--table-option describe the table of --table, which is missing");
        }
        Long fromMs = from == null ? null : time("--from", from);
        Long toMs = to == null ? null : time("--to", to);
        List<String> names = Arrays.stream(topics.split(",")).map(String::trim).filter(t -> !t.isEmpty()).toList();
        // A missing topic would count as 0 records (the source reads topics that do not exist yet as empty).
        try (TopicAdmin admin = new TopicAdmin(new KafkaCalls.Target(bootstrap, "--bootstrap-servers",
                apiTimeoutMs(), API_TIMEOUT), options)) {
            admin.requireExists(names);
        }
        try (Sluice sluice = Sluice.local()) {
            DataStreamReader r = sluice.read().format("kafka").option("kafka.bootstrap.servers", bootstrap)
                    .option("subscribe", topics).option("kafka.isolation.level", "read_committed");
            options.forEach(r::option);
            if (fromMs != null) {
                r.option("startingTimestamp", fromMs.toString()).option("startingOffsetsByTimestampStrategy", "latest");
            }
            if (toMs != null) {
                r.option("endingTimestamp", toMs.toString());
            }
            // Counted as the records are read: memory grows with the partitions, not with the window.
            Map<Row, Long> counts = r.load().countBy("topic", "partition");
            Map<String, Long> perPartition = new TreeMap<>();
            counts.forEach((key, n) -> perPartition.put(key.getString(0) + "-" + key.getInt(1), n));
            String window = "[" + (fromMs == null ? "beginning" : Instant.ofEpochMilli(fromMs).toString()) + ", "
                    + (toMs == null ? "latest" : Instant.ofEpochMilli(toMs).toString()) + ")";
            out.println("Records in " + topics + " with timestamps in " + window + ":");
            perPartition.forEach((tp, n) -> out.println("  " + tp + ": " + n));
            long total = counts.values().stream().mapToLong(Long::longValue).sum();
            out.println("  total: " + total);
            if (table != null) {
                long rows = tableCount(fromMs, toMs);
                out.println("Rows in table " + table + " with " + tableTimeColumn + " in " + window + ": " + rows);
                if (rows == total) {
                    out.println("MATCH: Kafka holds " + total + " records and the table " + rows + " rows.");
                    return 0;
                }
                out.println("MISMATCH: Kafka holds " + total + " records, the table " + rows + " rows (difference "
                        + (total - rows) + ").");
                return 1;
            }
            if (expected == null) {
                return 0;
            }
            if (expected == total) {
                out.println("MATCH: Kafka holds " + total + " records, as expected.");
                return 0;
            }
            out.println("MISMATCH: Kafka holds " + total + " records, expected " + expected + " (difference "
                    + (total - expected) + ").");
            return 1;
        }
    }

    /**
     * The table's rows whose time column is in {@code [fromMs, toMs)} (an open end is unbounded), with a bounded
     * read in an engine that sees the plugins (the table's format is found by name, never by class here).
     */
    private long tableCount(Long fromMs, Long toMs) throws Exception {
        PluginLoader pluginLoader = Plugins.loader(plugins == null ? null : Path.of(plugins), Plugins.builtFolder(),
                KafkaReconcileCommand.class.getClassLoader()).orElse(null);
        ClassLoader loader = pluginLoader != null ? pluginLoader : KafkaReconcileCommand.class.getClassLoader();
        Thread self = Thread.currentThread();
        ClassLoader previous = self.getContextClassLoader();
        self.setContextClassLoader(loader);
        Sluice.Builder builder = Sluice.builder().classLoader(loader);
        conf.forEach(builder::config);
        try (Sluice sluice = builder.build()) {
            DataStreamReader r = sluice.read();
            tableOptions.forEach(r::option);
            StreamFrame frame = tableFormat != null ? r.format(tableFormat).load(table) : r.table(table);
            int idx = frame.schema().indexOf(tableTimeColumn);
            if (idx < 0) {
                throw new IllegalArgumentException("--table-time-column " + tableTimeColumn + ": the table " + table
                        + " has no such column (its columns: " + frame.schema().toDDL() + ")");
            }
            if (frame.schema().field(idx).dataType() != AtomicType.TIMESTAMP_TYPE) {
                throw new IllegalArgumentException("--table-time-column " + tableTimeColumn + ": the column is "
                        + frame.schema().field(idx).dataType().simpleString() + ", not a timestamp");
            }
            if (fromMs != null) {
                frame = frame.where(Functions.col(tableTimeColumn).geq(Functions.lit(Instant.ofEpochMilli(fromMs))));
            }
            if (toMs != null) {
                frame = frame.where(Functions.col(tableTimeColumn).lt(Functions.lit(Instant.ofEpochMilli(toMs))));
            }
            return frame.count();
        } finally {
            self.setContextClassLoader(previous);
            if (pluginLoader != null) {
                pluginLoader.close();
            }
        }
    }

    /** The source's bound on a Kafka call, {@code kafka.default.api.timeout.ms} of --option, else 30 s. */
    private long apiTimeoutMs() {
        String v = options.entrySet().stream().filter(e -> e.getKey().equalsIgnoreCase(API_TIMEOUT))
                .map(Map.Entry::getValue).findFirst().orElse(null);
        try {
            long ms = v == null ? KafkaCalls.DEFAULT_TIMEOUT_MS : Long.parseLong(v.trim());
            if (ms > 0 && ms <= Integer.MAX_VALUE) {
                return ms;
            }
        } catch (NumberFormatException e) {
            // below
        }
        throw new ParameterException(spec.commandLine(), "Invalid value '" + v + "' for option '" + API_TIMEOUT
                + "': a time-out in milliseconds from 1 to " + Integer.MAX_VALUE + " is accepted");
    }

    private long time(String flag, String value) {
        String v = value.trim();
        try {
            return Long.parseLong(v);
        } catch (NumberFormatException e) {
            try {
                return Instant.parse(v).toEpochMilli();
            } catch (DateTimeParseException e2) {
                throw new ParameterException(spec.commandLine(), "Invalid value '" + value + "' for option '" + flag
                        + "': epoch milliseconds or an ISO-8601 instant (e.g. 2024-05-01T00:00:00Z) is accepted");
            }
        }
    }
}
