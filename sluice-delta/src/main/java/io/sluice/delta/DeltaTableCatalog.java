package io.sluice.delta;

import io.sluice.api.table.TableCatalogProvider;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Table names for Delta: a catalog configured as delta-spark's ({@code spark.sql.catalog.<name> =
 * org.apache.spark.sql.delta.catalog.DeltaCatalog}) with a {@code warehouse} folder holds table {@code db.events} in
 * {@code <warehouse>/db/events}, a folder per name part. A path, as Spark's {@code delta.`/data/t`}, is the one-part
 * identifier {@code delta.`/data/t`} in a catalog named {@code delta}. Sluice has no metastore: a folder is a table
 * when it holds a {@code _delta_log}; a write resolves a missing one too, which the sink creates.
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
        Path dir;
        if (identifier.size() == 1 && identifier.get(0).startsWith("/")) {
            dir = DeltaTable.localPath(identifier.get(0));
        } else {
            String warehouse = properties.get(WAREHOUSE);
            if (warehouse == null || warehouse.isBlank()) {
                throw new IllegalArgumentException("The Delta catalog '" + catalog + "' needs spark.sql.catalog."
                        + catalog + "." + WAREHOUSE + ", the folder its tables are in (a table db.events is "
                        + "<warehouse>/db/events); or name a table by its absolute path: " + catalog + ".`/data/t`");
            }
            dir = DeltaTable.localPath(warehouse);
            for (String part : identifier) {
                if (part.isEmpty() || part.equals(".") || part.equals("..") || part.contains("/")
                        || part.contains("\\")) {
                    throw new IllegalArgumentException("The Delta catalog '" + catalog + "' cannot hold a table "
                            + "named " + String.join(".", identifier) + ": each part is a folder name");
                }
                dir = dir.resolve(part);
            }
        }
        if (!write && !Files.isDirectory(dir.resolve("_delta_log"))) {
            return Optional.empty();
        }
        return Optional.of(new ResolvedTable("delta", Map.of("path", dir.toString())));
    }
}
