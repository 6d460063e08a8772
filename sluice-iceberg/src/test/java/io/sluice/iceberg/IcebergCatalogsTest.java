package io.sluice.iceberg;

import io.sluice.api.Row;
import io.sluice.core.Sluice;
import io.sluice.core.StreamingQuery;
import io.sluice.core.Trigger;
import io.sluice.core.sinks.MemorySink;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.PartitionSpec;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Table names through catalogs configured as iceberg-spark's SparkCatalog: the Hadoop catalog (a warehouse folder)
 * and the JDBC catalog on an embedded H2 database; toTable creates the table, readStream().table streams it.
 */
class IcebergCatalogsTest {
    @TempDir
    Path tmp;

    private Map<String, String> hadoop() {
        return Map.of("type", "hadoop", "warehouse", tmp.resolve("wh").toString());
    }

    private Map<String, String> jdbc() {
        return Map.of("type", "jdbc", "uri", "jdbc:h2:" + tmp.resolve("cat") + ";DB_CLOSE_DELAY=-1",
                "warehouse", tmp.resolve("wh").toString(), "jdbc.user", "sa", "jdbc.password", "");
    }

    private Sluice sluice(Map<String, String> props) {
        Sluice.Builder b = Sluice.builder().parallelism(2)
                .config("spark.sql.catalog.lake", "org.apache.iceberg.spark.SparkCatalog");
        props.forEach((k, v) -> b.config("spark.sql.catalog.lake." + k, v));
        return b.build();
    }

    private Catalog catalog(Map<String, String> props) {
        return CatalogUtil.buildIcebergCatalog("lake", props, new Configuration());
    }

    @Test
    void hadoopCatalog() throws Exception {
        roundTrip(hadoop());
    }

    @Test
    void jdbcCatalogOnH2() throws Exception {
        roundTrip(jdbc());
    }

    private void roundTrip(Map<String, String> props) throws Exception {
        Catalog catalog = catalog(props);
        if (catalog instanceof SupportsNamespaces ns) {
            ns.createNamespace(Namespace.of("db"));
        }
        Table source = catalog.createTable(TableIdentifier.of("db", "events"), TestTables.SCHEMA,
                PartitionSpec.unpartitioned());
        long s1 = TestTables.append(source, 1, 2);
        long s2 = TestTables.append(source, 3, 3);
        String mem = "cat_" + UUID.randomUUID().toString().replace('-', '_');
        try (Sluice sluice = sluice(props)) {
            StreamingQuery toMemory = sluice.readStream().table("lake.db.events").writeStream().format("memory")
                    .queryName(mem).option("checkpointLocation", tmp.resolve("chk1").toString())
                    .trigger(Trigger.availableNow()).start();
            toMemory.awaitTermination();
            assertThat(MemorySink.rows(mem)).containsExactly(Row.of(1L, "n1"), Row.of(2L, "n2"), Row.of(3L, "n3"));
            assertThat(toMemory.lastProgress().sources().get(0).endOffset())
                    .isEqualTo("{\"version\":1,\"snapshot_id\":" + s2 + ",\"position\":1,\"scan_all_files\":false}");
            assertThat(s1).isNotEqualTo(s2);

            StreamingQuery copy = sluice.readStream().table("lake.db.events").writeStream()
                    .option("checkpointLocation", tmp.resolve("chk2").toString())
                    .trigger(Trigger.availableNow()).toTable("lake.db.copy");
            copy.awaitTermination();
            Table written = catalog(props).loadTable(TableIdentifier.of("db", "copy"));
            Snapshot only = written.currentSnapshot();
            assertThat(only.summary()).containsEntry("spark.sql.streaming.queryId", copy.id().toString())
                    .containsEntry("spark.sql.streaming.epochId", "0");
            assertThat(sluice.read().table("lake.db.copy").collectAsList())
                    .containsExactlyInAnyOrder(Row.of(1L, "n1"), Row.of(2L, "n2"), Row.of(3L, "n3"));

            assertThatThrownBy(() -> sluice.readStream().table("lake.db.missing"))
                    .hasMessageStartingWith("[TABLE_OR_VIEW_NOT_FOUND] The table or view `lake`.`db`.`missing` "
                            + "cannot be found.");
        } finally {
            MemorySink.clear(mem);
        }
    }

    @Test
    void restCatalogServedByIcebergsRestCatalogAdapter() throws Exception {
        // the server's side: Iceberg's RESTCatalogAdapter over a JDBC catalog; the client's: type=rest, by URI
        try (var backing = new org.apache.iceberg.jdbc.JdbcCatalog()) {
            backing.setConf(new Configuration());
            backing.initialize("backing", jdbc());
            try (var server = new org.apache.iceberg.rest.LocalRestCatalogServer(backing)) {
                roundTrip(Map.of("type", "rest", "uri", server.uri()));
            }
        }
    }

    @Test
    void theCatalogOptionsWorkWithoutTheEngineConfiguration() throws Exception {
        Map<String, String> props = hadoop();
        Table t = catalog(props).createTable(TableIdentifier.of("db", "t"), TestTables.SCHEMA);
        TestTables.append(t, 5, 6);
        Map<String, String> options = new LinkedHashMap<>();
        props.forEach((k, v) -> options.put("catalog." + k, v));
        try (Sluice sluice = Sluice.local()) {
            assertThat(TestTables.ids(sluice.read().format("iceberg").options(options).option("table", "db.t")
                    .load().collectAsList())).containsExactly(5L, 6L);
            assertThatThrownBy(() -> sluice.read().format("iceberg").option("table", "db.t").load())
                    .hasMessageContaining("a table by identifier needs a catalog");
            assertThatThrownBy(() -> sluice.read().format("iceberg").option("table", "db.t")
                    .option("path", tmp.toString()).load())
                    .hasMessageContaining("not both");
        }
    }
}
