package io.sluice.delta.spark;

import io.sluice.api.Row;
import io.sluice.core.Sluice;
import io.sluice.core.StreamingQuery;
import io.sluice.core.Trigger;
import io.sluice.core.sinks.MemorySink;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Tables delta-spark 4.0.0 writes with the reader features column mapping and deletion vectors, streamed by Sluice's
 * Delta source with exact rows; Spark's own read of the table is the expected answer. One Spark session for the
 * class.
 */
class DeltaSparkTableFeaturesTest {

    private static SparkSession spark;
    private static Sluice sluice;

    @TempDir
    Path tmp;

    @BeforeAll
    static void start() {
        spark = SparkSession.builder().master("local[1]").appName("delta-features")
                .config("spark.ui.enabled", "false")
                .config("spark.sql.shuffle.partitions", "1")
                .config("spark.sql.extensions", "io.delta.sql.DeltaSparkSessionExtension")
                .config("spark.sql.catalog.spark_catalog", "org.apache.spark.sql.delta.catalog.DeltaCatalog")
                .getOrCreate();
        sluice = Sluice.builder().parallelism(1).build();
    }

    @AfterAll
    static void stop() {
        sluice.close();
        spark.stop();
    }

    private static String table(Path t) {
        return "delta.`" + t + "`";
    }

    private static List<String> sparkRows(Path t) {
        return spark.read().format("delta").load(t.toString()).collectAsList().stream()
                .map(r -> r.get(0) + "," + r.get(1)).sorted().toList();
    }

    private record Streamed(List<String> rows, List<String> columns) {
    }

    private Streamed sluiceStream(Path t, Path chk, Map<String, String> options) throws Exception {
        String name = "features_" + UUID.randomUUID().toString().replace('-', '_');
        var r = sluice.readStream().format("delta");
        for (var e : options.entrySet()) {
            r = r.option(e.getKey(), e.getValue());
        }
        var df = r.load(t.toString());
        StreamingQuery q = df.writeStream().format("memory").queryName(name)
                .option("checkpointLocation", chk.toString()).trigger(Trigger.availableNow()).start();
        try {
            q.awaitTermination();
            List<Row> rows = MemorySink.rows(name);
            return new Streamed(rows.stream().map(x -> x.get(0) + "," + x.get(1)).toList(),
                    df.schema().fields().stream().map(f -> f.name()).toList());
        } finally {
            MemorySink.clear(name);
        }
    }

    @Test
    void columnMappingNameWithARenamedColumnIsReadByPhysicalNames() throws Exception {
        Path t = tmp.resolve("mapped");
        spark.sql("CREATE TABLE " + table(t) + " (id BIGINT, name STRING) USING delta "
                + "TBLPROPERTIES ('delta.columnMapping.mode' = 'name')");
        spark.sql("INSERT INTO " + table(t) + " VALUES (1, 'a'), (2, 'b')");
        spark.sql("ALTER TABLE " + table(t) + " RENAME COLUMN name TO label");
        spark.sql("INSERT INTO " + table(t) + " VALUES (3, 'c')");
        // The files name the column by its physical name (col-<uuid>), not "name" nor "label".
        assertThat(Files.readString(t.resolve("_delta_log").resolve("00000000000000000002.json")))
                .contains("delta.columnMapping.physicalName");
        assertThat(Files.readString(t.resolve("_delta_log").resolve("00000000000000000003.json")))
                .contains("\"minValues\\\":{\\\"col-");

        Path chk = tmp.resolve("chk");
        Streamed s = sluiceStream(t, chk, Map.of());
        assertThat(s.columns()).containsExactly("id", "label");
        assertThat(s.rows().stream().sorted().toList()).containsExactly("1,a", "2,b", "3,c")
                .isEqualTo(sparkRows(t));

        spark.sql("INSERT INTO " + table(t) + " VALUES (4, 'd')");
        assertThat(sluiceStream(t, chk, Map.of()).rows()).containsExactly("4,d");
    }

    @Test
    void columnMappingIdIsReadByParquetFieldIds() throws Exception {
        Path t = tmp.resolve("by-id");
        spark.sql("CREATE TABLE " + table(t) + " (id BIGINT, name STRING) USING delta "
                + "TBLPROPERTIES ('delta.columnMapping.mode' = 'id')");
        spark.sql("INSERT INTO " + table(t) + " VALUES (1, 'a'), (2, 'b')");
        spark.sql("ALTER TABLE " + table(t) + " RENAME COLUMN name TO label");
        spark.sql("INSERT INTO " + table(t) + " VALUES (3, 'c')");

        Streamed s = sluiceStream(t, tmp.resolve("chk"), Map.of());
        assertThat(s.columns()).containsExactly("id", "label");
        assertThat(s.rows().stream().sorted().toList()).containsExactly("1,a", "2,b", "3,c")
                .isEqualTo(sparkRows(t));
    }

    /** Version 0 creates the table, 1 appends ids 0..9 in one file, 2 deletes ids 0, 3, 6, 9 by a deletion vector. */
    private Path tableWithADeletionVector() throws Exception {
        Path t = tmp.resolve("dv");
        spark.sql("CREATE TABLE " + table(t) + " (id BIGINT, name STRING) USING delta "
                + "TBLPROPERTIES ('delta.enableDeletionVectors' = 'true')");
        spark.range(0, 10).selectExpr("id", "concat('n', cast(id as string)) as name").coalesce(1).write()
                .format("delta").mode("append").save(t.toString());
        spark.sql("DELETE FROM " + table(t) + " WHERE id % 3 = 0");
        String delete = Files.readString(t.resolve("_delta_log").resolve("00000000000000000002.json"));
        assertThat(delete).contains("\"deletionVector\":{").contains("\"cardinality\":4");
        return t;
    }

    @Test
    void theSnapshotAtStartAppliesTheDeletionVector() throws Exception {
        Path t = tableWithADeletionVector();
        Path chk = tmp.resolve("chk");
        assertThat(sluiceStream(t, chk, Map.of()).rows().stream().sorted().toList())
                .containsExactly("1,n1", "2,n2", "4,n4", "5,n5", "7,n7", "8,n8")
                .isEqualTo(sparkRows(t));

        spark.sql("INSERT INTO " + table(t) + " VALUES (10, 'n10')");
        assertThat(sluiceStream(t, chk, Map.of()).rows()).containsExactly("10,n10");
    }

    @Test
    void theDeleteCommitIsAChangeCommitSkippedOnlyWhenAsked() throws Exception {
        Path t = tableWithADeletionVector();
        assertThatThrownBy(() -> sluiceStream(t, tmp.resolve("c1"), Map.of("startingVersion", "0")))
                .hasMessageContaining("[DELTA_SOURCE_TABLE_IGNORE_CHANGES] Detected a data update (for example "
                        + "DELETE (Map(predicate -> [\"((id#")
                .hasMessageContaining(" % 3) = 0)\"]))) in the source table at version 2. This is currently not "
                        + "supported.");

        assertThat(sluiceStream(t, tmp.resolve("c2"), Map.of("startingVersion", "0", "skipChangeCommits", "true"))
                .rows()).containsExactly("0,n0", "1,n1", "2,n2", "3,n3", "4,n4", "5,n5", "6,n6", "7,n7", "8,n8",
                "9,n9");

        // ignoreChanges re-reads the rewritten file, here the same file with its deletion vector applied.
        assertThat(sluiceStream(t, tmp.resolve("c3"), Map.of("startingVersion", "0", "ignoreChanges", "true"))
                .rows()).containsExactly("0,n0", "1,n1", "2,n2", "3,n3", "4,n4", "5,n5", "6,n6", "7,n7", "8,n8",
                "9,n9", "1,n1", "2,n2", "4,n4", "5,n5", "7,n7", "8,n8");
    }

    @Test
    void aReaderFeatureKernelsScanDoesNotApplyIsRefusedByName() throws Exception {
        Path t = tmp.resolve("variant");
        spark.sql("CREATE TABLE " + table(t) + " (id BIGINT, v VARIANT) USING delta");
        spark.sql("INSERT INTO " + table(t) + " SELECT 1, parse_json('{\"a\":1}')");
        assertThatThrownBy(() -> sluiceStream(t, tmp.resolve("chk"), Map.of()))
                .hasMessageContaining("uses the reader table feature variantType, which Sluice's Delta source does "
                        + "not read");
    }
}
