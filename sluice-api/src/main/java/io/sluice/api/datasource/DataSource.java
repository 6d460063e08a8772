package io.sluice.api.datasource;

import io.sluice.api.OptionSet;
import io.sluice.api.Options;
import io.sluice.api.types.StructType;

/**
 * A custom source written against the high-level API, the Java twin of PySpark's {@code DataSource}: a name, a
 * schema and a reader. Simpler than the low-level {@link io.sluice.api.source.SourceProvider}: offsets are plain
 * values (records, maps, numbers...) that the engine writes to the offset log as JSON (the rules:
 * {@link DataSourceStreamReader}), and a partition's rows are an iterator.
 *
 * <p>Register it with {@code Sluice.registerDataSource(new MySource())}, or list the class in
 * {@code META-INF/services/io.sluice.api.datasource.DataSource} (public no-argument constructor) so a jar on the
 * classpath or in the CLI's plugins folder is found by {@link #name()}. One instance serves every query of a
 * {@code Sluice}, from several threads: keep it stateless and build per-run state in the readers.
 *
 * <p>Every engine feature applies unchanged: checkpoint and recovery, triggers, read limits, availableNow,
 * progress. The engine checks what a reader returns and fails the query with a
 * {@link SourceContractException} naming the source when an offset does not round-trip through JSON, goes
 * backwards, or a partition cannot be serialized.
 */
public interface DataSource {

    /** The name users pass to {@code format(..)}; compared case-insensitively. */
    String name();

    /**
     * The options this source takes, declared once; the engine checks given option names against them as for a
     * {@code SourceProvider} (see {@code SourceProvider.options()}). The default, {@link OptionSet#undeclared()},
     * makes no check at all.
     */
    default OptionSet options() {
        return OptionSet.undeclared();
    }

    /**
     * The schema in Spark's DDL, e.g. {@code "seq bigint, account string"}. Override this or {@link #schema}.
     * Called by {@code load()}: throw {@link io.sluice.api.InvalidOptionException} here for a bad option.
     */
    default String schemaDdl(Options options) {
        throw new UnsupportedOperationException("Data source '" + name() + "' must override schema(options) or "
                + "schemaDdl(options)");
    }

    /**
     * The schema of the rows this source produces for these options; by default {@link #schemaDdl} parsed. Called
     * once by {@code load()}, before any query starts: every option error must be thrown here. A schema the user
     * gives with {@code schema(..)} takes the place of this one, as in PySpark.
     */
    default StructType schema(Options options) {
        return StructType.fromDDL(schemaDdl(options));
    }

    /**
     * A partitioned stream reader for one run of one query, or null when this source only has a
     * {@link #simpleStreamReader}. Called once per query start.
     */
    default DataSourceStreamReader<?> streamReader(DataSourceContext context) {
        return null;
    }

    /**
     * A stream reader without partitioning, for small sources; used when {@link #streamReader} returns null.
     */
    default SimpleDataSourceStreamReader<?> simpleStreamReader(DataSourceContext context) {
        return null;
    }

    /**
     * A batch reader for one-off reads ({@code Sluice.read()}), or null: a one-off read then uses the stream
     * reader from its initial offset to everything available.
     */
    default DataSourceReader reader(DataSourceContext context) {
        return null;
    }
}
