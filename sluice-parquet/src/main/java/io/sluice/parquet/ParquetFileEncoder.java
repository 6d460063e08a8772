package io.sluice.parquet;

import io.sluice.api.Row;
import io.sluice.files.format.FormatEncoder;
import org.apache.parquet.column.ColumnWriteStore;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.compression.CompressionCodecFactory;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.hadoop.ColumnChunkPageWriteStore;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.api.WriteSupport;
import org.apache.parquet.io.ColumnIOFactory;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.io.api.RecordConsumer;
import org.apache.parquet.schema.MessageType;

import java.io.IOException;
import java.util.Map;

/**
 * One Parquet file of the sink: parquet-java's file writer, page stores and column writers driven as its
 * {@code InternalParquetRecordWriter} drives them, but with the row group's size limit asked of the query's
 * {@link ParquetMemory} at each memory check, so that a file flushes its row group early when more files are open
 * (parquet-java's writer fixes its limit for the row group it is filling). Used by one thread.
 */
final class ParquetFileEncoder implements FormatEncoder {
    /** Rows between memory checks at most: bounds the overshoot when the share shrinks between two checks. */
    private static final long MAX_ROWS_BETWEEN_CHECKS = 1000;
    private static final long MIN_ROWS_BETWEEN_CHECKS = 1;

    private final ParquetFileWriter file;
    private final WriteSupport<Row> support;
    private final MessageType schema;
    private final Map<String, String> footer;
    private final CompressionCodecFactory.BytesInputCompressor compressor;
    private final ParquetProperties props;
    private final ParquetMemory memory;
    private final long blockSize;
    private ColumnChunkPageWriteStore pages;
    private ColumnWriteStore columns;
    private RecordConsumer consumer;
    private long rows;
    private long nextCheck;
    private int rowGroups;
    private boolean done;
    /** The bytes last reported to the budget; read by other threads of the query looking for the largest. */
    private volatile long reported;
    private final Thread owner = Thread.currentThread();

    ParquetFileEncoder(OutputFile out, WriteSupport<Row> support, Map<String, String> footer,
                       ParquetSinkSettings s, ParquetMemory memory, ParquetProperties.WriterVersion version)
            throws IOException {
        this.support = support;
        this.footer = footer;
        this.memory = memory;
        this.blockSize = s.blockSize();
        this.schema = support.init(new PlainParquetConfiguration()).getSchema();
        this.props = ParquetProperties.builder().withPageSize(s.pageSize()).withDictionaryEncoding(s.dictionary())
                .withWriterVersion(version).build();
        this.compressor = ParquetCodecs.INSTANCE.getCompressor(s.codec());
        this.file = new ParquetFileWriter(out, schema, ParquetFileWriter.Mode.CREATE, s.blockSize(), 0, null, props);
        file.start();
        startRowGroup();
        memory.opened(this);
    }

    private void startRowGroup() {
        pages = new ColumnChunkPageWriteStore(compressor, schema, props.getAllocator(),
                props.getColumnIndexTruncateLength(), props.getPageWriteChecksumEnabled(), null, rowGroups);
        columns = props.newColumnWriteStore(schema, pages, pages);
        consumer = new ColumnIOFactory(false).getColumnIO(schema).getRecordWriter(columns);
        support.prepareForWrite(consumer);
        nextCheck = Math.min(props.getMinRowCountForPageSizeCheck(), MAX_ROWS_BETWEEN_CHECKS);
    }

    @Override
    public void write(Row row) throws IOException {
        support.write(row);
        rows++;
        if (rows >= props.getRowGroupRowCountLimit()) {
            flushRowGroup();
            startRowGroup();
        } else if (rows >= nextCheck) {
            // parquet-java's row group size counts the buffered pages; the budget counts what the column
            // writers hold, dictionaries included (parquet-java's allocated size).
            long buffered = columns.getBufferedSize();
            long now = Math.max(buffered, columns.getAllocatedSize());
            report(now);
            long share = memory.share();
            long rowSize = Math.max(1, now / rows);
            // As parquet-java: flush within about two rows of the limit, better a little under than over.
            if (buffered > blockSize - 2 * Math.max(1, buffered / rows) || now > share - 2 * rowSize) {
                flushRowGroup();
                startRowGroup();
            } else {
                long room = (share - now) / rowSize / 2; // check again halfway to the limit
                nextCheck = rows + Math.max(MIN_ROWS_BETWEEN_CHECKS, Math.min(MAX_ROWS_BETWEEN_CHECKS, room));
                ParquetFileEncoder largest = memory.largestOfThisThreadIfOver();
                if (largest != null) {
                    largest.flushEarly();
                }
            }
        }
    }

    /** Flushes this file's row group now: the query's files hold more than the pool (same thread only). */
    private void flushEarly() throws IOException {
        flushRowGroup();
        startRowGroup();
    }

    private void report(long now) {
        memory.changed(now - reported);
        reported = now;
    }

    long reported() {
        return reported;
    }

    Thread owner() {
        return owner;
    }

    private void flushRowGroup() throws IOException {
        try {
            consumer.flush();
            if (rows > 0) {
                rowGroups++;
                file.startBlock(rows);
                columns.flush();
                pages.flushToFileWriter(file);
                rows = 0;
                file.endBlock();
            }
        } finally {
            columns.close();
            pages.close();
            report(0);
        }
    }

    @Override
    public void finish() throws IOException {
        if (done) {
            return;
        }
        done = true;
        try {
            flushRowGroup();
            file.end(footer);
        } finally {
            memory.closed(this, reported);
        }
    }

    @Override
    public void discard() {
        if (!done) {
            done = true;
            memory.closed(this, reported);
            columns.close();
            pages.close();
        }
    }

    /** Row groups written so far (tests). */
    int rowGroups() {
        return rowGroups;
    }
}
