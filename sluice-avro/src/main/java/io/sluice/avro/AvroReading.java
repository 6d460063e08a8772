package io.sluice.avro;

import io.sluice.api.Row;
import io.sluice.api.types.StructType;
import io.sluice.files.format.FileFormatReader;
import io.sluice.files.format.RowIterator;
import org.apache.avro.Schema;
import org.apache.avro.file.DataFileReader;
import org.apache.avro.file.SeekableInput;
import org.apache.avro.generic.GenericDatumReader;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.channels.ClosedByInterruptException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Reads Avro object container files into rows of the source's data schema, as spark-avro's {@code AvroFileFormat}
 * does: each file with its own writer schema, resolved against {@code avroSchema} when given, the columns matched
 * to the (reader) record's fields by name, case-insensitively, or by position. Spark applies no parse mode to Avro
 * files: a file that is not Avro, a damaged or truncated block, a datum that does not decode, a column whose type
 * the file's type does not fit each fail with {@code [FAILED_READ_FILE.NO_HINT]} naming the file and Avro's reason
 * (the file source's {@code ignoreCorruptFiles} skips the rest of such a file, keeping the rows read).
 * Thread-safe: one {@link #open} per file and thread; conversions are compiled once per file schema.
 */
final class AvroReading implements FileFormatReader {
    private final StructType schema;
    private final AvroOptionDefs.Read options;
    private final Map<Schema, AvroToSluice.Conv> conversions = new ConcurrentHashMap<>();

    AvroReading(StructType schema, AvroOptionDefs.Read options) {
        this.schema = schema;
        this.options = options;
    }

    @Override
    public RowIterator open(Path file) throws IOException {
        if (io.sluice.files.fs.ObjectFiles.owner(file).isEmpty()
                && !Files.readAttributes(file, BasicFileAttributes.class).isRegularFile()) {
            throw new IOException("Cannot read " + file + ": it is not a regular file (a FIFO, socket, device or "
                    + "directory), so it is not data; reading a FIFO could block forever");
        }
        if (!options.ignoreExtension() && !file.getFileName().toString().endsWith(".avro")) {
            return Empty.INSTANCE; // Spark's ignoreExtension=false: such files have no rows
        }
        GenericDatumReader<Object> datumReader = new GenericDatumReader<>();
        if (options.avroSchema() != null) {
            datumReader.setExpected(options.avroSchema());
        }
        SeekableInput in = AvroInputs.open(file);
        DataFileReader<Object> reader;
        try {
            reader = new DataFileReader<>(in, datumReader);
        } catch (IOException | RuntimeException e) {
            in.close();
            throw readError(file, e);
        }
        try {
            Schema readSchema = options.avroSchema() != null ? options.avroSchema() : reader.getSchema();
            AvroToSluice.Conv conv = conversions.computeIfAbsent(readSchema,
                    s -> AvroToSluice.compile(s, schema, options.positional()));
            return new Rows(file, reader, conv, in.length());
        } catch (RuntimeException e) {
            reader.close();
            throw e;
        }
    }

    /** Spark's {@code FAILED_READ_FILE.NO_HINT} naming the file, then Avro's reason. */
    static IOException readError(Path file, Throwable e) {
        if (e instanceof InterruptedIOException || e instanceof ClosedByInterruptException) {
            return (IOException) e;
        }
        Throwable shown = e;
        // Avro wraps an IOException in an AvroRuntimeException whose message is the cause's toString().
        if (e instanceof org.apache.avro.AvroRuntimeException && e.getCause() != null
                && String.valueOf(e.getCause()).equals(e.getMessage())) {
            shown = e.getCause();
        }
        String reason = shown.getMessage() == null ? shown.getClass().getName() : shown.getMessage();
        return new IOException("[FAILED_READ_FILE.NO_HINT] Encountered error while reading file " + file.toUri()
                + ".  SQLSTATE: KD001 (" + reason + ")", e);
    }

    private static final class Rows implements RowIterator {
        private final Path file;
        private final DataFileReader<Object> reader;
        private final AvroToSluice.Conv conv;
        private final long length;
        private Object datum;
        private Row current;

        Rows(Path file, DataFileReader<Object> reader, AvroToSluice.Conv conv, long length) {
            this.file = file;
            this.reader = reader;
            this.conv = conv;
            this.length = length;
        }

        @Override
        public boolean next() throws IOException {
            try {
                if (!reader.hasNext()) {
                    // Avro ends a file quietly at an end of file inside a block (so Spark drops the block's rows
                    // without a word): a whole file ends right after its last block's sync marker.
                    long end = reader.previousSync();
                    if (end < length) {
                        throw new java.io.EOFException("Truncated Avro file: it ends inside the block at byte "
                                + end + " of " + length);
                    }
                    return false;
                }
                datum = reader.next(datum);
                current = (Row) conv.convert(datum);
                return true;
            } catch (IOException | RuntimeException | StackOverflowError e) {
                datum = null;
                throw readError(file, e);
            }
        }

        @Override
        public Row get() {
            return current;
        }

        @Override
        public void close() throws IOException {
            reader.close();
        }
    }

    private enum Empty implements RowIterator {
        INSTANCE;

        @Override
        public boolean next() {
            return false;
        }

        @Override
        public Row get() {
            throw new IllegalStateException("no row");
        }

        @Override
        public void close() {
        }
    }
}
