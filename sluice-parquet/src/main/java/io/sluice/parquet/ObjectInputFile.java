package io.sluice.parquet;

import io.sluice.files.fs.ObjectFiles;
import io.sluice.files.fs.RangedInput;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.LocalInputFile;
import org.apache.parquet.io.SeekableInputStream;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Optional;

/**
 * parquet-java's {@link InputFile} for a file of the file source: a local file ({@link LocalInputFile}), or an
 * object of an object store read with ranged GETs pinned to its listed version ({@link RangedInput}), without
 * Hadoop. Each {@link #newStream()} is a new {@link RangedInput}.
 */
final class ObjectInputFile implements InputFile {
    private final Path path;
    private final long length;
    /** The input opened to learn the length, handed to the first stream (saves a status request). */
    private RangedInput first;

    private ObjectInputFile(Path path, RangedInput first) {
        this.path = path;
        this.length = first.length();
        this.first = first;
    }

    /** The input for {@code file}: local, or an object store's. */
    static InputFile of(Path file) throws IOException {
        Optional<RangedInput> probe = ObjectFiles.ranged(file);
        if (probe.isEmpty()) {
            return new LocalInputFile(file);
        }
        return new ObjectInputFile(file, probe.get());
    }

    /** True when {@code file} names an object of an open object storage (no local checks apply to it). */
    static boolean isObject(Path file) {
        return io.sluice.files.fs.ObjectFiles.owner(file).isPresent();
    }

    @Override
    public long getLength() {
        return length;
    }

    @Override
    public SeekableInputStream newStream() throws IOException {
        RangedInput in;
        synchronized (this) {
            in = first != null ? first : ObjectFiles.ranged(path).orElseThrow();
            first = null;
        }
        return new SeekableInputStream() {
            private final byte[] one = new byte[1];

            @Override
            public long getPos() {
                return in.position();
            }

            @Override
            public void seek(long newPos) throws IOException {
                in.seek(newPos);
            }

            @Override
            public int read() throws IOException {
                int n = in.read(one, 0, 1);
                return n < 0 ? -1 : one[0] & 0xFF;
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                return in.read(b, off, len);
            }

            @Override
            public void readFully(byte[] bytes) throws IOException {
                in.readFully(bytes, 0, bytes.length);
            }

            @Override
            public void readFully(byte[] bytes, int start, int len) throws IOException {
                in.readFully(bytes, start, len);
            }

            @Override
            public int read(ByteBuffer buf) throws IOException {
                if (!buf.hasRemaining()) {
                    return 0;
                }
                if (buf.hasArray()) {
                    int n = in.read(buf.array(), buf.arrayOffset() + buf.position(), buf.remaining());
                    if (n > 0) {
                        buf.position(buf.position() + n);
                    }
                    return n;
                }
                byte[] tmp = new byte[Math.min(buf.remaining(), 1 << 16)];
                int n = in.read(tmp, 0, tmp.length);
                if (n > 0) {
                    buf.put(tmp, 0, n);
                }
                return n;
            }

            @Override
            public void readFully(ByteBuffer buf) throws IOException {
                while (buf.hasRemaining()) {
                    if (read(buf) < 0) {
                        throw new EOFException("Reached the end of " + in.uri() + " with " + buf.remaining()
                                + " bytes still to read");
                    }
                }
            }

            @Override
            public void close() throws IOException {
                in.close();
            }
        };
    }

    @Override
    public String toString() {
        return path.toString();
    }
}
