package io.sluice.iceberg;

import io.sluice.api.Row;
import io.sluice.core.Sluice;
import io.sluice.core.Trigger;
import io.sluice.core.sinks.MemorySink;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.hadoop.HadoopFileIO;
import org.apache.iceberg.io.InputFile;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

import static org.assertj.core.api.Assertions.assertThat;

/** How often the source opens each manifest: once per trigger, not once to count files and again to plan them. */
class IcebergManifestReadsTest {
    /** The Hadoop FileIO, counting the opens of manifests (the metadata folder's Avro files but manifest lists). */
    public static final class CountingFileIO extends HadoopFileIO {
        static final Map<String, Integer> MANIFEST_OPENS = new ConcurrentHashMap<>();

        private static void count(String path) {
            String name = path.substring(path.lastIndexOf('/') + 1);
            if (path.contains("/metadata/") && name.endsWith(".avro") && !name.startsWith("snap-")) {
                MANIFEST_OPENS.merge(name, 1, Integer::sum);
            }
        }

        @Override
        public InputFile newInputFile(String path) {
            count(path);
            return super.newInputFile(path);
        }

        @Override
        public InputFile newInputFile(String path, long length) {
            count(path);
            return super.newInputFile(path, length);
        }
    }

    @TempDir
    Path tmp;
    private final String sink = "manifests_" + UUID.randomUUID().toString().replace('-', '_');

    @AfterEach
    void tearDown() {
        MemorySink.clear(sink);
        CountingFileIO.MANIFEST_OPENS.clear();
    }

    @Test
    void anAvailableNowQueryOfThreeSnapshotsOpensEachOfTheirManifestsOnce() throws Exception {
        Map<String, String> catalog = Map.of("type", "hadoop", "warehouse", tmp.resolve("wh").toString(),
                "io-impl", CountingFileIO.class.getName());
        Table table = CatalogUtil.buildIcebergCatalog("lake", catalog, new Configuration())
                .createTable(TableIdentifier.of("db", "events"), TestTables.SCHEMA, PartitionSpec.unpartitioned());
        table.newFastAppend().appendFile(TestTables.file(table, 1, 2)).commit();
        table.newFastAppend().appendFile(TestTables.file(table, 3, 3)).commit();
        table.newFastAppend().appendFile(TestTables.file(table, 4, 5)).commit();
        CountingFileIO.MANIFEST_OPENS.clear();
        try (Sluice sluice = Sluice.builder().parallelism(2).build()) {
            var read = sluice.readStream().format("iceberg").option("table", "db.events");
            for (var e : catalog.entrySet()) {
                read = read.option("catalog." + e.getKey(), e.getValue());
            }
            read.load().writeStream().format("memory").queryName(sink)
                    .option("checkpointLocation", tmp.resolve("chk").toString()).trigger(Trigger.availableNow())
                    .start().awaitTermination();
        }
        assertThat(MemorySink.rows(sink)).containsExactly(Row.of(1L, "n1"), Row.of(2L, "n2"), Row.of(3L, "n3"),
                Row.of(4L, "n4"), Row.of(5L, "n5"));
        assertThat(new TreeMap<>(CountingFileIO.MANIFEST_OPENS)).hasSize(3).allSatisfy((name, opens) ->
                assertThat(opens).as(name).isEqualTo(1));
    }
}
