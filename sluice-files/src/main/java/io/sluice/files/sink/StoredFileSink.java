package io.sluice.files.sink;

import io.sluice.api.Row;
import io.sluice.api.SluiceClock;
import io.sluice.api.io.MetadataLogFiles;
import io.sluice.api.io.Storage;
import io.sluice.api.io.Storages;
import io.sluice.api.io.WholeObjectOutput;
import io.sluice.api.sink.BatchInfo;
import io.sluice.api.sink.BatchWriter;
import io.sluice.api.sink.PartitionWriter;
import io.sluice.api.sink.Sink;
import io.sluice.api.sink.SinkContext;
import io.sluice.api.types.DataType;
import io.sluice.api.types.StructType;
import io.sluice.files.format.FileFormat;
import io.sluice.files.format.FormatEncoder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.BufferedOutputStream;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.zip.GZIPOutputStream;

/**
 * The file sink when {@code path} is on an object store ({@code s3a://bucket/out}), written through
 * {@link Storage}: Spark's FileStreamSink layout and manifest, with the store's guarantees instead of renames.
 *
 * <p>Batch N: each partition writes its data files straight to their final names
 * ({@code part-<p>-<uuid>-c000.<ext>}) through {@link Storage#create}, so each becomes visible whole, only when it
 * is finished (S3: a single PUT or a multipart upload completed at the end, never a partial object). Then
 * {@code _spark_metadata/N} (or {@code N.compact} every {@code compactInterval} batches, holding every entry so far)
 * is created with {@link Storage#createExclusive} (S3: {@code PUT If-None-Match: *}): the batch is committed at that
 * moment, and of two writers racing on batch N exactly one commits it; the other deletes its data files and fails
 * with a message that says why. A batch id the manifest already holds is skipped (a re-run after a crash).
 *
 * <p>Readers that go through the manifest (Spark, Sluice's file source) see committed files only. Data files of an
 * attempt that crashed before its manifest entry stay in the folder as orphans that no manifest lists (Spark's own
 * sink leaves them too); they are never read through the manifest.
 */
final class StoredFileSink implements Sink {
    private static final Logger LOG = LoggerFactory.getLogger(StoredFileSink.class);

    private final FileSinkOptions options;
    private final SluiceClock clock;
    private final Storage storage;
    private final String output;
    private final String metadata;
    private final String queryId;
    private final FormatEncoder.Factory encoders;
    private final PartitionPaths partitionPaths;
    private final boolean partitioned;
    private final String extension;
    private final int compactInterval;
    private long latest;

    private StoredFileSink(FileSinkOptions options, SinkContext context, FormatEncoder.Factory encoders,
                           PartitionPaths partitionPaths, Storage storage) throws IOException {
        this.options = options;
        this.clock = context.clock();
        this.storage = storage;
        this.output = options.outputUri;
        this.metadata = output + "/" + SinkLog.METADATA_DIR;
        this.queryId = context.queryId();
        this.encoders = encoders;
        this.partitionPaths = partitionPaths;
        this.partitioned = !options.partitionBy.isEmpty();
        this.extension = options.writing.extension(options.raw) + (options.gzip ? ".gz" : "");
        TreeMap<Long, Path> files = manifestFiles();
        this.compactInterval = SinkLog.compactInterval(files, options.compactInterval);
        this.latest = files.isEmpty() ? -1 : files.lastKey();
    }

    /** Checks the options against the schema and opens the store; every problem is thrown here, in start(). */
    static StoredFileSink create(FileFormat format, SinkContext context) {
        FileSinkOptions options = FileSinkOptions.parse(format, context.options(), context.sessionTimeZone());
        StructType schema = context.schema();
        int[] partitionColumns = FileSink.resolvePartitionColumns(options, schema);
        Set<Integer> partitionSet = new HashSet<>();
        for (int c : partitionColumns) {
            partitionSet.add(c);
        }
        int[] dataColumns = new int[schema.size() - partitionColumns.length];
        for (int i = 0, j = 0; i < schema.size(); i++) {
            if (!partitionSet.contains(i)) {
                dataColumns[j++] = i;
            }
        }
        options.writing.checkColumns(schema, dataColumns);
        FormatEncoder.Factory encoders = SinkEncoders.of(format, schema, dataColumns, options);
        String[] names = new String[partitionColumns.length];
        DataType[] types = new DataType[partitionColumns.length];
        for (int i = 0; i < partitionColumns.length; i++) {
            names[i] = schema.field(partitionColumns[i]).name();
            types[i] = schema.field(partitionColumns[i]).dataType();
        }
        Storage storage = null;
        try {
            // As Spark: the engine's storage settings, then this sink's options (fs.s3a.endpoint...).
            storage = Storages.of(options.outputUri, Storages.conf(context.storageConf(),
                    context.options().asMap()));
            return new StoredFileSink(options, context, encoders,
                    new PartitionPaths(partitionColumns, names, types, options.zone), storage);
        } catch (IOException e) {
            closeQuietly(storage);
            throw new UncheckedIOException("Cannot open the file sink's output " + options.outputUri + ": "
                    + e.getMessage(), e);
        } catch (RuntimeException e) {
            closeQuietly(storage);
            throw e;
        }
    }

    /** The manifest's batch files by id (names only matter: {@code 5}, {@code 9.compact}). */
    private TreeMap<Long, Path> manifestFiles() throws IOException {
        TreeMap<Long, Path> out = new TreeMap<>();
        String prefix = metadata + "/";
        storage.list(prefix, null, o -> {
            String name = o.uri().substring(prefix.length());
            if (name.indexOf('/') < 0) {
                OptionalLong id = MetadataLogFiles.batchId(name);
                if (id.isEmpty()) {
                    id = MetadataLogFiles.compactId(name);
                }
                if (id.isPresent()) {
                    out.put(id.getAsLong(), Path.of(name));
                }
            }
            return true;
        });
        return out;
    }

    private String manifestUri(long batchId) {
        return metadata + "/" + (SinkLog.isCompactionBatch(batchId, compactInterval)
                ? batchId + SinkLog.COMPACT_SUFFIX : Long.toString(batchId));
    }

    @Override
    public BatchWriter beginBatch(long batchId) {
        return beginBatch(BatchInfo.unknown(queryId, batchId));
    }

    @Override
    public BatchWriter beginBatch(BatchInfo info) {
        if (info.batchId() <= latest) {
            LOG.info("Skipping already committed batch {} in {}", info.batchId(), output);
            return BatchWriter.discarding(-1);
        }
        return new Batch(info.batchId());
    }

    @Override
    public String description() {
        return "FileSink[" + options.pathOption + "]";
    }

    @Override
    public void close() {
        closeQuietly(storage);
    }

    private static void closeQuietly(Storage s) {
        if (s != null) {
            try {
                s.close();
            } catch (IOException | RuntimeException e) {
                LOG.warn("Closing the file sink's storage failed", e);
            }
        }
    }

    /** A data file written whole. */
    private record Written(String uri, long size, long modificationTime) {
    }

    private final class Batch implements BatchWriter {
        private final long batchId;

        Batch(long batchId) {
            this.batchId = batchId;
        }

        @Override
        public PartitionWriter partitionWriter(int partitionId) {
            return new Partition(partitionId);
        }

        @Override
        public void commit(List<Object> partitionResults) throws IOException {
            List<Written> files = new ArrayList<>();
            for (Object r : partitionResults) {
                if (r instanceof List<?> list) {
                    for (Object o : list) {
                        files.add((Written) o);
                    }
                }
            }
            List<SinkFileStatus> entries = new ArrayList<>(files.size());
            for (Written f : files) {
                entries.add(new SinkFileStatus(f.uri(), f.size(), false, f.modificationTime(), 1,
                        SinkFileStatus.LOCAL_BLOCK_SIZE, SinkFileStatus.ADD_ACTION));
            }
            String target = manifestUri(batchId);
            boolean created;
            try {
                created = storage.createExclusive(target, manifest(entries));
            } catch (IOException | RuntimeException e) {
                deleteQuietly(files, e);
                throw e;
            }
            if (!created) {
                IllegalStateException lost = new IllegalStateException(target + " already exists: another query "
                        + "committed batch " + batchId + " into " + output + " first (the manifest entry is created "
                        + "only if absent, so exactly one writer commits a batch). Two queries must not write one "
                        + "folder: give each query its own path.");
                deleteQuietly(files, lost);
                throw lost;
            }
            latest = Math.max(latest, batchId);
            LOG.debug("Committed batch {} to {}: {} file(s)", batchId, output, files.size());
        }

        /** Batch N's manifest content: its entries, or for a compaction batch everything since the last one. */
        private byte[] manifest(List<SinkFileStatus> entries) throws IOException {
            long now = clock.millis();
            StringBuilder sb = new StringBuilder(64 + entries.size() * 220);
            sb.append('v').append(SinkLog.VERSION);
            if (SinkLog.isCompactionBatch(batchId, compactInterval)) {
                for (long id = Math.max(0, batchId - compactInterval); id < batchId; id++) {
                    String uri = manifestUri(id);
                    if (storage.status(uri).isEmpty()) {
                        throw new IllegalStateException(uri + " doesn't exist when compacting batch " + batchId
                                + " (compactInterval: " + compactInterval + ")");
                    }
                    try (BufferedReader r = new BufferedReader(new InputStreamReader(storage.open(uri, null),
                            StandardCharsets.UTF_8))) {
                        String version = r.readLine();
                        if (version == null || !version.equals("v" + SinkLog.VERSION)) {
                            throw new IllegalStateException("Log file " + uri + " is incomplete or of another "
                                    + "version (" + version + ")");
                        }
                        String line;
                        while ((line = r.readLine()) != null) {
                            if (!line.isEmpty() && (options.retentionMs == Long.MAX_VALUE
                                    || now - SinkLog.modificationTime(line, Path.of(uri)) <= options.retentionMs)) {
                                sb.append('\n').append(line);
                            }
                        }
                    }
                }
            }
            for (SinkFileStatus s : entries) {
                if (options.retentionMs == Long.MAX_VALUE || now - s.modificationTime() <= options.retentionMs) {
                    sb.append('\n').append(s.toJson());
                }
            }
            return sb.toString().getBytes(StandardCharsets.UTF_8);
        }

        @Override
        public void abort(Throwable cause) {
            // The partitions deleted their files when aborted; published ones of committed partitions are orphans
            // that no manifest lists.
        }
    }

    private void deleteQuietly(List<Written> files, Throwable primary) {
        for (Written f : files) {
            try {
                storage.delete(f.uri());
            } catch (IOException | RuntimeException e) {
                primary.addSuppressed(e);
            }
        }
    }

    private final class Partition implements PartitionWriter {
        private final int partitionId;
        private final LinkedHashMap<String, OutputFile> open = new LinkedHashMap<>(16, 0.75f, true);
        private final List<Written> done = new ArrayList<>();

        Partition(int partitionId) {
            this.partitionId = partitionId;
        }

        @Override
        public void write(Row row) throws IOException {
            String folder = partitioned ? partitionPaths.folderOf(row) : "";
            OutputFile f = open.get(folder);
            if (f == null) {
                while (!open.isEmpty() && (open.size() >= FileSink.MAX_OPEN_FILES || !encoders.mayOpenAnother())) {
                    var eldest = open.entrySet().iterator();
                    OutputFile old = eldest.next().getValue();
                    eldest.remove();
                    done.add(old.finish());
                }
                f = new OutputFile(folder, partitionId);
                open.put(folder, f);
            }
            f.encoder.write(row);
        }

        @Override
        public Object commit() throws IOException {
            for (OutputFile f : open.values()) {
                done.add(f.finish());
            }
            open.clear();
            return List.copyOf(done);
        }

        @Override
        public void abort() {
            open.values().forEach(OutputFile::discard);
            open.clear();
            for (Written w : done) {
                try {
                    storage.delete(w.uri());
                } catch (IOException | RuntimeException e) {
                    LOG.debug("Could not delete {}", w.uri(), e);
                }
            }
        }
    }

    /** One data file, published whole when finished. */
    private final class OutputFile {
        final String uri;
        final WholeObjectOutput out;
        final FileSink.Counting counting;
        final BufferedOutputStream buffered;
        final GZIPOutputStream gzip;
        final FormatEncoder encoder;

        OutputFile(String folder, int partitionId) throws IOException {
            String name = String.format("part-%05d-%s-c000%s", partitionId, UUID.randomUUID(), extension);
            this.uri = output + "/" + (folder.isEmpty() ? name : folder + "/" + name);
            this.out = storage.create(uri, false);
            try {
                this.counting = new FileSink.Counting(out, Path.of(uri));
                this.buffered = new BufferedOutputStream(counting, 64 * 1024);
                this.gzip = options.gzip ? new GZIPOutputStream(buffered, 64 * 1024) : null;
                this.encoder = encoders.open(gzip != null ? gzip : buffered);
            } catch (IOException | RuntimeException e) {
                out.abort();
                throw e;
            }
        }

        Written finish() throws IOException {
            try {
                encoder.finish();
                if (gzip != null) {
                    gzip.finish();
                }
                buffered.flush();
                out.close(); // published whole here
            } catch (IOException | RuntimeException e) {
                out.abort();
                throw e;
            }
            return new Written(uri, counting.count, clock.millis());
        }

        void discard() {
            try {
                encoder.discard();
            } catch (RuntimeException e) {
                LOG.debug("Could not discard the encoder of {}", uri, e);
            }
            out.abort();
        }
    }
}
