package io.sluice.iceberg;

import io.sluice.api.Options;
import io.sluice.api.table.TableCatalogProvider;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Table names in catalogs configured as iceberg-spark's: {@code spark.sql.catalog.<name>} =
 * {@code org.apache.iceberg.spark.SparkCatalog} (or {@code SparkSessionCatalog}), with the catalog's properties
 * ({@code type}, {@code warehouse}, {@code uri}, {@code jdbc.*}...) as {@code spark.sql.catalog.<name>.<property>}.
 * A name resolves to {@code format("iceberg")} with {@code table} and the {@code catalog.*} options.
 */
public final class IcebergCatalogProvider implements TableCatalogProvider {
    private static final Set<String> IMPLEMENTATIONS = Set.of("org.apache.iceberg.spark.SparkCatalog",
            "org.apache.iceberg.spark.SparkSessionCatalog");

    @Override
    public boolean handles(String implementation) {
        return IMPLEMENTATIONS.contains(implementation);
    }

    @Override
    public Optional<ResolvedTable> resolve(String catalog, Map<String, String> properties, List<String> identifier,
                                           boolean write) {
        Map<String, String> options = new LinkedHashMap<>();
        options.put(IcebergOptions.CATALOG, catalog);
        properties.forEach((k, v) -> options.put(IcebergOptions.CATALOG_PREFIX + k, v));
        options.put(IcebergOptions.TABLE, String.join(".", identifier));
        if (!write) {
            try (IcebergTables tables = IcebergTables.of(Options.of(options))) {
                if (tables.load().isEmpty()) {
                    return Optional.empty();
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return Optional.of(new ResolvedTable("iceberg", options));
    }
}
