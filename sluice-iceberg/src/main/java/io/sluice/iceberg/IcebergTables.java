package io.sluice.iceberg;

import io.sluice.api.InvalidOptionException;
import io.sluice.api.Options;
import io.sluice.api.io.LocalPaths;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.hadoop.HadoopTables;

import java.io.Closeable;
import java.io.IOException;
import java.util.Map;
import java.util.Optional;

/**
 * Loads and creates the table the options name: by {@code path} (a Hadoop table, as Spark's {@code load(path)}), or
 * by {@code table} in the catalog built from the {@code catalog.*} options (Iceberg's
 * {@link CatalogUtil#buildIcebergCatalog}: {@code type} hadoop, jdbc, rest, or {@code catalog-impl}). Holds the
 * catalog open until closed.
 */
final class IcebergTables implements Closeable {
    private final String path;
    private final TableIdentifier identifier;
    private final Catalog catalog;
    private final Configuration conf;

    /**
     * Hadoop's defaults (core-default.xml), without the FileSystem cache: the cache registers a JVM shutdown hook
     * whose classes are gone once the CLI has closed the plugin's class loader (a NoClassDefFoundError at exit),
     * and a local file system holds nothing worth caching. A copy of {@link Defaults#CONF}: a new Configuration
     * parses core-default.xml again on its first read, which a query paid once per table it opened.
     */
    static Configuration hadoopConf() {
        return new Configuration(Defaults.CONF);
    }

    /** The parsed defaults that {@link #hadoopConf} copies (the copy takes the class loader and every setting). */
    private static final class Defaults {
        static final Configuration CONF = load();

        private static Configuration load() {
            Configuration conf = new Configuration();
            // Hadoop looks classes up (fs.*.impl) in the thread's context loader unless told: the CLI's holds every
            // plugin, and another plugin's Hadoop classes must not be taken for this one's.
            conf.setClassLoader(IcebergTables.class.getClassLoader());
            conf.setBoolean("fs.file.impl.disable.cache", true);
            loadFileSystems(conf);
            return conf;
        }
    }

    /**
     * Hadoop finds its file systems once per class loader of its classes, with a ServiceLoader on the thread's
     * context loader: under the CLI that loader sees every plugin's Hadoop copy, and another copy's classes are
     * "not a subtype" of this one's. The first lookup is made here with this plugin's own loader as the context.
     */
    private static void loadFileSystems(org.apache.hadoop.conf.Configuration conf) {
        Thread self = Thread.currentThread();
        ClassLoader previous = self.getContextClassLoader();
        self.setContextClassLoader(IcebergTables.class.getClassLoader());
        try {
            org.apache.hadoop.fs.FileSystem.getFileSystemClass("file", conf);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException("Hadoop's local file system cannot be loaded: " + e.getMessage(), e);
        } finally {
            self.setContextClassLoader(previous);
        }
    }

    private IcebergTables(String path, TableIdentifier identifier, Catalog catalog, Configuration conf) {
        this.path = path;
        this.identifier = identifier;
        this.catalog = catalog;
        this.conf = conf;
    }

    /** @throws InvalidOptionException when neither or both of path and table are given, or a bad catalog */
    static IcebergTables of(Options options) {
        return of(options, Map.of());
    }

    /** The message for a Hadoop table or catalog on an object store, whose commit is a rename S3 cannot make atomic. */
    static String hadoopOnObjectStore(String where) {
        return "Iceberg's Hadoop tables and Hadoop catalog commit by renaming a metadata file, which is not atomic "
                + "on an object store (" + where + "): two writers could both commit the same version. Use a "
                + "catalog whose commit is atomic: catalog.type=jdbc (catalog.uri=jdbc:...) or catalog.type=rest "
                + "(catalog.uri=http...), with catalog.warehouse=" + where;
    }

    /**
     * @param storageConf the engine's storage settings ({@code fs.s3a.*}); the options' own {@code fs.*} entries
     *                    go over them, as for the file source and sink
     */
    static IcebergTables of(Options options, Map<String, String> storageConf) {
        Optional<String> path = options.get(IcebergOptions.PATH);
        Optional<String> table = options.get(IcebergOptions.TABLE);
        if (path.isPresent() == table.isPresent()) {
            throw new InvalidOptionException(path.isPresent() ? IcebergOptions.TABLE : IcebergOptions.PATH,
                    table.orElse(null), "give the table either by path (option(\"path\", dir) or load(dir)) or "
                    + "by identifier (option(\"table\", \"db.table\") with the catalog.* options, or "
                    + "readStream().table(\"catalog.db.table\")), not " + (path.isPresent() ? "both" : "neither"),
                    true);
        }
        if (path.isPresent()) {
            if (LocalPaths.scheme(path.get()).filter(sc -> !sc.equals("file")).isPresent()) {
                throw new InvalidOptionException(IcebergOptions.PATH, path.get(), hadoopOnObjectStore(path.get()),
                        true);
            }
            String location = LocalPaths.of(IcebergOptions.PATH, path.get()).toAbsolutePath().toString();
            return new IcebergTables(location, null, null, hadoopConf());
        }
        Map<String, String> props = options.withPrefix(IcebergOptions.CATALOG_PREFIX);
        if (props.isEmpty()) {
            throw new InvalidOptionException(IcebergOptions.TABLE, table.get(), "a table by identifier needs a "
                    + "catalog: give its properties as catalog.type (hadoop, jdbc, rest), catalog.warehouse, "
                    + "catalog.uri..., or name the table through a catalog configured on the engine "
                    + "(spark.sql.catalog.<name>)", true);
        }
        TableIdentifier id;
        try {
            id = TableIdentifier.parse(table.get());
        } catch (RuntimeException e) {
            throw new InvalidOptionException(IcebergOptions.TABLE, table.get(), "a namespace.table identifier is "
                    + "accepted");
        }
        String name = options.get(IcebergOptions.CATALOG).orElse("iceberg");
        Map<String, String> catalogProps = new java.util.HashMap<>(props);
        props = catalogProps;
        String warehouse = props.get("warehouse");
        boolean remote = warehouse != null && LocalPaths.scheme(warehouse).filter(sc -> !sc.equals("file")).isPresent();
        if (remote && "hadoop".equalsIgnoreCase(props.getOrDefault("type", ""))) {
            throw new InvalidOptionException(IcebergOptions.CATALOG_PREFIX + "type", "hadoop",
                    hadoopOnObjectStore(warehouse), true);
        }
        if (remote || StorageFileIO.class.getName().equals(props.get("io-impl"))) {
            // Iceberg's default FileIO for these catalogs is Hadoop's, which needs hadoop-aws for s3a://; Sluice's
            // Storage is used instead, configured by the fs.* settings.
            props.putIfAbsent("io-impl", StorageFileIO.class.getName());
            Map<String, String> fs = new java.util.HashMap<>();
            storageConf.forEach((k, v) -> fs.put(k.startsWith("spark.hadoop.") ? k.substring(13) : k, v));
            options.asMap().forEach((k, v) -> fs.put(k.startsWith("spark.hadoop.") ? k.substring(13) : k, v));
            fs.forEach((k, v) -> {
                if (k.startsWith("fs.")) {
                    catalogProps.putIfAbsent(k, v);
                }
            });
        }
        Configuration conf = hadoopConf();
        Catalog catalog;
        try {
            catalog = CatalogUtil.buildIcebergCatalog(name, props, conf);
        } catch (RuntimeException e) {
            throw new InvalidOptionException(IcebergOptions.CATALOG_PREFIX + "type", props.get("type"),
                    "Cannot build Iceberg catalog '" + name + "' from " + props.keySet() + ": " + e.getMessage(),
                    true);
        }
        return new IcebergTables(null, id, catalog, conf);
    }

    /** How the table is named in messages. */
    String describe() {
        return path != null ? path : identifier.toString();
    }

    /** The table, or empty when it does not exist. */
    Optional<Table> load() {
        try {
            return Optional.of(path != null ? new HadoopTables(conf).load(path) : catalog.loadTable(identifier));
        } catch (NoSuchTableException e) {
            return Optional.empty();
        }
    }

    /** The table, or Iceberg's NoSuchTableException message as Spark's IcebergSource gives it. */
    Table require() {
        return load().orElseThrow(() -> new IllegalArgumentException(path != null
                ? "Table does not exist at location: " + path
                : "[TABLE_OR_VIEW_NOT_FOUND] The table or view " + identifier + " cannot be found. Table does "
                + "not exist: " + identifier));
    }

    /** Loads the table, or creates it with this schema and spec when missing (another creator may win the race). */
    Table loadOrCreate(Schema schema, PartitionSpec spec) {
        Optional<Table> existing = load();
        if (existing.isPresent()) {
            return existing.get();
        }
        try {
            if (path != null) {
                return new HadoopTables(conf).create(schema, spec, Map.of(), path);
            }
            return catalog.buildTable(identifier, schema).withPartitionSpec(spec).create();
        } catch (AlreadyExistsException e) {
            return require();
        }
    }

    @Override
    public void close() throws IOException {
        if (catalog instanceof Closeable c) {
            c.close();
        }
    }
}
