package io.sluice.files.format;

import java.io.IOException;
import java.nio.file.Path;

/**
 * Parses whole files of one format (json, csv, text), with fixed options, into rows of a fixed data schema.
 * Built once per query by {@link FileFormats#reader}; thread-safe: reader threads call {@link #open} concurrently.
 */
public interface FileFormatReader {

    /**
     * Opens one file. A name ending in {@code .gz} is decompressed. Rows follow the data schema's column order
     * (partition columns are not part of it). Malformed records follow the parse mode: PERMISSIVE (nulls, the raw
     * record in the corrupt-record column when the schema has it), DROPMALFORMED (skipped), FAILFAST (an
     * {@link IOException}, or an unchecked exception, naming the file and the line). A JSON value past a bound of
     * the parser is a malformed record whose reason names the bound. A file that is not a regular file (a FIFO, a
     * socket, a device, after following links) is refused with an {@link IOException} before it is opened, so an
     * open never blocks.
     */
    RowIterator open(Path file) throws IOException;

    /**
     * Whether {@link #open} reads each file once, from its start to its end, through the file's storage
     * ({@code FileStorage#open}), so that the source may have the next files of a partition fetched ahead
     * ({@code FileStorage#readAhead}). False, the default, for a format that reads parts of a file (Parquet's footer
     * and column chunks): a file fetched whole ahead would be fetched for nothing.
     */
    default boolean readsWholeFiles() {
        return false;
    }

    /**
     * Counts of this reader's work since it was made, summed over every {@link #open} (e.g. Parquet's
     * {@code numRowGroupsRead}), reported by the file source among its progress metrics. None by default.
     * Thread-safe.
     */
    default java.util.Map<String, Long> metrics() {
        return java.util.Map.of();
    }
}
