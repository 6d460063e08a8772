package io.sluice.core;

import io.sluice.api.Options;
import io.sluice.api.source.SourceProvider;
import io.sluice.api.types.StructType;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Describes a source, as Spark's {@code DataStreamReader} (from {@link Sluice#readStream()}) or
 * {@code DataFrameReader} (from {@link Sluice#read()}): {@code format(..)}, {@code option(..)}, {@code schema(..)},
 * then {@link #load()}. Option keys are case-insensitive. Not thread-safe; a builder.
 */
public final class DataStreamReader {
    private final Sluice sluice;
    private final boolean bounded;
    private String format;
    private final Map<String, String> options = new LinkedHashMap<>();
    private StructType schema;

    DataStreamReader(Sluice sluice) {
        this(sluice, false);
    }

    /** @param bounded true for {@link Sluice#read()}: the frame is a one-off read of what is available now */
    DataStreamReader(Sluice sluice, boolean bounded) {
        this.sluice = sluice;
        this.bounded = bounded;
    }

    public DataStreamReader format(String format) {
        this.format = format;
        return this;
    }

    public DataStreamReader option(String key, String value) {
        options.keySet().removeIf(k -> k.equalsIgnoreCase(key));
        options.put(key, value);
        return this;
    }

    public DataStreamReader option(String key, long value) {
        return option(key, Long.toString(value));
    }

    public DataStreamReader option(String key, double value) {
        return option(key, Double.toString(value));
    }

    public DataStreamReader option(String key, boolean value) {
        return option(key, Boolean.toString(value));
    }

    public DataStreamReader options(Map<String, String> more) {
        more.forEach(this::option);
        return this;
    }

    /**
     * The schema the source reads with.
     *
     * @throws IllegalArgumentException for an empty schema or duplicate column names
     *                                  ({@link StructType#checkUserSpecified(StructType)})
     */
    public DataStreamReader schema(StructType schema) {
        this.schema = StructType.checkUserSpecified(schema);
        return this;
    }

    /**
     * The schema in DDL form, e.g. {@code "seq long, account string, amount long"}.
     *
     * @throws IllegalArgumentException for DDL that does not parse, a blank one (the empty schema) or duplicate
     *                                  column names ({@link StructType#checkUserSpecified(StructType)})
     */
    public DataStreamReader schema(String ddl) {
        return schema(StructType.fromDDL(ddl));
    }

    /**
     * Finds the source by its format, checks the option names against the source's declarations
     * ({@code SourceProvider.options()}: a misspelt name fails, another unknown one is warned about, or fails under
     * {@code sluice.options.unknown=error}), validates the options and resolves the schema. Every error about the
     * source's options is thrown here, before any query starts.
     *
     * <p>A source that declares the option prefix {@code fs.} (the file source: its path's object store takes
     * Hadoop S3A's {@code fs.s3a.*} settings) also gets the engine's storage settings ({@link Sluice.Builder#config}
     * entries whose key starts with {@code fs.}, or {@code spark.hadoop.fs.} with that prefix dropped), as Spark
     * builds a source's Hadoop configuration from the session's: an option given to the source wins.
     *
     * @throws IllegalArgumentException for an unknown format, a bad option (an
     *                                  {@link io.sluice.api.InvalidOptionException}) or a schema the source refuses
     */
    public StreamFrame load() {
        SourceProvider provider = sluice.providers().source(format);
        Options opts = Options.of(options);
        sluice.unknownOptions().check("source", provider.shortName(), provider.options(), opts);
        opts = withEngineStorageConf(provider, opts, sluice.config());
        StructType resolved = provider.resolveSchema(opts, Optional.ofNullable(schema), bounded);
        return new StreamFrame(sluice, new SourceSpec(provider, opts, resolved), bounded);
    }

    /**
     * Loads a table by name, as Spark's {@code readStream().table(name)} / {@code read().table(name)}: the name
     * ({@code catalog.namespace.table}, parts in back-quotes when they hold dots) is resolved through the catalogs
     * configured on the engine ({@code spark.sql.catalog.<name>}, see {@link Sluice.Builder#config}) to a source
     * and the options that point it at the table; the options given here are added (the table's win on a clash),
     * then {@link #load()}. A format given with {@link #format} is replaced by the table's.
     *
     * @throws IllegalArgumentException for a name that does not parse, an unknown catalog, a catalog no module
     *                                  serves, a table that does not exist (Spark's {@code TABLE_OR_VIEW_NOT_FOUND}),
     *                                  or any error of {@link #load()}
     */
    public StreamFrame table(String tableName) {
        io.sluice.api.table.TableCatalogProvider.ResolvedTable t = sluice.tableNames().resolve(tableName, false);
        format(t.format());
        t.options().forEach(this::option);
        return load();
    }

    /** {@code option("path", path).load()}. */
    public StreamFrame load(String path) {
        return option("path", path).load();
    }

    /**
     * The options with the engine's {@code fs.*} settings under them, for a source that declares the prefix
     * {@code fs.}; the options as given for any other.
     */
    static Options withEngineStorageConf(SourceProvider provider, Options options, Map<String, String> engine) {
        if (!provider.options().declared() || !provider.options().prefixes().contains("fs.")) {
            return options;
        }
        // As Storages.conf builds the checkpoint's: a later engine entry wins over an earlier one of the same key.
        Map<String, String> fs = new java.util.TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        for (Map.Entry<String, String> e : engine.entrySet()) {
            String k = e.getKey();
            if (k.regionMatches(true, 0, SPARK_HADOOP, 0, SPARK_HADOOP.length())) {
                k = k.substring(SPARK_HADOOP.length());
            }
            if (k.regionMatches(true, 0, "fs.", 0, 3)) {
                fs.remove(k);
                fs.put(k, e.getValue());
            }
        }
        Options out = options;
        for (Map.Entry<String, String> e : fs.entrySet()) {
            if (!options.contains(e.getKey()) && !options.contains(SPARK_HADOOP + e.getKey())) {
                out = out.with(e.getKey(), e.getValue());
            }
        }
        return out;
    }

    private static final String SPARK_HADOOP = "spark.hadoop.";

    /** A resolved source: which provider, with which options, producing which schema. */
    record SourceSpec(SourceProvider provider, Options options, StructType schema) {
    }
}
