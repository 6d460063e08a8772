package io.sluice.s3;

import io.sluice.api.Row;
import io.sluice.core.Sluice;
import io.sluice.core.StreamingQuery;
import io.sluice.core.Trigger;
import io.sluice.core.sinks.MemorySink;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Parquet and Avro on S3 (the real server): the file sink writes them to a bucket, and the file source reads them
 * back from it (ranged GETs pinned to the listed ETag), its checkpoint on S3 too; an object replaced after it was
 * listed is not read with its new bytes.
 */
class S3ParquetAvroTest {

    @TempDir
    Path tmp;
    private S3Client client;
    private String bucket;
    private Sluice sluice;

    @BeforeEach
    void setUp() {
        client = S3TestSupport.client();
        bucket = S3TestSupport.newBucket("formats");
        Sluice.Builder b = Sluice.builder().parallelism(2);
        S3TestSupport.conf().forEach(b::config);
        sluice = b.build();
    }

    @AfterEach
    void tearDown() {
        sluice.close();
        client.close();
    }

    private List<String> keys(String prefix) {
        return S3TestSupport.keys(client, bucket, prefix);
    }

    private void write(String format, String out, int from, int to) throws Exception {
        // One writing query (one checkpoint) over one folder: each call adds a file, the sink's next batch.
        Path in = tmp.resolve("in-" + format);
        Files.createDirectories(in);
        StringBuilder json = new StringBuilder();
        for (int i = from; i < to; i++) {
            json.append("{\"id\":").append(i).append(",\"name\":\"n").append(i).append("\",\"score\":").append(i * 1.5)
                    .append("}\n");
        }
        Files.writeString(in.resolve("rows-" + from + ".json"), json);
        StreamingQuery q = sluice.readStream().format("json").schema("id long, name string, score double")
                .load(in.toString()).writeStream().format(format).option("path", out)
                .option("checkpointLocation", tmp.resolve("chk-w-" + format).toString())
                .trigger(Trigger.availableNow()).start();
        assertThat(q.awaitTermination(60_000)).isTrue();
        assertThat(q.exception()).isEmpty();
    }

    private List<String> readAll(String format, String path, String table) throws Exception {
        StreamingQuery q = sluice.readStream().format(format).schema("id long, name string, score double")
                .load(path).writeStream().format("memory").queryName(table)
                .option("checkpointLocation", "s3a://" + bucket + "/chk-" + table).trigger(Trigger.availableNow())
                .start();
        assertThat(q.awaitTermination(60_000)).isTrue();
        assertThat(q.exception()).isEmpty();
        return MemorySink.rows(table).stream().map(Row::toString).sorted().toList();
    }

    @ParameterizedTest
    @ValueSource(strings = {"parquet", "avro"})
    void theSinkWritesToS3AndTheSourceReadsItBackWithItsCheckpointOnS3(String format) throws Exception {
        String out = "s3a://" + bucket + "/" + format;
        write(format, out, 0, 3);
        assertThat(keys(format + "/")).anyMatch(k -> k.endsWith("." + format) || k.contains(".snappy."))
                .contains(format + "/_spark_metadata/0");
        String table = S3TestSupport.tableName(format + "_");
        assertThat(readAll(format, out, table)).containsExactly("[0,n0,0.0]", "[1,n1,1.5]", "[2,n2,3.0]");
        // A second batch of the sink, read by a restart of the reading query: only the new rows.
        write(format, out, 3, 5);
        assertThat(readAll(format, out, table)).containsExactly("[0,n0,0.0]", "[1,n1,1.5]", "[2,n2,3.0]",
                "[3,n3,4.5]", "[4,n4,6.0]");
        assertThat(MemorySink.batches(table)).hasSize(2);
    }

    @ParameterizedTest
    @ValueSource(strings = {"parquet", "avro"})
    void aFileReplacedAfterItWasListedFailsItsReadInsteadOfReadingNewBytes(String format) throws Exception {
        String out = "s3a://" + bucket + "/w" + format;
        write(format, out, 0, 2);
        String key = keys("w" + format + "/").stream().filter(k -> !k.contains("_spark_metadata")).findFirst()
                .orElseThrow();
        byte[] original = S3TestSupport.bytes(client, bucket, key);
        io.sluice.files.fs.FileStorage fs = io.sluice.files.fs.ObjectFileStorage.forPath("path",
                "s3a://" + bucket + "/w" + format, S3TestSupport.conf());
        try {
            List<io.sluice.files.fs.FileStatus> listed = new java.util.ArrayList<>();
            fs.walk(fs.path("s3a://" + bucket + "/w" + format), n -> !n.startsWith("_"), listed::add);
            Path file = listed.stream().filter(st -> fs.uri(st.path()).endsWith(key)).findFirst().orElseThrow()
                    .path();
            byte[] changed = original.clone();
            changed[changed.length / 2] ^= 1;
            client.putObject(p -> p.bucket(bucket).key(key), RequestBody.fromBytes(changed));
            assertThatThrownBy(() -> io.sluice.files.fs.ObjectFiles.ranged(file))
                    .isInstanceOf(io.sluice.api.io.VersionChangedException.class)
                    .hasMessageContaining("s3a://" + bucket + "/" + key + " was modified after it was listed");
        } finally {
            io.sluice.files.fs.ObjectFileStorage.closeQuietly(fs);
        }
    }
}
