package io.sluice.files.source;

import io.sluice.api.Row;
import io.sluice.api.source.PartitionReader;
import io.sluice.files.fs.FileStorage;
import io.sluice.files.format.FileFormatReader;
import io.sluice.files.format.MalformedRecordException;
import io.sluice.files.format.RowIterator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.channels.ClosedByInterruptException;
import java.nio.file.NoSuchFileException;
import java.util.List;
import java.util.Map;

/**
 * Reads the files of one {@link FilePartition} one after another, adding partition values to each row.
 *
 * <p>Every failure to read a file names it (Spark's {@code Encountered error while reading file ...}) and says the
 * way out. {@code ignoreMissingFiles} skips a file that is gone when it is opened; {@code ignoreCorruptFiles} skips
 * the rest of a file that fails to open or to read (an {@link IOException} or a {@link RuntimeException}), keeping
 * the rows already read from it, as Spark's {@code FileScanRDD} does. Neither skips a FAILFAST malformed record
 * (the parse mode decides those) nor an interrupt (a stop), which are passed on as they are.
 */
final class FilePartitionReader implements PartitionReader {
    private static final Logger LOG = LoggerFactory.getLogger(FilePartitionReader.class);

    private final List<FilePartition.Slice> files;
    private final Map<String, Layout> layouts;
    private final Map<String, FileFormatReader> readers;
    private final FileStorage storage;
    private final Failures failures;
    private int next;
    private RowIterator current;
    private FilePartition.Slice slice;
    private Layout layout;
    private Object[] partitionValues;
    private Row row;
    /** The partition's files fetched ahead of the one being read, on an object store; made by the first next(). */
    private FileStorage.ReadAhead readAhead;

    /** What the source decides about files that fail: the messages, the ignore options, the counts. */
    interface Failures {
        /** The message for a logged file that does not exist any more. */
        String missing(String uri, long logOffset);

        /** The message for a file that fails to be read, with the reason. */
        String corrupt(String uri, long logOffset, String reason);

        boolean ignoreMissingFiles();

        boolean ignoreCorruptFiles();

        /** Counts a file skipped by ignoreMissingFiles. */
        void skippedMissing(String uri);

        /** Counts a file skipped by ignoreCorruptFiles. */
        void skippedCorrupt(String uri);
    }

    FilePartitionReader(FilePartition partition, Map<String, Layout> layouts, Map<String, FileFormatReader> readers,
                        FileStorage storage, Failures failures) {
        this.failures = failures;
        this.files = partition.files();
        this.layouts = layouts;
        this.readers = readers;
        this.storage = storage;
    }

    @Override
    public boolean next() throws IOException {
        if (readAhead == null) {
            readAhead = storage.readAhead(wholeFiles());
        }
        while (true) {
            if (current == null) {
                if (next >= files.size()) {
                    return false;
                }
                slice = files.get(next++);
                layout = layouts.get(slice.layout());
                partitionValues = slice.partitionValues().toArray();
                try {
                    current = readers.get(slice.layout()).open(storage.path(slice.uri()));
                } catch (NoSuchFileException | FileNotFoundException e) {
                    if (!failures.ignoreMissingFiles()) {
                        throw new IllegalStateException(failures.missing(slice.uri(), slice.logOffset()), e);
                    }
                    LOG.warn("Skipped missing file: {} (ignoreMissingFiles is true; counted in metric "
                            + "numMissingFilesSkipped)", slice.uri());
                    failures.skippedMissing(slice.uri());
                    continue;
                } catch (IOException | RuntimeException e) {
                    failed(e);
                    continue;
                }
            }
            boolean more;
            try {
                more = current.next();
            } catch (IOException | RuntimeException e) {
                closeQuietly(e);
                failed(e);
                continue;
            }
            if (more) {
                row = assemble(current.get());
                return true;
            }
            RowIterator done = current;
            current = null;
            done.close();
        }
    }

    /** The files whose format reads them whole, in the order they are read: those worth fetching ahead. */
    private List<FileStorage.FileToRead> wholeFiles() {
        List<FileStorage.FileToRead> out = new java.util.ArrayList<>(files.size());
        for (FilePartition.Slice s : files) {
            if (readers.get(s.layout()).readsWholeFiles()) {
                out.add(new FileStorage.FileToRead(storage.path(s.uri()), s.size()));
            }
        }
        return out;
    }

    /** A file that failed to open or to read: passed on naming it, or skipped with ignoreCorruptFiles. */
    private void failed(Exception e) throws IOException {
        if (e instanceof MalformedRecordException || isInterrupt(e)) {
            throw rethrow(e); // the parse mode's decision, or a stop: not a corrupt file
        }
        // A reader that could not throw an IOException wraps it: its message is the one that says what happened.
        Throwable shown = e instanceof java.io.UncheckedIOException && e.getCause() != null ? e.getCause() : e;
        String reason = shown.getMessage() == null ? shown.getClass().getSimpleName() : shown.getMessage();
        if (!failures.ignoreCorruptFiles()) {
            String message = failures.corrupt(slice.uri(), slice.logOffset(), reason);
            if (e instanceof IOException) {
                throw new IOException(message, e);
            }
            throw new IllegalStateException(message, e);
        }
        LOG.warn("Skipped the rest of the content in the corrupted file: {} ({}; ignoreCorruptFiles is true; "
                + "counted in metric numCorruptFilesSkipped)", slice.uri(), reason, e);
        failures.skippedCorrupt(slice.uri());
    }

    private static boolean isInterrupt(Exception e) {
        return e instanceof InterruptedIOException || e instanceof ClosedByInterruptException
                || Thread.currentThread().isInterrupted();
    }

    private static IOException rethrow(Exception e) {
        if (e instanceof IOException io) {
            return io;
        }
        throw (RuntimeException) e;
    }

    private void closeQuietly(Exception failure) {
        RowIterator c = current;
        current = null;
        if (c != null) {
            try {
                c.close();
            } catch (IOException | RuntimeException x) {
                failure.addSuppressed(x);
            }
        }
    }

    private Row assemble(Row data) {
        if (layout.isIdentity()) {
            return data;
        }
        int[] src = layout.sources;
        Object[] out = new Object[src.length];
        for (int i = 0; i < src.length; i++) {
            out[i] = src[i] >= 0 ? data.get(src[i]) : src[i] == Layout.NOT_READ ? null : partitionValues[-1 - src[i]];
        }
        return Row.wrap(out);
    }

    @Override
    public Row get() {
        return row;
    }

    @Override
    public void close() throws IOException {
        FileStorage.ReadAhead ahead = readAhead;
        readAhead = FileStorage.ReadAhead.NONE;
        try {
            if (current != null) {
                RowIterator c = current;
                current = null;
                c.close();
            }
        } finally {
            if (ahead != null) {
                ahead.close();
            }
        }
    }
}
