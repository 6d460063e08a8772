package io.sluice.delta;

import io.delta.kernel.Snapshot;
import io.delta.kernel.Table;
import io.delta.kernel.defaults.engine.DefaultEngine;
import io.delta.kernel.engine.Engine;
import io.delta.kernel.exceptions.TableNotFoundException;
import io.delta.kernel.internal.SnapshotImpl;
import io.delta.kernel.internal.actions.Protocol;
import io.delta.kernel.internal.util.ColumnMapping;
import org.apache.hadoop.conf.Configuration;

import io.sluice.api.io.Storage;
import io.sluice.api.io.Storages;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A Delta table on the local file system (Kernel's default engine on Hadoop's local file system) or on an object
 * store (the default engine on {@link DeltaStorageFileIO}, over Sluice's Storage).
 */
final class DeltaTable implements AutoCloseable {

    /** Reader features this source reads (column mapping and deletion vectors as Kernel 4.0's scan applies them). */
    private static final Set<String> READ_FEATURES_SUPPORTED = Set.of("timestampNtz", "v2Checkpoint",
            "vacuumProtocolCheck", "columnMapping", "deletionVectors");

    /** The table's folder for a local table; null for one on an object store. */
    final Path dir;
    /** The table's location as Kernel takes it: a {@code file:} URI, or {@code s3a://bucket/path}. */
    final String uri;
    /** How messages name the table: the local folder, or the URI. */
    final String where;
    /** The object store a remote table is on (closed with the table); null for a local table. */
    final Storage storage;
    final Engine engine;
    final Table table;

    private DeltaTable(Path dir) {
        this.dir = dir;
        this.uri = dir.toUri().toString();
        this.where = dir.toString();
        this.storage = null;
        this.engine = DefaultEngine.create(hadoopConf());
        this.table = Table.forPath(engine, uri);
    }

    private DeltaTable(String uri, Storage storage, Map<String, String> conf) {
        this.dir = null;
        this.uri = uri;
        this.where = uri;
        this.storage = storage;
        this.engine = DefaultEngine.create(new DeltaStorageFileIO(storage, conf));
        this.table = Table.forPath(engine, uri);
    }

    static DeltaTable open(String path) {
        return open(path, Map.of());
    }

    /**
     * A local table (a path or {@code file:} URI) through Hadoop's local file system, or a table on an object store
     * ({@code s3a://}, {@code s3://}) through Sluice's Storage for that scheme.
     *
     * @param conf the storage settings ({@code fs.s3a.*}): the engine's, then the source's or sink's options
     */
    static DeltaTable open(String path, Map<String, String> conf) {
        if (isRemote(path)) {
            String uri = path.trim().replaceAll("/+$", "");
            try {
                return new DeltaTable(uri, Storages.of(uri, conf), conf);
            } catch (IOException e) {
                throw new UncheckedIOException("Cannot open the storage of the Delta table " + uri + ": "
                        + e.getMessage(), e);
            }
        }
        return new DeltaTable(localPath(path));
    }

    /** True for a table on an object store: a URI with a scheme other than {@code file}. */
    static boolean isRemote(String path) {
        String p = path.trim();
        return p.matches("^[A-Za-z][A-Za-z0-9+.-]+://.*") && !p.regionMatches(true, 0, "file:", 0, 5);
    }

    /** Releases the object store's client of a remote table. */
    @Override
    public void close() {
        if (storage != null) {
            try {
                storage.close();
            } catch (IOException e) {
                // Only connections are released: nothing is lost.
            }
        }
    }

    static Path localPath(String path) {
        String p = path.trim();
        if (p.regionMatches(true, 0, "file:", 0, 5)) {
            return Paths.get(URI.create(p)).toAbsolutePath().normalize();
        }
        if (p.matches("^[A-Za-z][A-Za-z0-9+.-]+://.*")) {
            throw new IllegalArgumentException("'" + path + "' is not a local path");
        }
        return Paths.get(p).toAbsolutePath().normalize();
    }

    private static Configuration hadoopConf() {
        // Hadoop's defaults (core-default.xml in hadoop-client-api): Kernel's log store writes commits through
        // FileContext, which needs the local AbstractFileSystem they declare; the rename is atomic on local disks.
        // No FileSystem cache: its shutdown hook would outlive the CLI's plugin class loader (the Iceberg plugin
        // met that); a local file system is cheap to make.
        Configuration c = new Configuration();
        // Hadoop looks classes up (fs.*.impl) in the thread's context loader unless told: the CLI's holds every
        // plugin, and another plugin's Hadoop classes must not be taken for this one's.
        c.setClassLoader(DeltaTable.class.getClassLoader());
        c.setBoolean("fs.file.impl.disable.cache", true);
        loadFileSystems(c);
        return c;
    }

    /**
     * Hadoop finds its file systems once per class loader of its classes, with a ServiceLoader on the thread's
     * context loader: under the CLI that loader sees every plugin's Hadoop copy, and another copy's classes are
     * "not a subtype" of this one's. The first lookup is made here with this plugin's own loader as the context.
     */
    private static void loadFileSystems(org.apache.hadoop.conf.Configuration conf) {
        Thread self = Thread.currentThread();
        ClassLoader previous = self.getContextClassLoader();
        self.setContextClassLoader(DeltaTable.class.getClassLoader());
        try {
            org.apache.hadoop.fs.FileSystem.getFileSystemClass("file", conf);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException("Hadoop's local file system cannot be loaded: " + e.getMessage(), e);
        } finally {
            self.setContextClassLoader(previous);
        }
    }

    Optional<SnapshotImpl> latest() {
        try {
            return Optional.of((SnapshotImpl) table.getLatestSnapshot(engine));
        } catch (TableNotFoundException e) {
            return Optional.empty();
        }
    }

    SnapshotImpl latestOrFail() {
        return latest().orElseThrow(() -> new IllegalArgumentException("[DELTA_TABLE_NOT_FOUND] `" + where
                + "` is not a Delta table (no _delta_log with a commit in it)"));
    }

    SnapshotImpl at(long version) {
        return (SnapshotImpl) table.getSnapshotAsOfVersion(engine, version);
    }

    /**
     * Fails, naming the table feature, when reading this table needs a reader feature the source does not apply.
     * Column mapping (modes name and id) and deletion vectors are read as Kernel reads them: the data files by
     * their physical column names (or Parquet field ids), and each file's deletion vector applied to its rows.
     */
    static void checkReadable(SnapshotImpl s, String where) {
        Protocol p = s.getProtocol();
        for (String f : p.getReaderFeatures()) {
            if (!READ_FEATURES_SUPPORTED.contains(f)) {
                throw new UnsupportedOperationException("The Delta table " + where + " uses the reader table "
                        + "feature " + f + ", which Sluice's Delta source does not read (it reads "
                        + READ_FEATURES_SUPPORTED.stream().sorted().toList() + ")");
            }
        }
    }

    /** The table's column mapping mode at this snapshot (none, name or id). */
    static ColumnMapping.ColumnMappingMode columnMappingMode(SnapshotImpl s) {
        return ColumnMapping.getColumnMappingMode(s.getMetadata().getConfiguration());
    }

    /**
     * The schema to ask Kernel's Parquet reader for, for the data (non-partition) columns of {@code schema} in its
     * order: the snapshot's fields with their physical names and field ids under column mapping (Kernel's
     * ColumnMapping.convertToPhysicalSchema, as its own scan does), the logical fields otherwise.
     */
    static io.delta.kernel.types.StructType physicalDataSchema(SnapshotImpl s, io.sluice.api.types.StructType schema,
                                                               java.util.List<String> partitionColumns) {
        io.delta.kernel.types.StructType full = s.getSchema();
        io.delta.kernel.types.StructType logical = new io.delta.kernel.types.StructType();
        java.util.List<io.sluice.api.types.StructField> data = new java.util.ArrayList<>();
        for (io.sluice.api.types.StructField f : schema.fields()) {
            if (partitionColumns.stream().anyMatch(c -> c.equalsIgnoreCase(f.name()))) {
                continue;
            }
            data.add(f);
            io.delta.kernel.types.StructField k = full.fields().stream()
                    .filter(x -> x.getName().equalsIgnoreCase(f.name())).findFirst().orElse(null);
            if (k == null) {
                // Not in the snapshot (a schema the stream started with before a column was dropped): the reader
                // fills it with nulls, as for a file that lacks it.
                k = new io.delta.kernel.types.StructField(f.name(), DeltaTypes.toKernel(f.dataType(), true), true);
            }
            logical = logical.add(k);
        }
        ColumnMapping.ColumnMappingMode mode = columnMappingMode(s);
        if (!ColumnMapping.isColumnMappingModeEnabled(mode)) {
            return DeltaTypes.toKernel(new io.sluice.api.types.StructType(data), true);
        }
        return ColumnMapping.convertToPhysicalSchema(logical, full, mode);
    }

}
