package io.sluice.core;

import io.sluice.api.Row;
import io.sluice.core.sinks.MemorySink;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Table names through catalogs configured as Spark's, with the test catalog {@link TestTableCatalog}. */
class TableNamesTest extends EngineTestBase {

    private Sluice withCatalog(String... more) {
        Sluice.Builder b = Sluice.builder().parallelism(2)
                .config("spark.sql.catalog.lake", TestTableCatalog.IMPL)
                .config("spark.sql.catalog.lake.tables", "db.events,`odd")
                .config("spark.sql.catalog.lake.source", name);
        for (int i = 0; i < more.length; i += 2) {
            b.config(more[i], more[i + 1]);
        }
        sluice.close();
        sluice = b.build().registerSource(new ScriptedSource()).registerSink(new RecordingSink());
        return sluice;
    }

    @Test
    void readStreamTableAndToTableGoThroughTheCatalog() throws Exception {
        withCatalog("spark.sql.catalog.lake.create", "true");
        source.add(3);
        StreamingQuery q = sluice.readStream().table("lake.db.events").writeStream()
                .option("checkpointLocation", checkpoint.toString()).trigger(Trigger.availableNow())
                .toTable("lake.db.copy");
        q.awaitTermination();
        try {
            assertThat(MemorySink.rows("lake.db.copy")).containsExactly(Row.of(1L), Row.of(2L), Row.of(3L));
            assertThat(q.name()).isEqualTo("lake.db.copy");
        } finally {
            MemorySink.clear("lake.db.copy");
        }
    }

    @Test
    void readTableIsABoundedReadAndTheUsersOptionsAreAdded() throws Exception {
        withCatalog();
        source.add(5);
        assertThat(sluice.read().option("startingOffset", "3").table("lake.db.events").collectAsList())
                .containsExactly(Row.of(4L), Row.of(5L));
    }

    @Test
    void theDefaultCatalogResolvesNamesWithoutOne() throws Exception {
        withCatalog("spark.sql.defaultCatalog", "lake");
        source.add(1);
        assertThat(sluice.read().table("db.events").collectAsList()).containsExactly(Row.of(1L));
        // a first part that is not a catalog is a namespace of the current catalog, as in Spark
        assertThatThrownBy(() -> sluice.read().table("nosuch.events"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("[TABLE_OR_VIEW_NOT_FOUND] The table or view `lake`.`nosuch`.`events` "
                        + "cannot be found. Verify the spelling and correctness of the schema and catalog.\n")
                .hasMessageEndingWith("SQLSTATE: 42P01");
    }

    @Test
    void anUnknownTableIsSparksTableOrViewNotFound() {
        withCatalog();
        assertThatThrownBy(() -> sluice.readStream().table("lake.db.missing"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("[TABLE_OR_VIEW_NOT_FOUND] The table or view `lake`.`db`.`missing` cannot be found. "
                        + "Verify the spelling and correctness of the schema and catalog.\nIf you did not qualify "
                        + "the name with a schema, verify the current_schema() output, or qualify the name with the "
                        + "correct schema and catalog.\nTo tolerate the error on drop use DROP VIEW IF EXISTS or "
                        + "DROP TABLE IF EXISTS. SQLSTATE: 42P01");
        // without create=true the catalog cannot create one either
        assertThatThrownBy(() -> sluice.readStream().format("scripted").option("name", name).load().writeStream()
                .option("checkpointLocation", checkpoint.toString()).toTable("lake.db.missing"))
                .hasMessageStartingWith("[TABLE_OR_VIEW_NOT_FOUND] The table or view `lake`.`db`.`missing`");
    }

    @Test
    void backQuotedPartsMayHoldDotsAndBackQuotes() throws Exception {
        assertThat(TableNames.parse("lake.`my.db`.events")).containsExactly("lake", "my.db", "events");
        assertThat(TableNames.parse("`a``b`.c")).containsExactly("a`b", "c");
        withCatalog();
        source.add(2);
        assertThat(sluice.read().table("lake.```odd`").collectAsList()).containsExactly(Row.of(1L), Row.of(2L));
        for (String bad : List.of("lake..t", "lake.t.", "`unclosed", "a b", "`a`b")) {
            assertThatThrownBy(() -> TableNames.parse(bad)).hasMessageStartingWith("[PARSE_SYNTAX_ERROR]");
        }
    }

    @Test
    void noCatalogConfiguredSaysHowToConfigureOne() {
        assertThatThrownBy(() -> sluice.readStream().table("db.events"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("[TABLE_OR_VIEW_NOT_FOUND] The table or view `db`.`events` cannot be found.")
                .hasMessageEndingWith("Sluice has no session catalog of its own: no catalog is configured; configure "
                        + "one with Sluice.builder().config(\"spark.sql.catalog.<name>\", \"<implementation>\") and "
                        + "its spark.sql.catalog.<name>.<property> entries, and name the table "
                        + "<name>.<namespace>.<table>.");
        withCatalog();
        assertThatThrownBy(() -> sluice.readStream().table("db.events"))
                .hasMessageEndingWith("Sluice has no session catalog of its own: qualify the name with one of the "
                        + "configured catalogs (lake), or set spark.sql.defaultCatalog to one of them.");
    }

    @Test
    void anUnknownDefaultCatalogIsCatalogNotFound() {
        withCatalog("spark.sql.defaultCatalog", "nope");
        assertThatThrownBy(() -> sluice.readStream().table("db.events"))
                .hasMessage("[CATALOG_NOT_FOUND] The catalog `nope` not found. Consider to set the SQL config "
                        + "spark.sql.catalog.nope to a catalog plugin. SQLSTATE: 42P08");
    }

    @Test
    void anImplementationNoProviderServesNamesTheCatalog() {
        withCatalog("spark.sql.catalog.other", "org.example.NoSuchCatalog");
        assertThatThrownBy(() -> sluice.readStream().table("other.db.events"))
                .hasMessageStartingWith("No table catalog provider serves the implementation "
                        + "'org.example.NoSuchCatalog' of catalog 'other' (spark.sql.catalog.other): add the module "
                        + "of that table format to the classpath")
                .hasMessageEndingWith("the providers found are io.sluice.core.TestTableCatalog");
    }
}
