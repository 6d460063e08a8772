package io.sluice.core;

import io.sluice.api.InvalidOptionException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ValidationTest extends EngineTestBase {

    @Test
    void anUnknownSourceFormatIsRefusedAtLoadListingTheKnownOnes() {
        assertThatThrownBy(() -> sluice.readStream().format("nope").load())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("Unknown source format 'nope'. Available: ")
                .hasMessageContaining("scripted")
                .hasMessageEndingWith("A custom source is found when its SourceProvider is listed in "
                        + "META-INF/services/io.sluice.api.source.SourceProvider (or its DataSource in "
                        + "META-INF/services/io.sluice.api.datasource.DataSource) on the classpath, or registered "
                        + "with Sluice.registerSource(...) or Sluice.registerDataSource(...).");
    }

    @Test
    void anUnknownSinkFormatIsRefusedAtStart() {
        assertThatThrownBy(() -> scripted().load().writeStream().format("nowhere").start())
                .hasMessageStartingWith("Unknown sink format 'nowhere'. Available: ");
    }

    @Test
    void formatsAndOptionKeysAreCaseInsensitive() throws Exception {
        source.add(2);
        StreamingQuery q = sluice.readStream().format("SCRIPTED").option("NAME", name).load()
                .writeStream().format("Recording").option("Name", name)
                .option("CHECKPOINTLOCATION", checkpoint.toString()).start();
        q.processAllAvailable();
        q.stop();
        assertThat(sink.allRows()).containsExactlyInAnyOrderElementsOf(rows(1, 2));
    }

    @Test
    void aMissingRequiredSourceOptionFailsAtLoad() {
        assertThatThrownBy(() -> sluice.readStream().format("scripted").load())
                .isInstanceOf(InvalidOptionException.class)
                .hasMessage("Option 'name' is missing: the option is required");
    }

    @Test
    void aSourceWithAFixedSchemaRefusesAnotherUserSchema() {
        assertThatThrownBy(() -> scripted().schema(io.sluice.api.types.StructType.of(
                io.sluice.api.types.StructField.of("x", io.sluice.api.types.DataType.stringType()))).load())
                .hasMessage("The scripted source has a fixed schema (value BIGINT) and does not accept a "
                        + "user-specified schema (x STRING)");
    }

    @Test
    void aCheckpointLocationIsRequiredUnlessTheSinkAllowsATemporaryOne() {
        assertThatThrownBy(() -> scripted().load().writeStream().format("recording").option("name", name).start())
                .isInstanceOf(InvalidOptionException.class)
                .hasMessage("checkpointLocation must be specified with option(\"checkpointLocation\", \"<dir>\") for "
                        + "the 'recording' sink, so the query can recover after a restart");
    }

    @Test
    void minBatchesToRetainMustBePositive() {
        assertThatThrownBy(() -> recording(scripted().load()).option("minBatchesToRetain", "0").start())
                .isInstanceOf(InvalidOptionException.class)
                .hasMessage("Invalid value '0' for option 'minBatchesToRetain': a positive whole number is accepted");
        assertThatThrownBy(() -> recording(scripted().load()).option("minBatchesToRetain", "many").start())
                .hasMessage("Invalid value 'many' for option 'minBatchesToRetain': a whole number (int) is accepted");
    }

    @Test
    void outputModesAreSparksAndCompleteNeedsAnAggregation() {
        assertThatThrownBy(() -> scripted().load().writeStream().outputMode("upsert"))
                .hasMessage("Unknown output mode upsert. Accepted output modes are 'append', 'complete', 'update'");
        assertThatThrownBy(() -> recording(scripted().load()).outputMode("complete").start())
                .isInstanceOf(AnalysisException.class)
                .hasMessage("Invalid streaming output mode: complete. This output mode is not supported for no "
                        + "streaming aggregations on streaming DataFrames/DataSets.");
    }

    @Test
    void twoActiveQueriesMayNotShareAName() {
        StreamingQuery q = recording(scripted().load()).queryName("dup").start();
        try {
            assertThatThrownBy(() -> scripted().load().writeStream().format("recording").option("name", name)
                    .option("checkpointLocation", tmp.resolve("other").toString()).queryName("dup").start())
                    .hasMessage("Cannot start query with name dup as a query with that name is already active in "
                            + "this Sluice instance");
        } finally {
            q.stop();
        }
    }

    @Test
    void aSecondQueryOnALiveCheckpointFailsAtOnce() {
        StreamingQuery q = recording(scripted().load()).start();
        try {
            assertThatThrownBy(() -> recording(scripted().load()).start())
                    .hasMessageContaining("is in use by another running query");
            assertThat(q.isActive()).isTrue();
        } finally {
            q.stop();
        }
    }
}
