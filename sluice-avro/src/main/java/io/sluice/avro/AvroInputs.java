package io.sluice.avro;

import io.sluice.files.fs.ObjectFiles;
import io.sluice.files.fs.RangedInput;
import org.apache.avro.file.SeekableFileInput;
import org.apache.avro.file.SeekableInput;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Optional;

/**
 * Avro's {@link SeekableInput} for a file of the file source: a local file, or an object of an object store read
 * with ranged GETs pinned to its listed version ({@link RangedInput}).
 */
final class AvroInputs {
    private AvroInputs() {
    }

    /**
     * Opens {@code file}; a local one must be a regular file (a FIFO would block the reader forever).
     *
     * @throws java.nio.file.NoSuchFileException when it does not exist
     */
    static SeekableInput open(Path file) throws IOException {
        Optional<RangedInput> object = ObjectFiles.ranged(file);
        if (object.isPresent()) {
            RangedInput in = object.get();
            return new SeekableInput() {
                @Override
                public void seek(long p) throws IOException {
                    in.seek(p);
                }

                @Override
                public long tell() {
                    return in.position();
                }

                @Override
                public long length() {
                    return in.length();
                }

                @Override
                public int read(byte[] b, int off, int len) throws IOException {
                    return in.read(b, off, len);
                }

                @Override
                public void close() throws IOException {
                    in.close();
                }
            };
        }
        if (!Files.readAttributes(file, BasicFileAttributes.class).isRegularFile()) {
            throw new IOException("Cannot read " + file + ": it is not a regular file (a FIFO, socket, device or "
                    + "directory), so it is not data; reading a FIFO could block forever");
        }
        return new SeekableFileInput(file.toFile());
    }
}
