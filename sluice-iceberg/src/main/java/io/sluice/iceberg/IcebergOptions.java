package io.sluice.iceberg;

import io.sluice.api.InvalidOptionException;
import io.sluice.api.OptionDef;
import io.sluice.api.OptionSet;

/** Every option of the Iceberg source and sink, declared once. */
final class IcebergOptions {
    static final String PATH = "path";
    static final String TABLE = "table";
    static final String CATALOG = "catalog";
    static final String CATALOG_PREFIX = "catalog.";
    static final String STREAM_FROM_TIMESTAMP = "stream-from-timestamp";
    static final String MAX_FILES = "streaming-max-files-per-micro-batch";
    static final String MAX_ROWS = "streaming-max-rows-per-micro-batch";
    static final String SKIP_DELETE = "streaming-skip-delete-snapshots";
    static final String SKIP_OVERWRITE = "streaming-skip-overwrite-snapshots";
    static final String PARTITION_BY = "partitionBy";
    /** Storage settings for a catalog whose warehouse is on an object store ({@code fs.s3a.endpoint}...). */
    static final String STORAGE_PREFIX = "fs.";

    private static final OptionDef.Validator POSITIVE = (name, value) -> {
        if (Long.parseLong(value.trim()) < 1) {
            throw new InvalidOptionException(name, value, "a positive whole number is accepted");
        }
    };

    private static final OptionDef[] TABLE_OPTIONS = {
        OptionDef.string(PATH, "the table's location, loaded as a Hadoop table (HadoopTables), as Spark's "
                + "load(path); or give table and the catalog options"),
        OptionDef.string(TABLE, "the table's identifier in the catalog (namespace.table), with the catalog.* "
                + "options; set by readStream().table(name) / toTable(name)"),
        OptionDef.string(CATALOG, "the catalog's name (as in spark.sql.catalog.<name>)").withDefault("iceberg"),
    };

    static final OptionSet SOURCE = OptionSet.of(
            TABLE_OPTIONS[0], TABLE_OPTIONS[1], TABLE_OPTIONS[2],
            OptionDef.of(STREAM_FROM_TIMESTAMP, OptionDef.Type.LONG, "start at the oldest snapshot committed at or "
                    + "after this time (milliseconds since the epoch); ignored on restart").withDefaultText("none"),
            OptionDef.of(MAX_FILES, OptionDef.Type.INT, "at most this many data files per micro-batch")
                    .withDefault(Integer.toString(Integer.MAX_VALUE)).validatedBy(POSITIVE),
            OptionDef.of(MAX_ROWS, OptionDef.Type.INT, "about this many rows per micro-batch (soft: whole "
                    + "files, at least one)").withDefault(Integer.toString(Integer.MAX_VALUE)).validatedBy(POSITIVE),
            OptionDef.bool(SKIP_DELETE, false, "skip delete snapshots instead of failing the stream"),
            OptionDef.bool(SKIP_OVERWRITE, false, "skip overwrite snapshots instead of failing the stream"))
            .withPrefixes(CATALOG_PREFIX, STORAGE_PREFIX, "spark.hadoop.");

    static final OptionSet SINK = OptionSet.of(
            TABLE_OPTIONS[0], TABLE_OPTIONS[1], TABLE_OPTIONS[2],
            OptionDef.string(PARTITION_BY, "identity partition columns of a table the sink creates, as "
                    + "partitionBy(..)"))
            .withPrefixes(CATALOG_PREFIX, STORAGE_PREFIX, "spark.hadoop.");

    private IcebergOptions() {
    }
}
