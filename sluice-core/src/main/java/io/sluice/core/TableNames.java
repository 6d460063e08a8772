package io.sluice.core;

import io.sluice.api.table.TableCatalogProvider;
import io.sluice.api.table.TableCatalogProvider.ResolvedTable;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.TreeSet;

/**
 * Resolves table names through the catalogs configured as Spark's ({@code spark.sql.catalog.<name>} and its
 * {@code .<property>} entries) and the {@link TableCatalogProvider}s on the class loader. The rules are Spark's
 * (CatalogAndIdentifier): a name whose first part is a configured catalog and that has more parts is in that
 * catalog; any other name is in the current catalog, {@code spark.sql.defaultCatalog} (default
 * {@code spark_catalog}). Sluice has no session catalog of its own: {@code spark_catalog} exists only when it is
 * configured.
 */
final class TableNames {
    static final String CATALOG_PREFIX = "spark.sql.catalog.";
    static final String DEFAULT_CATALOG = "spark.sql.defaultCatalog";
    static final String SESSION_CATALOG = "spark_catalog";

    private final Map<String, String> config;
    private final List<TableCatalogProvider> providers;

    TableNames(Map<String, String> config, ClassLoader loader) {
        this.config = config;
        List<TableCatalogProvider> found = new ArrayList<>();
        ServiceLoader.load(TableCatalogProvider.class, loader).forEach(found::add);
        this.providers = List.copyOf(found);
    }

    /**
     * The source or sink behind a table name.
     *
     * @throws IllegalArgumentException for a name that does not parse, an unknown catalog, an implementation no
     *                                  provider serves, or a table that does not exist (Spark's
     *                                  {@code TABLE_OR_VIEW_NOT_FOUND})
     */
    ResolvedTable resolve(String name, boolean write) {
        List<String> parts = parse(name);
        String catalog;
        List<String> identifier;
        if (parts.size() > 1 && implementation(parts.get(0)).isPresent()) {
            catalog = catalogName(parts.get(0));
            identifier = parts.subList(1, parts.size());
        } else {
            catalog = config(DEFAULT_CATALOG).orElse(SESSION_CATALOG);
            identifier = parts;
        }
        Optional<String> impl = implementation(catalog);
        if (impl.isEmpty()) {
            if (catalog.equalsIgnoreCase(SESSION_CATALOG) && config(DEFAULT_CATALOG).isEmpty()) {
                throw new IllegalArgumentException(notFound(parts) + " Sluice has no session catalog of its own: "
                        + (configuredCatalogs().isEmpty() ? "no catalog is configured; configure one with "
                        + "Sluice.builder().config(\"spark.sql.catalog.<name>\", \"<implementation>\") and its "
                        + "spark.sql.catalog.<name>.<property> entries, and name the table <name>.<namespace>.<table>"
                        : "qualify the name with one of the configured catalogs (" + String.join(", ",
                        configuredCatalogs()) + "), or set spark.sql.defaultCatalog to one of them") + ".");
            }
            throw new IllegalArgumentException("[CATALOG_NOT_FOUND] The catalog `" + catalog + "` not found. "
                    + "Consider to set the SQL config spark.sql.catalog." + catalog + " to a catalog plugin. "
                    + "SQLSTATE: 42P08");
        }
        TableCatalogProvider provider = providers.stream().filter(p -> p.handles(impl.get())).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("No table catalog provider serves the "
                        + "implementation '" + impl.get() + "' of catalog '" + catalog + "' (spark.sql.catalog."
                        + catalog + "): add the module of that table format to the classpath (its "
                        + TableCatalogProvider.class.getName() + " is listed in META-INF/services/"
                        + TableCatalogProvider.class.getName() + ")"
                        + (providers.isEmpty() ? "; no provider is on the classpath" : "; the providers found are "
                        + String.join(", ", providers.stream().map(p -> p.getClass().getName()).toList()))));
        Optional<ResolvedTable> table = provider.resolve(catalog, properties(catalog), List.copyOf(identifier),
                write, config);
        if (table.isEmpty()) {
            List<String> full = new ArrayList<>();
            full.add(catalog);
            full.addAll(identifier);
            throw new IllegalArgumentException(notFound(full));
        }
        return table.get();
    }

    /** Spark's TABLE_OR_VIEW_NOT_FOUND message, the name quoted part by part as Spark's toSQLId does. */
    static String notFound(List<String> parts) {
        return "[TABLE_OR_VIEW_NOT_FOUND] The table or view " + quoted(parts) + " cannot be found. Verify the "
                + "spelling and correctness of the schema and catalog.\nIf you did not qualify the name with a "
                + "schema, verify the current_schema() output, or qualify the name with the correct schema and "
                + "catalog.\nTo tolerate the error on drop use DROP VIEW IF EXISTS or DROP TABLE IF EXISTS. "
                + "SQLSTATE: 42P01";
    }

    static String quoted(List<String> parts) {
        return String.join(".", parts.stream().map(p -> "`" + p.replace("`", "``") + "`").toList());
    }

    /**
     * A multi-part identifier as Spark's parser reads it: parts separated by dots, a part in back-quotes may hold
     * dots, and a doubled back-quote inside one is a back-quote.
     */
    static List<String> parse(String name) {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("A table name must not be empty");
        }
        List<String> parts = new ArrayList<>();
        StringBuilder part = new StringBuilder();
        boolean quotedPart = false;
        boolean inQuotes = false;
        String s = name.trim();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (inQuotes) {
                if (c == '`') {
                    if (i + 1 < s.length() && s.charAt(i + 1) == '`') {
                        part.append('`');
                        i++;
                    } else {
                        inQuotes = false;
                    }
                } else {
                    part.append(c);
                }
            } else if (c == '`') {
                if (part.length() > 0 || quotedPart) {
                    throw syntax(name);
                }
                inQuotes = true;
                quotedPart = true;
            } else if (c == '.') {
                if (part.length() == 0 && !quotedPart) {
                    throw syntax(name);
                }
                parts.add(part.toString());
                part.setLength(0);
                quotedPart = false;
            } else {
                if (quotedPart || Character.isWhitespace(c)) {
                    throw syntax(name);
                }
                part.append(c);
            }
        }
        if (inQuotes || (part.length() == 0 && !quotedPart)) {
            throw syntax(name);
        }
        parts.add(part.toString());
        return parts;
    }

    private static IllegalArgumentException syntax(String name) {
        return new IllegalArgumentException("[PARSE_SYNTAX_ERROR] Syntax error in the table name '" + name
                + "': a name is parts separated by dots (catalog.namespace.table), a part holding a dot or a space "
                + "in back-quotes (`my.table`)");
    }

    private Optional<String> config(String key) {
        return config.entrySet().stream().filter(e -> e.getKey().equalsIgnoreCase(key))
                .map(Map.Entry::getValue).findFirst();
    }

    private Optional<String> implementation(String catalog) {
        return config(CATALOG_PREFIX + catalog).map(String::trim);
    }

    /** The catalog's name as configured (names compare case-insensitively, as Spark's conf keys do here). */
    private String catalogName(String given) {
        String key = (CATALOG_PREFIX + given).toLowerCase(Locale.ROOT);
        return config.keySet().stream().filter(k -> k.toLowerCase(Locale.ROOT).equals(key))
                .map(k -> k.substring(CATALOG_PREFIX.length())).findFirst().orElse(given);
    }

    private Map<String, String> properties(String catalog) {
        String prefix = (CATALOG_PREFIX + catalog + ".").toLowerCase(Locale.ROOT);
        Map<String, String> props = new LinkedHashMap<>();
        config.forEach((k, v) -> {
            if (k.toLowerCase(Locale.ROOT).startsWith(prefix)) {
                props.put(k.substring(prefix.length()), v);
            }
        });
        return props;
    }

    private TreeSet<String> configuredCatalogs() {
        TreeSet<String> names = new TreeSet<>();
        for (String k : config.keySet()) {
            if (k.toLowerCase(Locale.ROOT).startsWith(CATALOG_PREFIX)) {
                String rest = k.substring(CATALOG_PREFIX.length());
                if (!rest.isEmpty() && !rest.contains(".")) {
                    names.add(rest);
                }
            }
        }
        return names;
    }
}
