package io.sluice.files.sink;

import io.sluice.api.InvalidOptionException;
import io.sluice.api.Row;
import io.sluice.api.SluiceClock;
import io.sluice.api.io.DurableFiles;
import io.sluice.api.sink.BatchInfo;
import io.sluice.api.sink.BatchWriter;
import io.sluice.api.sink.PartitionWriter;
import io.sluice.api.sink.Sink;
import io.sluice.api.sink.SinkContext;
import io.sluice.api.types.AtomicType;
import io.sluice.api.types.DataType;
import io.sluice.api.types.DecimalType;
import io.sluice.api.types.StructType;
import io.sluice.files.format.FileFormat;
import io.sluice.files.format.FormatEncoder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.BufferedOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.zip.GZIPOutputStream;

/**
 * The file sink of one query run: Spark's FileStreamSink with its manifest, made crash-safe beyond Spark.
 *
 * <p>Batch N: each partition writer writes its rows to files in a hidden staging folder
 * ({@code <output>/.sluice-staging/<queryId>/}), fsyncs them and hands them to {@link Batch#commit}, which
 * records the planned final names ({@code <staging>/<N>.moving}), renames the files into place (their folders
 * fsynced), records the batch's identity ({@link SinkState}), then writes {@code _spark_metadata/N} atomically:
 * from that moment the batch is committed. A batch id the manifest already holds is skipped (nothing written) when
 * it comes with the recorded identity, so a re-run after a crash leaves one set of files; with another identity (a
 * checkpoint restored from an older copy) the query fails. On start the folder is claimed for the query
 * ({@link SinkState#claim}), the manifest checked ({@link ManifestCheck#atStart}), files renamed by an attempt that
 * crashed before its manifest deleted and the staging folder emptied.
 */
final class FileSink implements Sink {
    private static final Logger LOG = LoggerFactory.getLogger(FileSink.class);
    static final String STAGING_DIR = ".sluice-staging";
    private static final String MOVING_SUFFIX = ".moving";
    private static final int BUFFER = 64 * 1024;
    /**
     * Files a partition writer keeps open at once under partitionBy; the least recently used is finished (sooner
     * when the format's {@link FormatEncoder.Factory#mayOpenAnother} says no).
     */
    static final int MAX_OPEN_FILES = 64;

    private final FileSinkOptions options;
    private final SluiceClock clock;
    private final Path outputDir;
    private final Path staging;
    private final SinkLog log;
    private final SinkState state;
    private final String queryId;
    private final FormatEncoder.Factory encoders;
    private final PartitionPaths partitionPaths;
    private final boolean partitioned;
    private final String extension;
    /** Whether this run has begun a batch before: a skip after that means the folder is shared (a warning). */
    private boolean begun;

    private FileSink(FileSinkOptions options, SinkContext context, FormatEncoder.Factory encoders,
                     PartitionPaths partitionPaths) throws IOException {
        this.options = options;
        this.clock = context.clock();
        this.outputDir = options.outputDir;
        this.staging = outputDir.resolve(STAGING_DIR).resolve(context.queryId());
        this.encoders = encoders;
        this.partitionPaths = partitionPaths;
        this.partitioned = !options.partitionBy.isEmpty();
        this.extension = options.writing.extension(options.raw) + (options.gzip ? ".gz" : "");
        this.queryId = context.queryId();
        DurableFiles.createDirectories(outputDir);
        this.state = new SinkState(outputDir, options.minBatchesToRetain);
        state.claim(queryId, context.checkpointPath(),
                !SinkLog.list(outputDir.resolve(SinkLog.METADATA_DIR)).isEmpty());
        try {
            if (context.checkpointPath() != null) {
                ManifestCheck.atStart(outputDir, context.checkpointPath(), options.compactInterval);
            }
            this.log = new SinkLog(outputDir, options, clock);
            recoverStaging();
        } catch (IOException | RuntimeException e) {
            state.close();
            throw e;
        }
    }

    /** Checks the options against the schema and opens the output; every problem is thrown here, in start(). */
    static FileSink create(FileFormat format, SinkContext context) {
        FileSinkOptions options = FileSinkOptions.parse(format, context.options(), context.sessionTimeZone());
        StructType schema = context.schema();
        int[] partitionColumns = resolvePartitionColumns(options, schema);
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
        try {
            return new FileSink(options, context, encoders,
                    new PartitionPaths(partitionColumns, names, types, options.zone));
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot open the file sink's output " + options.outputDir + ": " + e, e);
        }
    }

    static int[] resolvePartitionColumns(FileSinkOptions options, StructType schema) {
        List<String> cols = options.partitionBy;
        String value = String.join(",", cols);
        int[] out = new int[cols.size()];
        Set<Integer> seen = new HashSet<>();
        for (int i = 0; i < cols.size(); i++) {
            int idx = schema.indexOf(cols.get(i));
            if (idx < 0) {
                throw new InvalidOptionException("partitionBy", value, "Partition column `" + cols.get(i)
                        + "` not found in schema " + schema.simpleString(), true);
            }
            if (!seen.add(idx)) {
                throw new InvalidOptionException("partitionBy", value, "[COLUMN_ALREADY_EXISTS] The column `"
                        + schema.field(idx).name().toLowerCase(java.util.Locale.ROOT)
                        + "` already exists. Choose another name or rename the existing column.", true);
            }
            DataType t = schema.field(idx).dataType();
            if (!(t instanceof AtomicType || t instanceof DecimalType)) {
                throw new InvalidOptionException("partitionBy", value, "[INVALID_PARTITION_COLUMN_DATA_TYPE] Cannot use "
                        + "\"" + t.sql() + "\" for partition column.", true);
            }
            out[i] = idx;
        }
        if (cols.size() > 0 && cols.size() == schema.size()) {
            throw new InvalidOptionException("partitionBy", value,
                    "[ALL_PARTITION_COLUMNS_NOT_ALLOWED] Cannot use all columns for partition columns.", true);
        }
        return out;
    }

    /**
     * Clears what a crashed run left: files renamed into place for a batch whose manifest was never written are
     * deleted (the manifest never listed them); staged files are dropped.
     */
    private void recoverStaging() throws IOException {
        if (!Files.isDirectory(staging)) {
            return;
        }
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(staging, "*" + MOVING_SUFFIX)) {
            for (Path marker : ds) {
                String name = marker.getFileName().toString();
                long batchId;
                try {
                    batchId = Long.parseLong(name.substring(0, name.length() - MOVING_SUFFIX.length()));
                } catch (NumberFormatException e) {
                    continue;
                }
                if (batchId > log.latestBatchId()) {
                    List<String> orphans = Files.readAllLines(marker, StandardCharsets.UTF_8);
                    for (String rel : orphans) {
                        if (!rel.isEmpty()) {
                            Files.deleteIfExists(outputDir.resolve(rel));
                        }
                    }
                    LOG.info("File sink {}: deleted {} file(s) of batch {}, moved into place by an attempt that "
                            + "stopped before committing it", outputDir, orphans.size(), batchId);
                }
                Files.deleteIfExists(marker);
            }
        }
        if (!deleteTree(staging)) {
            LOG.warn("File sink {}: could not clear the staging folder {}", outputDir, staging);
        }
    }

    @Override
    public BatchWriter beginBatch(long batchId) {
        return beginBatch(BatchInfo.unknown(queryId, batchId));
    }

    @Override
    public BatchWriter beginBatch(BatchInfo info) {
        long batchId = info.batchId();
        boolean first = !begun;
        begun = true;
        if (batchId <= log.latestBatchId()) {
            checkRerun(info);
            if (first) {
                LOG.info("Skipping already committed batch {} in {}", batchId, outputDir);
            } else {
                LOG.warn("Skipping batch {}: the manifest in {} already holds batches up to {}. Is another query "
                        + "writing to this folder?", batchId, outputDir, log.latestBatchId());
            }
            return BatchWriter.discarding(-1); // the manifest holds it already: rows are read and dropped
        }
        return new Batch(info);
    }

    /**
     * A batch id the manifest already holds: a re-run after a crash has the range recorded for it (then it is
     * skipped); any other range means the checkpoint was restored from an older copy than this folder, and
     * skipping would lose the batch's rows, so the query fails. Without a record (a folder written by Spark or an
     * older Sluice) the newest batch is trusted as a crash re-run.
     */
    private void checkRerun(BatchInfo info) {
        if (!info.known()) {
            return;
        }
        SinkState.Recorded recorded;
        boolean anyRecords;
        try {
            recorded = state.recorded(info.batchId());
            anyRecords = state.hasRecords();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read the file sink's batch records in " + outputDir, e);
        }
        String sink = "the file sink's output " + outputDir;
        String fresh = "a new output folder (path)";
        if (recorded == null) {
            if (info.batchId() < log.latestBatchId() && anyRecords) {
                throw new IllegalStateException(info.rangeConflict(sink, "a range no longer recorded (the sink "
                        + "keeps the ranges of its last " + options.minBatchesToRetain + " batches, and the manifest "
                        + "holds batches up to " + log.latestBatchId() + ")", info.range(), fresh));
            }
            return;
        }
        if (!recorded.digest().equals(info.digest())) {
            throw new IllegalStateException(info.rangeConflict(sink, recorded.range(), info.range(), fresh));
        }
    }

    @Override
    public String description() {
        return "FileSink[" + options.pathOption + "]";
    }

    /**
     * Removes this query's staging folder, and the staging root when no other query uses it; kept when it holds a
     * {@code .moving} record of files a failed commit could not take back (the next start deletes them).
     */
    @Override
    public void close() {
        try {
            clearStaging();
        } finally {
            state.close();
        }
    }

    private void clearStaging() {
        try (DirectoryStream<Path> markers = Files.newDirectoryStream(staging, "*" + MOVING_SUFFIX)) {
            if (markers.iterator().hasNext()) {
                return;
            }
        } catch (IOException e) {
            return; // no staging folder
        }
        deleteTree(staging);
        try {
            Files.deleteIfExists(staging.getParent());
        } catch (IOException e) {
            // Not empty (another query's staging) or not deletable: harmless, it is hidden.
        }
    }

    // ---------------------------------------------------------------- a batch being written

    /** A finished data file in the staging folder and where it goes. */
    private record Staged(Path staged, String finalRelative, long size, long modificationTime) {
    }

    private final class Batch implements BatchWriter {
        private final BatchInfo info;
        private final long batchId;
        private final Path dir;

        Batch(BatchInfo info) {
            this.info = info;
            this.batchId = info.batchId();
            this.dir = staging.resolve(batchId + "-" + UUID.randomUUID());
        }

        @Override
        public PartitionWriter partitionWriter(int partitionId) {
            return new Partition(this, partitionId);
        }

        @Override
        public void commit(List<Object> partitionResults) throws IOException {
            List<Staged> files = new ArrayList<>();
            for (Object r : partitionResults) {
                if (r instanceof List<?> list) {
                    for (Object o : list) {
                        files.add((Staged) o);
                    }
                }
            }
            if (batchId <= log.latestBatchId()) {
                deleteTree(dir);
                return;
            }
            Path manifestFile = log.fileFor(batchId);
            if (Files.exists(manifestFile)) {
                // Another writer committed this id while the batch ran: renaming would leave orphans behind.
                deleteTree(dir);
                throw new IllegalStateException(manifestFile + " already exists: another query wrote batch "
                        + batchId + " into " + outputDir + " while this one ran. Two queries must not write one "
                        + "folder: give each query its own path.");
            }
            Path marker = staging.resolve(batchId + MOVING_SUFFIX);
            List<Path> moved = new ArrayList<>(files.size());
            try {
                if (!files.isEmpty()) {
                    StringBuilder sb = new StringBuilder();
                    for (Staged f : files) {
                        sb.append(f.finalRelative()).append('\n');
                    }
                    Files.deleteIfExists(marker);
                    SinkLog.createNew(marker, clock.millis(),
                            out -> out.write(sb.toString().getBytes(StandardCharsets.UTF_8)));
                }
                Set<Path> folders = new LinkedHashSet<>();
                List<SinkFileStatus> entries = new ArrayList<>(files.size());
                for (Staged f : files) {
                    Path target = outputDir.resolve(f.finalRelative());
                    Path folder = target.getParent();
                    if (folders.add(folder)) {
                        DurableFiles.createDirectories(folder);
                    }
                    Files.move(f.staged(), target, StandardCopyOption.ATOMIC_MOVE); // the folders are fsynced below
                    moved.add(target);
                    entries.add(SinkFileStatus.added(target, f.size(), f.modificationTime()));
                }
                for (Path folder : folders) {
                    DurableFiles.fsyncFolder(folder);
                }
                state.record(info); // before the manifest: whenever the manifest holds N, its range is known
                log.add(batchId, entries);
            } catch (IOException | RuntimeException | Error e) {
                // The renamed files are ours to delete unless our manifest file made them committed; one that
                // appeared meanwhile (FileAlreadyExistsException) is another writer's and does not list them.
                if (!Files.exists(manifestFile) || e instanceof FileAlreadyExistsException) {
                    boolean allDeleted = true;
                    for (Path p : moved) {
                        try {
                            Files.deleteIfExists(p);
                        } catch (IOException suppressed) {
                            allDeleted = false;
                            e.addSuppressed(suppressed);
                        }
                    }
                    if (allDeleted) {
                        Files.deleteIfExists(marker);
                    }
                }
                throw e;
            }
            Files.deleteIfExists(marker);
            deleteTree(dir);
            LOG.debug("Committed batch {} to {}: {} file(s)", batchId, outputDir, files.size());
        }

        @Override
        public void abort(Throwable cause) {
            deleteTree(dir);
        }
    }

    // ---------------------------------------------------------------- one partition of a batch

    private final class Partition implements PartitionWriter {
        private final Batch batch;
        private final int partitionId;
        /** Open files by partition folder ("" without partitionBy), least recently used first. */
        private final LinkedHashMap<String, OutputFile> open = new LinkedHashMap<>(16, 0.75f, true);
        private final List<Staged> done = new ArrayList<>();
        private OutputFile single;

        Partition(Batch batch, int partitionId) {
            this.batch = batch;
            this.partitionId = partitionId;
        }

        @Override
        public void write(Row row) throws IOException {
            if (!partitioned) {
                if (single == null) {
                    single = new OutputFile(batch.dir, "", partitionId);
                }
                single.encoder.write(row);
                return;
            }
            String folder = partitionPaths.folderOf(row);
            OutputFile f = open.get(folder);
            if (f == null) {
                // Beyond its open files, or when the format's buffers are at their budget (Parquet), the least
                // recently used file is finished: a later row of its folder starts a new file.
                while (!open.isEmpty() && (open.size() >= MAX_OPEN_FILES || !encoders.mayOpenAnother())) {
                    Iterator<Map.Entry<String, OutputFile>> eldest = open.entrySet().iterator();
                    OutputFile old = eldest.next().getValue();
                    eldest.remove();
                    done.add(old.finish());
                }
                f = new OutputFile(batch.dir, folder, partitionId);
                open.put(folder, f);
            }
            f.encoder.write(row);
        }

        @Override
        public Object commit() throws IOException {
            if (single != null) {
                done.add(single.finish());
                single = null;
            }
            for (OutputFile f : open.values()) {
                done.add(f.finish());
            }
            open.clear();
            return List.copyOf(done);
        }

        @Override
        public void abort() {
            if (single != null) {
                single.discard();
            }
            open.values().forEach(OutputFile::discard);
            for (Staged s : done) {
                try {
                    Files.deleteIfExists(s.staged());
                } catch (IOException e) {
                    LOG.debug("Could not delete {}", s.staged(), e);
                }
            }
        }
    }

    /** One data file being written in the staging folder. */
    private final class OutputFile {
        final String finalRelative;
        final Path path;
        final FileChannel channel;
        final Counting counting;
        final BufferedOutputStream buffered;
        final GZIPOutputStream gzip;
        final FormatEncoder encoder;

        OutputFile(Path batchDir, String folder, int partitionId) throws IOException {
            String name = String.format("part-%05d-%s-c000%s", partitionId, UUID.randomUUID(), extension);
            this.finalRelative = folder.isEmpty() ? name : folder + "/" + name;
            Path parent = folder.isEmpty() ? batchDir : batchDir.resolve(folder);
            Files.createDirectories(parent);
            this.path = parent.resolve(name);
            this.channel = FileChannel.open(path, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
            try {
                this.counting = new Counting(Channels.newOutputStream(channel), path);
                this.buffered = new BufferedOutputStream(counting, BUFFER);
                this.gzip = options.gzip ? new GZIPOutputStream(buffered, BUFFER) : null;
                this.encoder = encoders.open(gzip != null ? gzip : buffered);
            } catch (IOException | RuntimeException e) {
                channel.close();
                Files.deleteIfExists(path);
                throw e;
            }
        }

        /** Flushes, stamps the modification time from the query's clock, fsyncs and closes. */
        Staged finish() throws IOException {
            try {
                encoder.finish();
                if (gzip != null) {
                    gzip.finish();
                }
                buffered.flush();
                long mtime = clock.millis();
                Files.setLastModifiedTime(path, FileTime.fromMillis(mtime));
                try {
                    channel.force(true);
                } catch (IOException e) {
                    throw Counting.naming(path, e);
                }
                return new Staged(path, finalRelative, counting.count, mtime);
            } finally {
                channel.close();
            }
        }

        void discard() {
            try {
                encoder.discard();
            } catch (RuntimeException e) {
                LOG.debug("Could not discard the encoder of {}", path, e);
            }
            try {
                channel.close();
                Files.deleteIfExists(path);
            } catch (IOException e) {
                LOG.debug("Could not delete {}", path, e);
            }
        }
    }

    /** Deletes a folder tree, best effort; returns false if something could not be deleted. */
    private static boolean deleteTree(Path dir) {
        if (!Files.exists(dir)) {
            return true;
        }
        boolean ok = true;
        try (var paths = Files.walk(dir)) {
            for (Path p : (Iterable<Path>) paths.sorted(Comparator.reverseOrder())::iterator) {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException e) {
                    ok = false;
                }
            }
        } catch (IOException | UncheckedIOException e) {
            ok = false;
        }
        return ok;
    }

    /**
     * Counts the bytes that reach the file (after compression). A failed write names the file: the JDK's channel
     * errors (a full disk's "No space left on device", a quota) do not.
     */
    static final class Counting extends FilterOutputStream {
        private final Path path;
        long count;

        Counting(OutputStream out, Path path) {
            super(out);
            this.path = path;
        }

        @Override
        public void write(int b) throws IOException {
            try {
                out.write(b);
            } catch (IOException e) {
                throw naming(path, e);
            }
            count++;
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            try {
                out.write(b, off, len);
            } catch (IOException e) {
                throw naming(path, e);
            }
            count += len;
        }

        /** The error, with the file named in its message unless it already is (a FileSystemException's is). */
        static IOException naming(Path path, IOException e) {
            String message = String.valueOf(e.getMessage());
            if (message.contains(path.toString())) {
                return e;
            }
            return new IOException("Cannot write the file sink's output file " + path + ": " + message, e);
        }
    }
}
