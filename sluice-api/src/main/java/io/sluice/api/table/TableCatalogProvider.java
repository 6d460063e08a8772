package io.sluice.api.table;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Resolves table names of the catalogs configured with one implementation, to the source or sink that reads or
 * writes the table. A catalog is configured on the engine as Spark configures one:
 * {@code Sluice.builder().config("spark.sql.catalog.lake", "org.apache.iceberg.spark.SparkCatalog")
 * .config("spark.sql.catalog.lake.type", "hadoop").config("spark.sql.catalog.lake.warehouse", "/data/wh")}; the
 * engine picks the provider whose {@link #handles} accepts the implementation ({@code org.apache.iceberg...}) and
 * hands it the catalog's name, its properties (the {@code spark.sql.catalog.lake.} entries, prefix removed) and the
 * identifier after the catalog name.
 *
 * <p>Providers are found with {@link java.util.ServiceLoader}: list the class in
 * {@code META-INF/services/io.sluice.api.table.TableCatalogProvider}. One instance serves every query and thread
 * of an engine: it must be stateless and thread-safe, and it is asked again for every name it resolves (a table
 * created since is then found).
 */
public interface TableCatalogProvider {

    /**
     * True when this provider serves catalogs configured with this implementation (the value of
     * {@code spark.sql.catalog.<name>}, as given), e.g. {@code org.apache.iceberg.spark.SparkCatalog}.
     */
    boolean handles(String implementation);

    /**
     * Resolves one table of a catalog.
     *
     * @param catalog    the catalog's name (the {@code <name>} of {@code spark.sql.catalog.<name>})
     * @param properties the catalog's properties: every {@code spark.sql.catalog.<name>.<property>} entry, keyed by
     *                   {@code <property>} as given
     * @param identifier the table's name within the catalog, one element per part (namespace parts, then the table's
     *                   own name), back-quotes removed: {@code lake.db.events} in catalog {@code lake} is
     *                   {@code [db, events]}; never empty
     * @param write      true for a sink ({@code toTable}): a missing table is then resolved too, to a sink that
     *                   creates it with the stream's schema, when the catalog can create tables
     * @return the source or sink and its options; empty when the table does not exist (and, for a write, cannot be
     *         created), which the engine reports as Spark's {@code TABLE_OR_VIEW_NOT_FOUND}
     * @throws IllegalArgumentException for bad catalog properties or an identifier the catalog cannot hold, with a
     *                                  message naming the property or the identifier
     */
    Optional<ResolvedTable> resolve(String catalog, Map<String, String> properties, List<String> identifier,
                                    boolean write);

    /**
     * {@link #resolve(String, Map, List, boolean)}, with the engine's whole configuration
     * ({@code Sluice.builder().config}, keys as given) for a provider that must look at storage to tell whether a
     * table exists, e.g. a warehouse on an object store configured by the engine's {@code fs.s3a.*} entries (see
     * {@link io.sluice.api.io.Storages#conf}). The engine calls this one; the default ignores {@code engineConfig}.
     */
    default Optional<ResolvedTable> resolve(String catalog, Map<String, String> properties, List<String> identifier,
                                            boolean write, Map<String, String> engineConfig) {
        return resolve(catalog, properties, identifier, write);
    }

    /**
     * Where a table name leads: the {@code format(..)} of a source or sink, and the options that point it at the
     * table. The engine adds the user's own reader or writer options to these; these win on a clash.
     *
     * @param format  a source's or sink's short name, e.g. {@code iceberg}
     * @param options the options naming the table for that source or sink
     */
    record ResolvedTable(String format, Map<String, String> options) {
        public ResolvedTable {
            if (format == null || format.isBlank()) {
                throw new IllegalArgumentException("A resolved table needs a format");
            }
            options = Map.copyOf(options);
        }
    }
}
