package io.sluice.core;

import io.sluice.api.InvalidOptionException;
import io.sluice.api.OptionDef;
import io.sluice.api.OptionSet;
import io.sluice.api.Options;
import io.sluice.api.datasource.DataSource;
import io.sluice.core.sinks.MemorySink;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The engine's check of option names against the providers' declarations, and the engine configuration. */
class OptionNamesTest extends EngineTestBase {
    private static final String WARNING = "WARN io.sluice.core.UnknownOptions - Unknown option 'rowsPerSec' for "
            + "source 'rate-micro-batch': it is ignored (set sluice.options.unknown=error to refuse unknown options)";

    @RegisterExtension
    final StderrCapture log = new StderrCapture();

    private String logged() {
        return log.text();
    }

    private DataStreamReader rateMicroBatch(Sluice s) {
        return s.readStream().format("rate-micro-batch").option("rowsPerBatch", 1);
    }

    @Test
    void aMisspeltSourceOptionFailsAtLoadNamingTheDeclaredOne() {
        // Checked before the options themselves: the missing rowsPerBatch is what the typo was meant to give.
        assertThatThrownBy(() -> sluice.readStream().format("rate-micro-batch").option("rowsPerBach", 10).load())
                .isInstanceOfSatisfying(InvalidOptionException.class, e -> {
                    assertThat(e).hasMessage("Unknown option 'rowsPerBach' for source 'rate-micro-batch': did you "
                            + "mean 'rowsPerBatch'?");
                    assertThat(e.option()).isEqualTo("rowsPerBach");
                    assertThat(e.value()).isEqualTo("10");
                });
    }

    @Test
    void rowsPerBatchIsRequired() {
        assertThatThrownBy(() -> sluice.readStream().format("rate-micro-batch").load())
                .isInstanceOfSatisfying(InvalidOptionException.class, e -> {
                    assertThat(e).hasMessage("Option 'rowsPerBatch' is missing: the option is required");
                    assertThat(e.option()).isEqualTo("rowsPerBatch");
                    assertThat(e.value()).isNull();
                });
    }

    @Test
    void closeMeansAnotherCaseOrSeparatorATrailingSOrTwoEdits() {
        assertThat(UnknownOptions.nearest("max_files_per_trigger", List.of("maxFilesPerTrigger")))
                .contains("maxFilesPerTrigger");
        assertThat(UnknownOptions.nearest("startingOffset", List.of("startingOffsets"))).contains("startingOffsets");
        assertThat(UnknownOptions.nearest("numPartition", List.of("numPartitions"))).contains("numPartitions");
        assertThat(UnknownOptions.nearest("inculdeHeaders", List.of("includeHeaders"))).contains("includeHeaders");
        assertThat(UnknownOptions.nearest("maxFilesPerTrgr", List.of("maxFilesPerTrigger"))).isEmpty();
        // Short names allow one edit only: two would turn one word into another.
        assertThat(UnknownOptions.nearest("hots", List.of("host"))).contains("host");
        assertThat(UnknownOptions.nearest("post", List.of("host"))).contains("host");
        assertThat(UnknownOptions.nearest("pest", List.of("host"))).isEmpty();
        // The closest wins.
        assertThat(UnknownOptions.nearest("endingOffset", List.of("startingOffsets", "endingOffsets")))
                .contains("endingOffsets");
        assertThat(UnknownOptions.distance("abcd", "acbd")).isEqualTo(1);
    }

    @Test
    void aFarUnknownNameIsWarnedOncePerProviderAndNameAndDoesNotFail() {
        rateMicroBatch(sluice).option("rowsPerSec", 5).load();
        rateMicroBatch(sluice).option("ROWSPERSEC", 5).load();
        assertThat(logged()).containsOnlyOnce(WARNING);
        // Another Sluice instance warns again.
        try (Sluice other = Sluice.local()) {
            rateMicroBatch(other).option("rowsPerSec", 5).load();
        }
        assertThat(logged().split(java.util.regex.Pattern.quote(WARNING), -1)).hasSize(3);
    }

    @Test
    void withUnknownSetToErrorEveryUnknownNameFails() {
        try (Sluice strict = Sluice.builder().config("sluice.options.unknown", "error").build()) {
            assertThatThrownBy(() -> rateMicroBatch(strict).option("rowsPerSec", 5).load())
                    .isInstanceOf(InvalidOptionException.class)
                    .hasMessage("Unknown option 'rowsPerSec' for source 'rate-micro-batch' "
                            + "(sluice.options.unknown=error): the declared options are rowsPerBatch, "
                            + "numPartitions, startTimestamp, advanceMillisPerBatch");
            StreamFrame frame = rateMicroBatch(strict).load();
            assertThatThrownBy(() -> frame.writeStream().format("noop").option("rows", "3").start())
                    .isInstanceOf(InvalidOptionException.class)
                    .hasMessage("Unknown option 'rows' for sink 'noop' (sluice.options.unknown=error): the "
                            + "declared options are checkpointLocation, minBatchesToRetain, queryName, path");
            // Declared names in any case, and the engine's writer options, pass.
            StreamingQuery q = frame.writeStream().format("console").option("NUMROWS", 1)
                    .option("checkpointLocation", checkpoint.toString()).trigger(Trigger.availableNow()).start();
            q.stop();
        }
        assertThat(logged()).doesNotContain("Unknown option");
    }

    @Test
    void aMisspeltSinkOrEngineOptionFailsAtStart() {
        StreamFrame frame = rateMicroBatch(sluice).load();
        assertThatThrownBy(() -> frame.writeStream().format("console").option("numRow", 5).start())
                .isInstanceOf(InvalidOptionException.class)
                .hasMessage("Unknown option 'numRow' for sink 'console': did you mean 'numRows'?");
        assertThatThrownBy(() -> frame.writeStream().format("console").option("checkpointLocaton", "/tmp/x").start())
                .isInstanceOf(InvalidOptionException.class)
                .hasMessage("Unknown option 'checkpointLocaton' for sink 'console': did you mean "
                        + "'checkpointLocation'?");
        assertThatThrownBy(() -> frame.writeStream().foreachBatch((b, id) -> { }).option("partitionsBy", "a")
                .start())
                .hasMessage("Unknown option 'partitionsBy' for sink 'foreachBatch': did you mean 'partitionBy'?");
    }

    @Test
    void providersThatDeclareNothingGetNoChecks() throws Exception {
        try (Sluice strict = Sluice.builder().config("sluice.options.unknown", "error").parallelism(1).build()
                .registerSource(new ScriptedSource()).registerSink(new RecordingSink())) {
            source.add(1);
            StreamingQuery q = strict.readStream().format("scripted").option("name", name).option("nmae", "x")
                    .load().writeStream().format("recording").option("name", name).option("anything", "1")
                    .option("checkpointLocaton", "typo").option("checkpointLocation", checkpoint.toString())
                    .start();
            q.processAllAvailable();
            q.stop();
        }
        assertThat(sink.allRows()).isEqualTo(rows(1, 1));
        assertThat(logged()).doesNotContain("Unknown option");
    }

    @Test
    void aDataSourceDeclaresItsOptionsToo() {
        sluice.registerDataSource(new DataSource() {
            @Override
            public String name() {
                return "declared";
            }

            @Override
            public OptionSet options() {
                return OptionSet.of(OptionDef.string("url", "where to read").asRequired(),
                        OptionDef.string("apiKey", "a secret")).withPrefixes("http.");
            }

            @Override
            public String schemaDdl(Options options) {
                return "v bigint";
            }
        });
        assertThatThrownBy(() -> sluice.readStream().format("declared").option("urls", "x")
                .load())
                .hasMessage("Unknown option 'urls' for source 'declared': did you mean 'url'?");
        sluice.readStream().format("declared").option("url", "x").option("http.timeout", "1").load();
        // A secret value is not kept in the exception either.
        assertThatThrownBy(() -> sluice.readStream().format("declared").option("url", "x")
                .option("apiKeys", "s3cr3t").load())
                .isInstanceOfSatisfying(InvalidOptionException.class, e -> {
                    assertThat(e).hasMessage("Unknown option 'apiKeys' for source 'declared': did you mean 'apiKey'?");
                    assertThat(e.value()).isEqualTo("*****");
                });
        assertThat(logged()).doesNotContain("Unknown option");
    }

    @Test
    void theQueryNameOptionNamesTheQueryAsQueryNameDoes() throws Exception {
        StreamingQuery q = rateMicroBatch(sluice).load().writeStream().format("memory")
                .option("queryName", name).trigger(Trigger.availableNow()).start();
        q.awaitTermination();
        assertThat(q.name()).isEqualTo(name);
        assertThat(MemorySink.rows(name)).hasSize(1);
        MemorySink.clear(name);
    }

    @Test
    void engineConfigKeysUnderSluiceAreChecked() {
        assertThatThrownBy(() -> Sluice.builder().config("sluice.option.unknown", "error"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Unknown Sluice configuration key 'sluice.option.unknown': did you mean "
                        + "'sluice.options.unknown'?");
        assertThatThrownBy(() -> Sluice.builder().config("sluice.parallelism", "2"))
                .hasMessage("Unknown Sluice configuration key 'sluice.parallelism': the known keys are "
                        + "sluice.checkpoint.leaseTimeout, sluice.options.unknown");
        assertThatThrownBy(() -> Sluice.builder().config("sluice.checkpoint.leaseTimeout", "10ms"))
                .hasMessage("Invalid value '10ms' for Sluice configuration 'sluice.checkpoint.leaseTimeout': a "
                        + "duration of at least 1s, such as 60s or 2min, is accepted");
        assertThat(Sluice.builder().config("sluice.checkpoint.leaseTimeout", "2min").build()
                .checkpointLeaseTimeoutMs()).isEqualTo(120_000);
        assertThatThrownBy(() -> Sluice.builder().config("sluice.options.unknown", "fail"))
                .hasMessage("Invalid value 'fail' for Sluice configuration 'sluice.options.unknown': warn or error "
                        + "is accepted");
        try (Sluice s = Sluice.builder().config("my.setting", " kept ").config("SLUICE.OPTIONS.UNKNOWN", "ERROR")
                .build()) {
            assertThat(s.config()).isEqualTo(Map.of("my.setting", " kept ", "SLUICE.OPTIONS.UNKNOWN", "ERROR"));
            assertThat(s.config("sluice.options.unknown")).contains("ERROR");
            assertThatThrownBy(() -> rateMicroBatch(s).option("x", 1).load())
                    .hasMessageStartingWith("Unknown option 'x' for source 'rate-micro-batch' "
                            + "(sluice.options.unknown=error)");
        }
    }
}
