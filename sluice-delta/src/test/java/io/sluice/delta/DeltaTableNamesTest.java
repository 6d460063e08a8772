package io.sluice.delta;

import io.sluice.api.Row;
import io.sluice.core.Sluice;
import io.sluice.core.StreamingQuery;
import io.sluice.core.Trigger;
import io.sluice.core.sinks.MemorySink;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** readStream().table, read().table and toTable through a Delta catalog configured as delta-spark's. */
class DeltaTableNamesTest {
    @TempDir
    Path tmp;

    @Test
    void tablesOfAWarehouseByNameAndByPath() throws Exception {
        Path wh = tmp.resolve("wh");
        try (Sluice sluice = Sluice.builder()
                .config("spark.sql.catalog.lake", "org.apache.spark.sql.delta.catalog.DeltaCatalog")
                .config("spark.sql.catalog.lake.warehouse", wh.toString()).build()) {
            sluice.readStream().format("rate-micro-batch").option("rowsPerBatch", 3).option("startTimestamp", 0)
                    .load().writeStream().option("checkpointLocation", tmp.resolve("c1").toString())
                    .trigger(Trigger.availableNow()).toTable("lake.db.events").awaitTermination();
            assertThat(wh.resolve("db").resolve("events").resolve("_delta_log")).isDirectory();

            StreamingQuery q = sluice.readStream().table("lake.db.events").writeStream().format("memory")
                    .queryName("delta_names").option("checkpointLocation", tmp.resolve("c2").toString())
                    .trigger(Trigger.availableNow()).start();
            q.awaitTermination();
            assertThat(MemorySink.rows("delta_names")).extracting(r -> r.getLong(1)).containsExactlyInAnyOrder(0L, 1L, 2L);
            MemorySink.clear("delta_names");

            Path events = wh.resolve("db").resolve("events");
            assertThat(sluice.read().table("lake.`" + events + "`").count()).isEqualTo(3);
            assertThatThrownBy(() -> sluice.read().table("lake.db.missing"))
                    .hasMessageContaining("[TABLE_OR_VIEW_NOT_FOUND]");
        }
    }

    @Test
    void aCatalogWithoutWarehouseSaysSo() throws Exception {
        try (Sluice sluice = Sluice.builder()
                .config("spark.sql.catalog.lake", "org.apache.spark.sql.delta.catalog.DeltaCatalog").build()) {
            assertThatThrownBy(() -> sluice.read().table("lake.db.events"))
                    .hasMessageContaining("The Delta catalog 'lake' needs spark.sql.catalog.lake.warehouse");
        }
        assertThat(Row.of(1L)).isNotNull();
    }
}
