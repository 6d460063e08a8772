package io.sluice.core;

import io.sluice.api.table.TableCatalogProvider;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A test catalog (implementation {@code io.sluice.test.TestCatalog}): its property {@code tables} lists the tables
 * (comma-separated, namespace and name joined by dots); a table reads as the scripted source named by the
 * property {@code source} and writes into the memory sink whose table is {@code <catalog>.<identifier>}. With
 * {@code create=true} a missing table resolves for a write.
 */
public final class TestTableCatalog implements TableCatalogProvider {
    static final String IMPL = "io.sluice.test.TestCatalog";

    @Override
    public boolean handles(String implementation) {
        return IMPL.equals(implementation);
    }

    @Override
    public Optional<ResolvedTable> resolve(String catalog, Map<String, String> properties, List<String> identifier,
                                           boolean write) {
        String table = String.join(".", identifier);
        boolean exists = Arrays.asList(properties.getOrDefault("tables", "").split(",")).contains(table);
        if (!exists && !(write && Boolean.parseBoolean(properties.get("create")))) {
            return Optional.empty();
        }
        return Optional.of(write
                ? new ResolvedTable("memory", Map.of("queryName", catalog + "." + table))
                : new ResolvedTable("scripted", Map.of("name", properties.get("source"))));
    }
}
