package io.sluice.iceberg;

import io.sluice.api.Options;
import io.sluice.api.Row;
import io.sluice.api.sink.BatchInfo;
import io.sluice.api.sink.BatchWriter;
import io.sluice.api.sink.PartitionWriter;
import io.sluice.api.sink.SinkContext;
import io.sluice.api.types.StructType;
import io.sluice.core.Sluice;
import io.sluice.core.StreamingQuery;
import io.sluice.core.Trigger;
import io.sluice.core.sinks.MemorySink;
import io.sluice.core.sources.MemoryStream;
import io.sluice.s3.server.SharedLocalS3Server;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.PositionOutputStream;
import org.apache.iceberg.io.SeekableInputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CyclicBarrier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Iceberg tables on S3 (the shared local S3 server), through Sluice's Storage as Iceberg's FileIO and a JDBC catalog
 * (H2) whose commit is atomic: sink then source, a re-run batch applied once, two writers racing for a commit, and
 * the Hadoop table and catalog refused there.
 */
class IcebergOnS3Test {
    @TempDir
    Path tmp;
    private String bucket;
    private Sluice sluice;
    private final List<String> sinks = new ArrayList<>();

    @BeforeEach
    void setUp() {
        bucket = "ice-" + UUID.randomUUID().toString().substring(0, 18);
        try (S3Client c = S3Client.builder().endpointOverride(URI.create(SharedLocalS3Server.get().endpoint()))
                .forcePathStyle(true).region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("a", "b")))
                .httpClient(software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient.create()).build()) {
            c.createBucket(b -> b.bucket(bucket));
        }
        sluice = Sluice.builder().parallelism(2).build();
    }

    @AfterEach
    void tearDown() {
        sluice.close();
        sinks.forEach(MemorySink::clear);
    }

    private static Map<String, String> storage() {
        Map<String, String> c = new LinkedHashMap<>();
        c.put("fs.s3a.endpoint", SharedLocalS3Server.get().endpoint());
        c.put("fs.s3a.path.style.access", "true");
        c.put("fs.s3a.access.key", "test-access-key");
        c.put("fs.s3a.secret.key", "test-secret");
        return c;
    }

    /** The source's or sink's options: the JDBC catalog with its warehouse on S3, and the S3 settings. */
    private Map<String, String> options() {
        Map<String, String> o = new LinkedHashMap<>();
        o.put("table", "db.events");
        o.put("catalog.type", "jdbc");
        o.put("catalog.uri", "jdbc:h2:" + tmp.resolve("cat") + ";DB_CLOSE_DELAY=-1");
        o.put("catalog.jdbc.user", "sa");
        o.put("catalog.jdbc.password", "");
        o.put("catalog.warehouse", "s3a://" + bucket + "/wh");
        o.putAll(storage());
        return o;
    }

    private Catalog catalog() {
        Map<String, String> props = new LinkedHashMap<>();
        options().forEach((k, v) -> props.put(k.startsWith("catalog.") ? k.substring(8) : k, v));
        props.put("io-impl", StorageFileIO.class.getName());
        return CatalogUtil.buildIcebergCatalog("iceberg", props, new Configuration());
    }

    private String sink() {
        String name = "ice_s3_" + UUID.randomUUID().toString().replace('-', '_');
        sinks.add(name);
        return name;
    }

    @Test
    void theSinkWritesATableOnS3ThatTheSourceStreamsBack() throws Exception {
        MemoryStream in = MemoryStream.create(StructType.fromDDL("id bigint, name string"));
        try {
            StreamingQuery q = sluice.readStream().format("memory").option("name", in.name()).load().writeStream()
                    .format("iceberg").options(options()).option("checkpointLocation", tmp.resolve("w").toString())
                    .start();
            in.addData(Row.of(1L, "a"), Row.of(2L, "b"));
            q.processAllAvailable();
            in.addData(Row.of(3L, "c"));
            q.processAllAvailable();
            q.stop();
        } finally {
            in.unregister();
        }
        Table t = catalog().loadTable(TableIdentifier.of("db", "events"));
        assertThat(t.location()).isEqualTo("s3a://" + bucket + "/wh/db/events");
        assertThat(t.currentSnapshot().addedDataFiles(t.io()).iterator().next().location())
                .startsWith("s3a://" + bucket + "/wh/db/events/data/");
        List<Snapshot> history = new ArrayList<>();
        t.snapshots().forEach(history::add);
        assertThat(history).extracting(s -> s.summary().get("spark.sql.streaming.epochId")).containsExactly("0", "1");

        assertThat(sluice.read().format("iceberg").options(options()).load().collectAsList())
                .containsExactlyInAnyOrder(Row.of(1L, "a"), Row.of(2L, "b"), Row.of(3L, "c"));
        String mem = sink();
        StreamingQuery out = sluice.readStream().format("iceberg").options(options()).load().writeStream()
                .format("memory").queryName(mem).option("checkpointLocation", tmp.resolve("r").toString())
                .trigger(Trigger.availableNow()).start();
        out.awaitTermination();
        assertThat(MemorySink.batches(mem).values().stream().flatMap(List::stream).toList())
                .containsExactly(Row.of(1L, "a"), Row.of(2L, "b"), Row.of(3L, "c"));
    }

    private SinkContext context(String queryId) {
        return new SinkContext(Options.of(options()), StructType.fromDDL("id bigint"), tmp.resolve("chk"), queryId,
                null, io.sluice.api.SluiceClock.system());
    }

    private static void write(IcebergSink sink, long batchId, long... ids) throws Exception {
        BatchWriter b = sink.beginBatch(BatchInfo.unknown("q", batchId));
        PartitionWriter w = b.partitionWriter(0);
        for (long id : ids) {
            w.write(Row.of(id));
        }
        b.commit(List.of(w.commit()));
    }

    private List<Long> ids() throws Exception {
        return TestTables.ids(sluice.read().format("iceberg").options(options()).load().collectAsList());
    }

    @Test
    void aReRunBatchIsAppliedOnceAndTwoWritersRacingBothCommitOnce() throws Exception {
        try (IcebergSink a = new IcebergSink(context("query-a"));
             IcebergSink b = new IcebergSink(context("query-b"))) {
            write(a, 0, 1, 2);
            write(a, 0, 1, 2);   // the re-run of batch 0 after a crash between the table's commit and commits/0
            assertThat(ids()).containsExactly(1L, 2L);

            CyclicBarrier together = new CyclicBarrier(2);
            List<Throwable> errors = Collections.synchronizedList(new ArrayList<>());
            List<Thread> threads = new ArrayList<>();
            for (IcebergSink sink : List.of(a, b)) {
                long base = sink == a ? 10 : 1000;
                Thread th = new Thread(() -> {
                    try {
                        for (int i = 1; i <= 2; i++) {
                            together.await();
                            write(sink, i, base + i);
                        }
                    } catch (Throwable e) {
                        errors.add(e);
                    }
                }, "s3-writer-" + base);
                threads.add(th);
                th.start();
            }
            for (Thread th : threads) {
                th.join();
            }
            assertThat(errors).isEmpty();
        }
        Table t = catalog().loadTable(TableIdentifier.of("db", "events"));
        List<Snapshot> h = new ArrayList<>();
        t.snapshots().forEach(h::add);
        assertThat(h).hasSize(5);
        for (int i = 1; i < h.size(); i++) {
            assertThat(h.get(i).parentId()).isEqualTo(h.get(i - 1).snapshotId());
        }
        assertThat(ids()).containsExactly(1L, 2L, 11L, 12L, 1001L, 1002L);
    }

    @Test
    void theFileIOsCreateIsExclusiveAndItsStreamsSeek() throws Exception {
        try (FileIO io = new StorageFileIO()) {
            io.initialize(storage());
            String uri = "s3a://" + bucket + "/x/v1.metadata.json";
            try (PositionOutputStream out = io.newOutputFile(uri).create()) {
                out.write("0123456789".getBytes(StandardCharsets.US_ASCII));
                assertThat(out.getPos()).isEqualTo(10);
            }
            assertThatThrownBy(() -> io.newOutputFile(uri).create()).isInstanceOf(AlreadyExistsException.class);
            assertThat(io.newInputFile(uri).getLength()).isEqualTo(10);
            try (SeekableInputStream s = io.newInputFile(uri).newStream()) {
                s.seek(7);
                assertThat(new String(s.readAllBytes(), StandardCharsets.US_ASCII)).isEqualTo("789");
                s.seek(2);
                byte[] two = new byte[2];
                assertThat(s.read(two)).isEqualTo(2);
                assertThat(new String(two, StandardCharsets.US_ASCII)).isEqualTo("23");
                assertThat(s.getPos()).isEqualTo(4);
            }
            io.deleteFile(uri);
            assertThat(io.newInputFile(uri).exists()).isFalse();
        }
    }

    @Test
    void aHadoopTableOrCatalogOnS3IsRefused() {
        assertThatThrownBy(() -> sluice.read().format("iceberg").options(storage())
                .load("s3a://" + bucket + "/t"))
                .hasMessageContaining("Iceberg's Hadoop tables and Hadoop catalog commit by renaming a metadata "
                        + "file, which is not atomic on an object store (s3a://" + bucket + "/t)");
        Map<String, String> o = options();
        o.put("catalog.type", "hadoop");
        o.remove("catalog.uri");
        assertThatThrownBy(() -> sluice.read().format("iceberg").options(o).load())
                .hasMessageContaining("not atomic on an object store (s3a://" + bucket + "/wh)")
                .hasMessageContaining("catalog.type=jdbc");
    }
}
