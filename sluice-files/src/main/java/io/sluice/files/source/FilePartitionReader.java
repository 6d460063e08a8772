package io.sluice.files.source;

import io.sluice.api.Row;
import io.sluice.api.source.PartitionReader;
import io.sluice.files.fs.FileStorage;
import io.sluice.files.format.FileFormatReader;
import io.sluice.files.format.RowIterator;

import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.util.List;
import java.util.Map;

/** Reads the files of one {@link FilePartition} one after another, adding partition values to each row. */
final class FilePartitionReader implements PartitionReader {
    private final List<FilePartition.Slice> files;
    private final Map<String, Layout> layouts;
    private final Map<String, FileFormatReader> readers;
    private final FileStorage storage;
    private int next;
    private RowIterator current;
    private Layout layout;
    private Object[] partitionValues;
    private Row row;

    /** Explains a file that vanished: its URI and log offset give the message. */
    interface MissingFile {
        String message(String uri, long logOffset);
    }

    private final MissingFile missing;

    FilePartitionReader(FilePartition partition, Map<String, Layout> layouts, Map<String, FileFormatReader> readers,
                        FileStorage storage, MissingFile missing) {
        this.missing = missing;
        this.files = partition.files();
        this.layouts = layouts;
        this.readers = readers;
        this.storage = storage;
    }

    @Override
    public boolean next() throws IOException {
        while (true) {
            if (current == null) {
                if (next >= files.size()) {
                    return false;
                }
                FilePartition.Slice s = files.get(next++);
                layout = layouts.get(s.layout());
                partitionValues = s.partitionValues().toArray();
                try {
                    current = readers.get(s.layout()).open(storage.path(s.uri()));
                } catch (NoSuchFileException e) {
                    throw new IllegalStateException(missing.message(s.uri(), s.logOffset()), e);
                }
            }
            if (current.next()) {
                row = assemble(current.get());
                return true;
            }
            RowIterator done = current;
            current = null;
            done.close();
        }
    }

    private Row assemble(Row data) {
        if (!layout.hasPartitions()) {
            return data;
        }
        int[] src = layout.sources;
        Object[] out = new Object[src.length];
        for (int i = 0; i < src.length; i++) {
            out[i] = src[i] >= 0 ? data.get(src[i]) : partitionValues[-1 - src[i]];
        }
        return Row.wrap(out);
    }

    @Override
    public Row get() {
        return row;
    }

    @Override
    public void close() throws IOException {
        if (current != null) {
            RowIterator c = current;
            current = null;
            c.close();
        }
    }
}
