package io.sluice.parquet;

import io.sluice.api.Row;
import io.sluice.api.types.StructType;
import io.sluice.core.Sluice;
import io.sluice.core.StreamingQuery;
import io.sluice.core.sources.MemoryStream;
import org.apache.parquet.format.PageHeader;
import org.apache.parquet.format.Util;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.io.LocalInputFile;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Parquet files that cannot be read (issue 16 item 5): not Parquet, a damaged or truncated footer, a corrupt data
 * page in the middle of a valid file. Each fails the batch with Spark's {@code FAILED_READ_FILE} message naming the
 * file; under {@code ignoreCorruptFiles=true} the file is skipped from the bad part on, the rows read before it
 * kept, as Spark's FileScanRDD does. Nothing is skipped silently (a warning, the metric).
 */
class ParquetBadInputTest {
    private static final int ROWS = 20_000;

    @TempDir
    Path tmp;
    private final Sluice sluice = Sluice.builder().parallelism(1).build();

    @AfterEach
    void close() {
        sluice.close();
    }

    /** One file of {@link #ROWS} longs 0.. in one row group of many small snappy pages, no dictionary. */
    private Path validFile() throws Exception {
        MemoryStream input = MemoryStream.create(StructType.fromDDL("a bigint"));
        Path out = tmp.resolve("written");
        try {
            StreamingQuery q = sluice.readStream().format("memory").option("name", input.name()).load()
                    .writeStream().format("parquet").option("checkpointLocation", tmp.resolve("chk").toString())
                    .option("parquet.page.size", "8192").option("parquet.enable.dictionary", "false")
                    .start(out.toString());
            List<Row> rows = new ArrayList<>();
            for (long i = 0; i < ROWS; i++) {
                rows.add(Row.of(i * 7919 % 1_000_003)); // not a run: snappy keeps the pages long
            }
            input.addData(rows);
            q.processAllAvailable();
            q.stop();
        } finally {
            input.unregister();
        }
        try (Stream<Path> s = Files.walk(out)) {
            Path file = s.filter(p -> p.getFileName().toString().startsWith("part-")).findFirst().orElseThrow();
            Path in = Files.createDirectories(tmp.resolve("in")).resolve("data.parquet");
            return Files.copy(file, in);
        }
    }

    static long value(long i) {
        return i * 7919 % 1_000_003;
    }

    /** A data page of the file's first column: where its payload starts, its length and the rows before it. */
    record Page(long payloadOffset, int compressedSize, long rowsBefore) {
    }

    static List<Page> pages(Path file) throws IOException {
        ColumnChunkMetaData chunk;
        try (ParquetFileReader r = ParquetFileReader.open(new LocalInputFile(file),
                org.apache.parquet.SluiceReadOptions.of(ParquetCodecs.INSTANCE))) {
            chunk = r.getFooter().getBlocks().get(0).getColumns().get(0);
        }
        byte[] bytes = Files.readAllBytes(file);
        List<Page> pages = new ArrayList<>();
        long pos = chunk.getStartingPos();
        long rows = 0;
        while (pos < chunk.getStartingPos() + chunk.getTotalSize()) {
            ByteArrayInputStream in = new ByteArrayInputStream(bytes, (int) pos, bytes.length - (int) pos);
            int before = in.available();
            PageHeader h = Util.readPageHeader(in);
            long payload = pos + (before - in.available());
            pages.add(new Page(payload, h.getCompressed_page_size(), rows));
            rows += h.isSetData_page_header() ? h.getData_page_header().getNum_values() : 0;
            pos = payload + h.getCompressed_page_size();
        }
        return pages;
    }

    /** Overwrites the payload of the middle data page with 0xFF bytes; returns that page. */
    static Page corruptMiddlePage(Path file) throws IOException {
        List<Page> pages = pages(file);
        assertThat(pages).hasSizeGreaterThan(4);
        Page middle = pages.get(pages.size() / 2);
        byte[] bytes = Files.readAllBytes(file);
        Arrays.fill(bytes, (int) middle.payloadOffset(), (int) middle.payloadOffset() + middle.compressedSize(),
                (byte) 0xFF);
        Files.write(file, bytes);
        return middle;
    }

    private List<Row> read(Path dir, String... options) throws Exception {
        var r = sluice.read().format("parquet").schema("a bigint");
        for (int i = 0; i < options.length; i += 2) {
            r = r.option(options[i], options[i + 1]);
        }
        return r.load(dir.toString()).collectAsList();
    }

    @Test
    void aCorruptPageInTheMiddleFailsNamingTheFileAndIgnoreCorruptFilesKeepsTheRowsBeforeIt() throws Exception {
        Path file = validFile();
        assertThat(read(file.getParent())).hasSize(ROWS);
        Page bad = corruptMiddlePage(file);
        String uri = file.toUri().toString();
        assertThatThrownBy(() -> read(file.getParent())).hasStackTraceContaining("Encountered error while reading "
                        + "file " + uri + " of log offset 0 of ")
                .hasStackTraceContaining(": [FAILED_READ_FILE.NO_HINT] Encountered error while reading file " + uri
                        + ".  SQLSTATE: KD001 (");
        List<Row> kept = read(file.getParent(), "ignoreCorruptFiles", "true");
        List<Row> expected = new ArrayList<>();
        // A flat file is read column by column, page by page (FlatColumns): every row of the pages before the
        // damaged one is kept. Spark's vectorized reader keeps whole batches of 4096 rows.
        for (long i = 0; i < bad.rowsBefore(); i++) {
            expected.add(Row.of(value(i)));
        }
        assertThat(bad.rowsBefore()).isGreaterThan(1);
        assertThat(kept).containsExactlyElementsOf(expected);
    }

    @Test
    void aTruncatedFileAndADamagedFooterAreSparksCannotReadFileFooter() throws Exception {
        Path file = validFile();
        byte[] bytes = Files.readAllBytes(file);
        String uri = file.toUri().toString();
        String footerError = "[FAILED_READ_FILE.CANNOT_READ_FILE_FOOTER] Encountered error while reading file " + uri
                + ". Could not read footer. Please ensure that the file is in either ORC or Parquet format. If not, "
                + "please convert it to a valid format. If the file is in the valid format, please check if it is "
                + "corrupt. If it is, you can choose to either ignore it or fix the corruption. SQLSTATE: KD001 (";
        // Cut in the middle of the data: the footer and its magic are gone.
        Files.write(file, Arrays.copyOf(bytes, bytes.length / 2));
        assertThatThrownBy(() -> read(file.getParent())).hasStackTraceContaining(footerError);
        assertThat(read(file.getParent(), "ignoreCorruptFiles", "true")).isEmpty();
        // The footer's bytes overwritten, its length and magic kept.
        byte[] damaged = bytes.clone();
        int footerLength = (damaged[damaged.length - 8] & 0xFF) | (damaged[damaged.length - 7] & 0xFF) << 8
                | (damaged[damaged.length - 6] & 0xFF) << 16 | (damaged[damaged.length - 5] & 0xFF) << 24;
        Arrays.fill(damaged, damaged.length - 8 - footerLength, damaged.length - 8, (byte) 0x7F);
        Files.write(file, damaged);
        assertThatThrownBy(() -> read(file.getParent())).hasStackTraceContaining(footerError);
        assertThat(read(file.getParent(), "ignoreCorruptFiles", "true")).isEmpty();
    }
}
