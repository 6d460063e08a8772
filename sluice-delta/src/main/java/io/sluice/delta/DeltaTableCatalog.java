package io.sluice.delta;

import io.sluice.api.io.Storage;
import io.sluice.api.io.Storages;
import io.sluice.api.table.TableCatalogProvider;

import java.io.IOException;
import java.io.UncheckedIOException;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Table names for Delta: a catalog configured as delta-spark's ({@code spark.sql.catalog.<name> =
 * org.apache.spark.sql.delta.catalog.DeltaCatalog}) with a {@code warehouse} folder holds table {@code db.events} in
 * {@code <warehouse>/db/events}, a folder per name part. A path, as Spark's {@code delta.`/data/t`}, is the one-part
 * identifier {@code delta.`/data/t`} in a catalog named {@code delta}. Sluice has no metastore: a folder is a table
 * when it holds a {@code _delta_log}; a write resolves a missing one too, which the sink creates. The warehouse may
 * be on an object store ({@code s3a://lake/warehouse}).
 */
public final class DeltaTableCatalog implements TableCatalogProvider {

    static final Set<String> IMPLEMENTATIONS = Set.of("org.apache.spark.sql.delta.catalog.DeltaCatalog", "delta");
    static final String WAREHOUSE = "warehouse";

    @Override
    public boolean handles(String implementation) {
        return IMPLEMENTATIONS.contains(implementation.trim());
    }

    @Override
    public Optional<ResolvedTable> resolve(String catalog, Map<String, String> properties, List<String> identifier,
                                           boolean write) {
        return resolve(catalog, properties, identifier, write, Map.of());
    }

    /**
     * As {@link #resolve(String, Map, List, boolean)}; a warehouse (or a table path) on an object store
     * ({@code s3a://lake/wh}) is looked at through Sluice's storage for its scheme, configured by the engine's
     * {@code fs.*} entries with the catalog's own {@code fs.*} properties over them.
     */
    @Override
    public Optional<ResolvedTable> resolve(String catalog, Map<String, String> properties, List<String> identifier,
                                           boolean write, Map<String, String> engineConfig) {
        String location;
        if (identifier.size() == 1 && (identifier.get(0).startsWith("/") || DeltaTable.isRemote(identifier.get(0)))) {
            location = identifier.get(0);
        } else {
            String warehouse = properties.get(WAREHOUSE);
            if (warehouse == null || warehouse.isBlank()) {
                throw new IllegalArgumentException("The Delta catalog '" + catalog + "' needs spark.sql.catalog."
                        + catalog + "." + WAREHOUSE + ", the folder its tables are in (a table db.events is "
                        + "<warehouse>/db/events); or name a table by its absolute path: " + catalog + ".`/data/t`");
            }
            for (String part : identifier) {
                if (part.isEmpty() || part.equals(".") || part.equals("..") || part.contains("/")
                        || part.contains("\\")) {
                    throw new IllegalArgumentException("The Delta catalog '" + catalog + "' cannot hold a table "
                            + "named " + String.join(".", identifier) + ": each part is a folder name");
                }
            }
            location = DeltaTable.isRemote(warehouse)
                    ? warehouse.trim().replaceAll("/+$", "") + "/" + String.join("/", identifier)
                    : DeltaTable.localPath(warehouse).resolve(String.join("/", identifier)).toString();
        }
        if (!DeltaTable.isRemote(location)) {
            Path dir = DeltaTable.localPath(location);
            if (!write && !Files.isDirectory(dir.resolve("_delta_log"))) {
                return Optional.empty();
            }
            return Optional.of(new ResolvedTable("delta", Map.of("path", dir.toString())));
        }
        String uri = location.trim().replaceAll("/+$", "");
        Map<String, String> options = new LinkedHashMap<>();
        options.put("path", uri);
        properties.forEach((k, v) -> {
            if (k.startsWith("fs.") || k.startsWith("spark.hadoop.fs.")) {
                options.put(k, v);
            }
        });
        if (!write && !hasLog(uri, Storages.conf(engineConfig, options))) {
            return Optional.empty();
        }
        return Optional.of(new ResolvedTable("delta", options));
    }

    /** Whether {@code <uri>/_delta_log/} holds any object: a table, as on disk a {@code _delta_log} folder is. */
    private static boolean hasLog(String uri, Map<String, String> conf) {
        try (Storage storage = Storages.of(uri, conf)) {
            boolean[] any = {false};
            storage.list(uri + "/_delta_log/", null, o -> {
                any[0] = true;
                return false;
            });
            return any[0];
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot look for the Delta table " + uri + ": " + e.getMessage(), e);
        }
    }
}
