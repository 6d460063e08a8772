package io.sluice.spark;

import io.sluice.api.InvalidOptionException;
import io.sluice.api.Options;
import io.sluice.api.source.SourceProvider;
import org.apache.spark.sql.connector.catalog.Table;
import org.apache.spark.sql.connector.catalog.TableProvider;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.sources.DataSourceRegister;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Any Sluice source as a Spark 4.2 DataSource V2 source:
 * {@code spark.readStream().format("sluice").option("sluice.source", "rate-micro-batch").option(...).load()}, or
 * {@code spark.read()} for a one-off read. Every other option goes to the Sluice source unchanged; the source's
 * option checks and messages apply when Spark resolves the schema ({@code load()}).
 *
 * <p>Registered with Spark's {@code DataSourceRegister} under {@code "sluice"}. Spark finds a format by a
 * registered short name or a class name, and makes the class with its no-argument constructor, so a name such as
 * {@code sluice-rate-micro-batch} needs one registered class per source: {@link BuiltInSources} has those of the
 * built-in sources, and a connector may add its own with a subclass that calls {@link #SluiceSparkSource(String)}.
 *
 * <p>Streams: Spark's checkpoint replaces Sluice's; a source's private state lives in the folder Spark gives it
 * ({@code <checkpoint>/sources/<n>}), which must be on a local or mounted file system. Executors rebuild the
 * source's stream from its provider (found by name with ServiceLoader) to read partitions: see
 * docs/scaling-out-with-spark.md for the rules a source follows.
 */
public class SluiceSparkSource implements TableProvider, DataSourceRegister {
    /** The option naming the Sluice source, for {@code format("sluice")}. */
    public static final String SOURCE_OPTION = "sluice.source";

    private final String fixedSource;
    /**
     * The schema {@link #inferSchema} returned last. Spark makes a provider instance per lookup and, without a user
     * schema, passes exactly this object to {@link #getTable}: it is then the source's own schema, not a user's
     * (a source such as Kafka refuses any user schema, also an equal one, as Spark's does).
     */
    private volatile StructType inferred;

    /** The generic source, {@code format("sluice")}: the Sluice source is named by {@link #SOURCE_OPTION}. */
    public SluiceSparkSource() {
        this.fixedSource = null;
    }

    /**
     * A source registered as {@code sluice-<sluiceSource>}; the {@link #SOURCE_OPTION} option is then not needed
     * (and refused when it names another source).
     */
    protected SluiceSparkSource(String sluiceSource) {
        if (sluiceSource == null || sluiceSource.isBlank()) {
            throw new IllegalArgumentException("A Sluice source name must not be empty");
        }
        this.fixedSource = sluiceSource;
    }

    @Override
    public String shortName() {
        return fixedSource == null ? "sluice" : "sluice-" + fixedSource;
    }

    @Override
    public boolean supportsExternalMetadata() {
        return true;
    }

    @Override
    public StructType inferSchema(CaseInsensitiveStringMap options) {
        String source = source(options.asCaseSensitiveMap());
        Map<String, String> sluiceOptions = sluiceOptions(options.asCaseSensitiveMap());
        SourceProvider provider = SourceProviders.find(source);
        StructType schema = SparkTypes.toSpark(provider.resolveSchema(Options.of(sluiceOptions), Optional.empty()));
        inferred = schema;
        return schema;
    }

    @Override
    public Table getTable(StructType schema, Transform[] partitioning, Map<String, String> properties) {
        String source = source(properties);
        Map<String, String> sluiceOptions = sluiceOptions(properties);
        SourceProvider provider = SourceProviders.find(source);
        Optional<io.sluice.api.types.StructType> given = schema == null || schema == inferred ? Optional.empty()
                : Optional.of(SparkTypes.toSluice(schema));
        io.sluice.api.types.StructType resolved = provider.resolveSchema(Options.of(sluiceOptions), given);
        return new SluiceTable(provider, provider.shortName(), sluiceOptions, SparkTypes.toSpark(resolved));
    }

    private String source(Map<String, String> options) {
        String given = Options.of(options).get(SOURCE_OPTION).map(String::trim).orElse(null);
        if (fixedSource != null) {
            if (given != null && !given.equalsIgnoreCase(fixedSource)) {
                throw new InvalidOptionException(SOURCE_OPTION, given, "format '" + shortName() + "' reads the "
                        + "Sluice source '" + fixedSource + "': leave the option out, or use format(\"sluice\")");
            }
            return fixedSource;
        }
        if (given == null || given.isEmpty()) {
            throw new InvalidOptionException(SOURCE_OPTION, given, "name the Sluice source to read, e.g. "
                    + "option(\"" + SOURCE_OPTION + "\", \"rate-micro-batch\"). Available: "
                    + SourceProviders.available());
        }
        return given;
    }

    /** The user's options without {@link #SOURCE_OPTION}, in their order and spelling. */
    private static Map<String, String> sluiceOptions(Map<String, String> options) {
        Map<String, String> out = new LinkedHashMap<>(options);
        out.keySet().removeIf(k -> k.equalsIgnoreCase(SOURCE_OPTION));
        return out;
    }
}
