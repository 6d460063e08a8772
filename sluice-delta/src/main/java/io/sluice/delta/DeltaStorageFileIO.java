package io.sluice.delta;

import io.delta.kernel.defaults.engine.fileio.FileIO;
import io.delta.kernel.defaults.engine.fileio.InputFile;
import io.delta.kernel.defaults.engine.fileio.OutputFile;
import io.delta.kernel.defaults.engine.fileio.PositionOutputStream;
import io.delta.kernel.defaults.engine.fileio.SeekableInputStream;
import io.delta.kernel.utils.CloseableIterator;
import io.delta.kernel.utils.FileStatus;
import io.sluice.api.io.Storage;
import io.sluice.api.io.StoredObject;
import io.sluice.api.io.WholeObjectOutput;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.NoSuchFileException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Kernel's {@link FileIO} (what its default engine does all file work through) over Sluice's {@link Storage}, for
 * tables on an object store ({@code s3a://}, {@code s3://}) without Hadoop's S3A. A commit file is written with
 * {@link Storage#createExclusive} (S3's {@code If-None-Match: *}): of two writers committing version N, exactly one
 * succeeds and the other gets {@link FileAlreadyExistsException}, which Kernel's transaction takes as a conflict to
 * resolve and retry, as delta-spark's S3 log stores need a DynamoDB table for.
 */
final class DeltaStorageFileIO implements FileIO {

    private final Storage storage;
    private final Map<String, String> conf;

    DeltaStorageFileIO(Storage storage, Map<String, String> conf) {
        this.storage = storage;
        this.conf = Map.copyOf(conf);
    }

    private static String parentPrefix(String path) {
        return path.substring(0, path.lastIndexOf('/') + 1);
    }

    /** The files of {@code filePath}'s folder (not below it) whose names sort at or after its name. */
    @Override
    public CloseableIterator<FileStatus> listFrom(String filePath) throws IOException {
        String prefix = parentPrefix(filePath);
        String from = filePath.substring(prefix.length());
        List<FileStatus> out = new ArrayList<>();
        boolean[] any = {false};
        storage.list(prefix, null, o -> {
            any[0] = true;
            String name = o.uri().substring(prefix.length());
            if (name.indexOf('/') < 0 && name.compareTo(from) >= 0) {
                out.add(FileStatus.of(o.uri(), o.size(), o.lastModified()));
            }
            return true;
        });
        if (!any[0]) {
            // An object store has no folders: nothing under the prefix is Hadoop's missing directory, which Kernel
            // takes for a missing table.
            throw new FileNotFoundException("No such folder: " + prefix);
        }
        Iterator<FileStatus> it = out.iterator();
        return new CloseableIterator<>() {
            @Override
            public boolean hasNext() {
                return it.hasNext();
            }

            @Override
            public FileStatus next() {
                return it.next();
            }

            @Override
            public void close() {
            }
        };
    }

    @Override
    public FileStatus getFileStatus(String path) throws IOException {
        StoredObject o = storage.status(path).orElseThrow(() -> new FileNotFoundException("No such file: " + path));
        return FileStatus.of(o.uri(), o.size(), o.lastModified());
    }

    @Override
    public String resolvePath(String path) {
        return path;
    }

    @Override
    public boolean mkdirs(String path) {
        return true;
    }

    @Override
    public InputFile newInputFile(String path, long fileSize) {
        return new InputFile() {
            // Kernel gives size 0 for a file it has not listed (_last_checkpoint): then the size is looked up, and
            // a missing file is FileNotFoundException, which Kernel takes for "no checkpoint" (anything else it
            // retries three times, a second apart).
            private long size = fileSize > 0 ? fileSize : -1;

            @Override
            public long length() throws IOException {
                if (size < 0) {
                    size = getFileStatus(path).getSize();
                }
                return size;
            }

            @Override
            public String path() {
                return path;
            }

            @Override
            public SeekableInputStream newStream() throws IOException {
                return new Seekable(storage, path, length());
            }
        };
    }

    @Override
    public OutputFile newOutputFile(String path) {
        return new OutputFile() {
            @Override
            public String path() {
                return path;
            }

            @Override
            public PositionOutputStream create(boolean putIfAbsent) throws IOException {
                WholeObjectOutput out = storage.create(path, !putIfAbsent);
                return new PositionOutputStream() {
                    private long pos;

                    @Override
                    public long getPos() {
                        return pos;
                    }

                    @Override
                    public void write(int b) throws IOException {
                        out.write(b);
                        pos++;
                    }

                    @Override
                    public void write(byte[] b, int off, int len) throws IOException {
                        out.write(b, off, len);
                        pos += len;
                    }

                    @Override
                    public void close() throws IOException {
                        out.close();
                    }
                };
            }

            @Override
            public void writeAtomically(CloseableIterator<String> data, boolean overwrite) throws IOException {
                ByteArrayOutputStream bytes = new ByteArrayOutputStream();
                try (data) {
                    while (data.hasNext()) {
                        bytes.write(data.next().getBytes(StandardCharsets.UTF_8));
                        bytes.write('\n');
                    }
                }
                if (overwrite) {
                    try (WholeObjectOutput out = storage.create(path, true)) {
                        bytes.writeTo(out);
                    }
                } else if (!storage.createExclusive(path, bytes.toByteArray())) {
                    throw new FileAlreadyExistsException(path);
                }
            }
        };
    }

    @Override
    public boolean delete(String path) throws IOException {
        return storage.delete(path);
    }

    @Override
    public Optional<String> getConf(String key) {
        return Optional.ofNullable(conf.get(key));
    }

    /** Seeks by reopening a ranged read at the new position; a short forward seek skips instead. */
    private static final class Seekable extends SeekableInputStream {
        private static final long SKIP_WITHIN = 64 * 1024;
        private final Storage storage;
        private final String path;
        private final long length;
        private InputStream in;
        private long pos;
        private long streamPos = -1;

        Seekable(Storage storage, String path, long length) {
            this.storage = storage;
            this.path = path;
            this.length = length;
        }

        @Override
        public long getPos() {
            return pos;
        }

        @Override
        public void seek(long newPos) {
            pos = newPos;
        }

        private InputStream stream() throws IOException {
            if (in != null && streamPos == pos) {
                return in;
            }
            if (in != null && pos > streamPos && pos - streamPos <= SKIP_WITHIN) {
                in.skipNBytes(pos - streamPos);
                streamPos = pos;
                return in;
            }
            if (in != null) {
                in.close();
            }
            try {
                in = storage.open(path, pos, Math.max(0, length - pos), null);
            } catch (NoSuchFileException e) {
                throw new FileNotFoundException("No such file: " + path);
            }
            streamPos = pos;
            return in;
        }

        @Override
        public int read() throws IOException {
            if (pos >= length) {
                return -1;
            }
            int b = stream().read();
            if (b >= 0) {
                pos++;
                streamPos++;
            }
            return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (len == 0) {
                return 0;
            }
            if (pos >= length) {
                return -1;
            }
            int n = stream().read(b, off, len);
            if (n > 0) {
                pos += n;
                streamPos += n;
            }
            return n;
        }

        @Override
        public void readFully(byte[] b, int off, int len) throws IOException {
            int done = 0;
            while (done < len) {
                int n = read(b, off + done, len - done);
                if (n < 0) {
                    throw new EOFException("End of " + path + " after " + pos + " bytes, " + (len - done)
                            + " more were asked for");
                }
                done += n;
            }
        }

        @Override
        public void close() throws IOException {
            if (in != null) {
                in.close();
                in = null;
            }
        }
    }
}
