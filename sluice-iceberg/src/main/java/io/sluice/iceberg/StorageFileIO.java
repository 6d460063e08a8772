package io.sluice.iceberg;

import io.sluice.api.io.Storage;
import io.sluice.api.io.Storages;
import io.sluice.api.io.StoredObject;
import io.sluice.api.io.WholeObjectOutput;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.exceptions.NotFoundException;
import org.apache.iceberg.exceptions.RuntimeIOException;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.OutputFile;
import org.apache.iceberg.io.PositionOutputStream;
import org.apache.iceberg.io.SeekableInputStream;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.NoSuchFileException;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Iceberg's {@link FileIO} over Sluice's {@link Storage} contract, so that tables live on any store Sluice has a
 * storage for ({@code s3://}, {@code s3a://} through sluice-s3) without Hadoop's S3A. Reads are ranged reads of the
 * object, writes are whole objects made visible at close; {@link OutputFile#create()} is an exclusive create, as
 * Iceberg needs for its metadata files. The catalog's commit (a JDBC or REST catalog) is what makes a table's
 * commit atomic: Iceberg's Hadoop catalog renames a file to commit, which S3 cannot do atomically.
 *
 * <p>Set as a catalog's {@code io-impl} (Sluice does it for a catalog whose warehouse is not local); the storage's
 * settings are the catalog properties starting with {@code fs.} ({@code fs.s3a.endpoint}...), given as the source's or
 * sink's {@code fs.*} options.
 */
public final class StorageFileIO implements FileIO {

    private Map<String, String> properties = Map.of();
    private Map<String, String> storageConf = Map.of();
    /** One storage per scheme and authority (bucket), opened on first use and closed with this FileIO. */
    private final Map<String, Storage> storages = new ConcurrentHashMap<>();

    /** Made by Iceberg's CatalogUtil.loadFileIO, then {@link #initialize}. */
    public StorageFileIO() {
    }

    @Override
    public void initialize(Map<String, String> props) {
        this.properties = Map.copyOf(props);
        Map<String, String> conf = new HashMap<>();
        props.forEach((k, v) -> {
            if (k.startsWith("fs.")) {
                conf.put(k, v);
            }
        });
        this.storageConf = Map.copyOf(conf);
    }

    @Override
    public Map<String, String> properties() {
        return properties;
    }

    private Storage storage(String location) {
        if (Storages.isLocal(location)) {
            return Storages.local();
        }
        int slash = location.indexOf('/', location.indexOf("://") + 3);
        String root = (slash < 0 ? location : location.substring(0, slash)).toLowerCase(Locale.ROOT);
        return storages.computeIfAbsent(root, r -> {
            try {
                return Storages.of(location, storageConf);
            } catch (IOException e) {
                throw new UncheckedIOException(e.getMessage(), e);
            }
        });
    }

    @Override
    public InputFile newInputFile(String location) {
        return new In(location, -1);
    }

    @Override
    public InputFile newInputFile(String location, long length) {
        return new In(location, length);
    }

    @Override
    public OutputFile newOutputFile(String location) {
        return new Out(location);
    }

    @Override
    public void deleteFile(String location) {
        try {
            storage(location).delete(location);
        } catch (IOException e) {
            throw new RuntimeIOException(e, "Cannot delete %s", location);
        }
    }

    @Override
    public void close() {
        for (Storage s : storages.values()) {
            try {
                s.close();
            } catch (IOException e) {
                // Closing releases connections only; nothing is lost when it fails.
            }
        }
        storages.clear();
    }

    private final class In implements InputFile {
        private final String location;
        private long length;

        In(String location, long length) {
            this.location = location;
            this.length = length;
        }

        private Optional<StoredObject> status() {
            try {
                return storage(location).status(location);
            } catch (IOException e) {
                throw new RuntimeIOException(e, "Cannot read the status of %s", location);
            }
        }

        @Override
        public long getLength() {
            if (length < 0) {
                length = status().orElseThrow(() -> new NotFoundException("File does not exist: %s", location))
                        .size();
            }
            return length;
        }

        @Override
        public SeekableInputStream newStream() {
            return new Seekable(storage(location), location, getLength());
        }

        @Override
        public String location() {
            return location;
        }

        @Override
        public boolean exists() {
            return status().isPresent();
        }
    }

    /**
     * Seeks by reopening a ranged read at the new position (Parquet reads a footer, then column chunks: a few
     * reads per file); a forward seek within a small distance skips instead.
     */
    private static final class Seekable extends SeekableInputStream {
        private static final long SKIP_WITHIN = 64 * 1024;
        private final Storage storage;
        private final String location;
        private final long length;
        private InputStream in;
        private long pos;
        private long streamPos = -1;

        Seekable(Storage storage, String location, long length) {
            this.storage = storage;
            this.location = location;
            this.length = length;
        }

        @Override
        public long getPos() {
            return pos;
        }

        @Override
        public void seek(long newPos) {
            if (newPos < 0) {
                throw new IllegalArgumentException("Cannot seek to a negative position " + newPos + " in " + location);
            }
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
                in = storage.open(location, pos, Math.max(0, length - pos), null);
            } catch (NoSuchFileException e) {
                throw new NotFoundException(e, "File does not exist: %s", location);
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
        public void close() throws IOException {
            if (in != null) {
                in.close();
                in = null;
            }
        }
    }

    private final class Out implements OutputFile {
        private final String location;

        Out(String location) {
            this.location = location;
        }

        private PositionOutputStream open(boolean overwrite) {
            try {
                if (!overwrite && storage(location).status(location).isPresent()) {
                    throw new AlreadyExistsException("File already exists: %s", location);
                }
                return new Positioned(storage(location).create(location, overwrite), location);
            } catch (IOException e) {
                throw new RuntimeIOException(e, "Cannot create %s", location);
            }
        }

        @Override
        public PositionOutputStream create() {
            return open(false);
        }

        @Override
        public PositionOutputStream createOrOverwrite() {
            return open(true);
        }

        @Override
        public String location() {
            return location;
        }

        @Override
        public InputFile toInputFile() {
            return newInputFile(location);
        }
    }

    /** Counts the bytes written; the object becomes visible whole at close (exclusively, unless overwriting). */
    private static final class Positioned extends PositionOutputStream {
        private final WholeObjectOutput out;
        private final String location;
        private long pos;

        Positioned(WholeObjectOutput out, String location) {
            this.out = out;
            this.location = location;
        }

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
        public void flush() throws IOException {
            out.flush();
        }

        @Override
        public void close() throws IOException {
            try {
                out.close();
            } catch (FileAlreadyExistsException e) {
                throw new AlreadyExistsException(e, "File already exists: %s", location);
            }
        }
    }
}
