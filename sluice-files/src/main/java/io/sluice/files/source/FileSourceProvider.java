package io.sluice.files.source;

import io.sluice.api.InvalidOptionException;
import io.sluice.api.OptionSet;
import io.sluice.api.Options;
import io.sluice.api.source.ColumnFilter;
import io.sluice.api.source.MicroBatchStream;
import io.sluice.api.source.PushDown;
import io.sluice.api.source.StreamContext;
import io.sluice.api.source.SupportsPushDown;
import io.sluice.api.types.StructField;
import io.sluice.api.types.StructType;
import io.sluice.files.format.FileFormat;
import io.sluice.files.fs.FileStatus;
import io.sluice.files.fs.FileStorage;
import io.sluice.files.fs.ObjectFileStorage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The file source for one format: options, schema resolution and the stream (docs/sources/file.md). The public
 * providers ({@link JsonFileSourceProvider}, {@link CsvFileSourceProvider}, {@link TextFileSourceProvider}, and
 * those of formats in other modules, such as sluice-parquet's) only name their format; a subclass is registered in
 * {@code META-INF/services/io.sluice.api.source.SourceProvider} with a public no-argument constructor. Stateless
 * and thread-safe.
 */
public abstract class FileSourceProvider implements SupportsPushDown {
    private static final Logger LOG = LoggerFactory.getLogger(FileSourceProvider.class);
    /** At most this many files (the newest) are handed to schema inference. */
    static final int INFER_SAMPLE_FILES = 1000;
    private static final String TIME_ZONE = "timeZone";

    private final String format;
    private final Formats formats;
    private final FileStorage storage;

    /** The file source of {@code format} on local files; the format is used as given (not looked up by name). */
    protected FileSourceProvider(FileFormat format) {
        this(format.name(), Formats.of(format), FileStorage.local());
    }

    FileSourceProvider(String format, Formats formats, FileStorage storage) {
        this.format = format;
        this.formats = formats;
        this.storage = storage;
    }

    @Override
    public final String shortName() {
        return format;
    }

    /** The source's own options, then the format's reading options. */
    @Override
    public final OptionSet options() {
        // fs.s3a.* (and spark.hadoop.fs.s3a.*) go to the object store of an s3a:// path, which declares and checks
        // them (sluice-s3's S3Options), as Spark passes a source's options to Hadoop's configuration.
        return FileSourceOptionDefs.SOURCE.and(formats.options(format)).withPrefixes("fs.", "spark.hadoop.");
    }

    @Override
    public final Optional<StructType> fixedSchema(Options options) {
        return formats.fixedSchema(format, options);
    }

    @Override
    public final StructType resolveSchema(Options options, Optional<StructType> userSchema) {
        FileSourceOptions o = FileSourceOptions.parse(options);
        FileStorage storage = storageFor(o, options);
        try {
            return resolveSchema(options, userSchema, o, storage);
        } finally {
            ObjectFileStorage.closeQuietly(storage);
        }
    }

    /**
     * The storage of the source's path: the local disk, or an object store by the path's scheme ({@code s3a://}),
     * configured by the source's options ({@code fs.s3a.*}, as Spark passes source options to Hadoop).
     */
    private FileStorage storageFor(FileSourceOptions o, Options options) {
        if (storage != FileStorage.local()) {
            return storage; // a test's storage
        }
        return ObjectFileStorage.forPath(FileSourceOptions.PATH, o.path(), options.asMap());
    }

    private StructType resolveSchema(Options options, Optional<StructType> userSchema, FileSourceOptions o,
                                     FileStorage storage) {
        SourcePath path = SourcePath.of(o, storage);
        // On an object store a prefix with no object is an empty folder (there are no folders): only a missing
        // bucket fails there (the status call says so, naming it).
        if (!path.isGlob() && status(storage, path.pattern()).isEmpty() && !(storage instanceof ObjectFileStorage)) {
            // A glob may match nothing yet; a plain path must exist, as in Spark.
            throw new InvalidOptionException(FileSourceOptions.PATH, o.path(),
                    "[PATH_NOT_FOUND] Path does not exist: " + storage.display(path.pattern()) + ".", true);
        }
        checkNotifications(o, storage);
        if (o.cleanSource() == FileSourceOptions.CleanSource.ARCHIVE) {
            String dir = o.sourceArchiveDir().orElseThrow();
            SourcePath archive = SourcePath.parse(FileSourceOptions.SOURCE_ARCHIVE_DIR, dir, storage);
            if (archive.isGlob() || path.matchedByArchive(archive.pattern())) {
                throw new InvalidOptionException(FileSourceOptions.SOURCE_ARCHIVE_DIR, dir, "Base archive path "
                        + "cannot be set to the path where archived path can possibly match with source pattern. "
                        + "Ensure the base archive path doesn't match with source pattern in depth, where the depth "
                        + "is minimum of depth on both paths.", true);
            }
        }
        if (o.cleanSource() != FileSourceOptions.CleanSource.OFF && !path.isGlob()
                && SinkManifest.present(storage, path.base())) {
            throw new InvalidOptionException(FileSourceOptions.CLEAN_SOURCE, o.cleanSource().name()
                    .toLowerCase(Locale.ROOT), "Clean up source files is not supported when reading from the "
                    + "output directory of FileStreamSink.", true);
        }
        Optional<StructType> fixed = formats.fixedSchema(format, options);
        StructType schema;
        if (userSchema.isPresent()) {
            schema = userSchema.get();
        } else if (fixed.isPresent()) {
            schema = fixed.get();
        } else if (o.inferSchema()) {
            schema = infer(options, path, storage);
        } else {
            throw new IllegalArgumentException("Schema must be specified when creating a streaming source "
                    + "DataFrame. If some files already exist in the directory, then depending on the file format "
                    + "you may be able to create a static DataFrame on that directory with "
                    + "'spark.read.load(directory)' and infer schema from it. (Sluice: call schema(\"col type, "
                    + "...\"), or set option inferSchema=true to infer it from the files present at start, "
                    + "which is unsafe across restarts.)");
        }
        formats.validate(format, options, fixed.orElse(schema));
        return schema;
    }

    private static Optional<FileStatus> status(FileStorage storage, Path p) {
        try {
            return storage.status(p);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read " + storage.display(p) + ": " + e.getMessage(), e);
        }
    }

    /**
     * Infers the data schema from the newest files present now, then appends the {@code key=value} folder
     * columns that are not data columns, with guessed types.
     */
    private StructType infer(Options options, SourcePath path, FileStorage storage) {
        List<FileStatus> files = new ArrayList<>();
        try {
            if (!path.isGlob() && SinkManifest.present(storage, path.base())) {
                java.util.Map<Path, FileStatus> live = new java.util.LinkedHashMap<>();
                for (SinkManifest.Change c : new SinkManifest(path.base(), storage).readNew()) {
                    if (c.deleted()) {
                        live.remove(c.file().path());
                    } else if (path.acceptsFileName(c.file().name())) {
                        live.put(c.file().path(), c.file());
                    }
                }
                files.addAll(live.values());
            } else {
                path.list(storage, files::add);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot list " + path + " to infer a schema", e);
        }
        if (files.isEmpty()) {
            throw new IllegalArgumentException("Unable to infer schema for " + format.toUpperCase(Locale.ROOT)
                    + ". It must be specified manually.");
        }
        files.sort(Comparator.comparingLong(FileStatus::modificationTime).reversed());
        List<FileStatus> sample = files.subList(0, Math.min(INFER_SAMPLE_FILES, files.size()));
        List<Path> paths = new ArrayList<>();
        Map<String, List<String>> folderValues = new LinkedHashMap<>();
        for (FileStatus f : sample) {
            paths.add(f.path());
            path.partitionsOf(f.path()).forEach((k, v) ->
                    folderValues.computeIfAbsent(k, x -> new ArrayList<>()).add(v));
        }
        StructType schema = formats.infer(format, options, paths);
        for (Map.Entry<String, List<String>> e : folderValues.entrySet()) {
            if (schema.indexOf(e.getKey()) < 0) {
                schema = schema.add(StructField.of(e.getKey(), Partitions.infer(e.getValue())));
            }
        }
        LOG.warn("inferSchema=true: inferred schema {} from {} of the {} files in {}. Inference is unsafe across "
                + "restarts: a restart infers again from the files present then and may get another schema; give "
                + "the schema explicitly with schema(\"{}\") to keep it", schema.toDDL(), sample.size(),
                files.size(), path, schema.toDDL());
        return schema;
    }

    /** The folder of {@code path} before its first glob character. */
    @Override
    public final Optional<Path> localInputFolder(Options options) {
        String raw = FileSourceOptions.parse(options).path();
        if (!io.sluice.api.io.Storages.isLocal(raw)) {
            return Optional.empty(); // an object store: no local folder
        }
        return Optional.of(SourcePath.parse(raw, storage).base());
    }

    @Override
    public final MicroBatchStream createStream(StreamContext context) {
        Options options = context.options();
        if (!options.contains(TIME_ZONE)) {
            // Spark's default of timeZone: the session time zone. Given as the option, every format's reader
            // (FileFormat.reader, through sluice-values' DateTimeReader) reads it as if the user had set it.
            options = options.with(TIME_ZONE, context.sessionTimeZone().getId());
        }
        FileSourceOptions o = FileSourceOptions.parse(options);
        FileStorage storage = storageFor(o, options);
        io.sluice.files.fs.ObjectNotifications notifications = null;
        try {
            notifications = notifications(o, options, storage);
            // A checkpoint on an object store gives no local folder: the state goes through its storage.
            StateFolder state = context.metadataPath() != null ? StateFolder.local(context.metadataPath())
                    : StateFolder.stored(context.metadataStorage(), context.metadataLocation());
            return new FileStreamSource(format, options, o, context.schema(), formats, storage, state,
                    context.clock(), notifications);
        } catch (RuntimeException e) {
            if (notifications != null) {
                notifications.close();
            }
            ObjectFileStorage.closeQuietly(storage);
            throw e;
        }
    }

    /**
     * True: the seen-files log, its snapshots and the cleanSource marker go through the checkpoint's storage
     * ({@link StateFolder}), with conditional writes, when the checkpoint is on an object store.
     */
    @Override
    public final boolean supportsMetadataOnStorage() {
        return true;
    }

    /** useNotifications=true needs an object store's path. */
    private static void checkNotifications(FileSourceOptions o, FileStorage storage) {
        if (o.useNotifications() && !storage.listsFromKey()) {
            throw new InvalidOptionException(FileSourceOptions.USE_NOTIFICATIONS, "true", "useNotifications=true "
                    + "reads an object store's event notifications, and the path " + o.path() + " is on the local "
                    + "disk: give an s3a:// path, or leave useNotifications out", true);
        }
    }

    /** The notifications' queue of useNotifications (null without), from the module that serves it. */
    private static io.sluice.files.fs.ObjectNotifications notifications(FileSourceOptions o, Options options,
                                                                         FileStorage storage) {
        if (!o.useNotifications()) {
            return null;
        }
        checkNotifications(o, storage);
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        for (io.sluice.files.fs.ObjectNotifications.Provider p : java.util.ServiceLoader.load(
                io.sluice.files.fs.ObjectNotifications.Provider.class,
                loader != null ? loader : FileSourceProvider.class.getClassLoader())) {
            return p.open(o.path(), o.queueUrl().orElseThrow(), options.asMap());
        }
        throw new InvalidOptionException(FileSourceOptions.USE_NOTIFICATIONS, "true", "useNotifications=true needs "
                + "a module that reads the queue: add sluice-s3 (its jar, or its plugin jar for the sluice CLI)",
                true);
    }

    /** Inexact: used only on partition columns, to skip whole files ({@link FilePushDown}). */
    @Override
    public final FilterUse filterUse(Options options, StructType schema, ColumnFilter filter) {
        return FilterUse.INEXACT;
    }

    @Override
    public final MicroBatchStream createStream(StreamContext context, PushDown pushDown) {
        FileStreamSource stream = (FileStreamSource) createStream(context);
        stream.pushDown(pushDown);
        return stream;
    }
}
