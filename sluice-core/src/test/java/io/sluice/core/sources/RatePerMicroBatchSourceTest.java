package io.sluice.core.sources;

import io.sluice.core.ManualClock;
import io.sluice.api.InvalidOptionException;
import io.sluice.api.Offset;
import io.sluice.api.Options;
import io.sluice.api.ReadLimit;
import io.sluice.api.Row;
import io.sluice.api.source.MicroBatchStream;
import io.sluice.api.source.SupportsTriggerAvailableNow;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RatePerMicroBatchSourceTest {
    private static final long START = 1_790_899_200_000L;
    /** The options of Spark's sample query (samples/rate-*). */
    private static final Map<String, String> SAMPLE = Map.of("rowsPerBatch", "5", "numPartitions", "2",
            "startTimestamp", Long.toString(START));
    private final RatePerMicroBatchProvider provider = new RatePerMicroBatchProvider();
    private final ManualClock clock = new ManualClock(42);

    @TempDir
    Path dir;

    private MicroBatchStream stream(Map<String, String> options) {
        return StreamDriver.create(provider, options, dir, clock);
    }

    private static Row row(long ms, long value) {
        return Row.of(Instant.ofEpochMilli(ms), value);
    }

    @Test
    void offsetsMatchSparksSample() {
        MicroBatchStream s = stream(SAMPLE);
        assertThat(provider.shortName()).isEqualTo("rate-micro-batch");
        assertThat(provider.resolveSchema(Options.of(SAMPLE), Optional.empty()).simpleString())
                .isEqualTo("struct<timestamp:timestamp,value:bigint>");
        Offset start = s.initialOffset();
        assertThat(start.json()).isEqualTo("{\"offset\":0,\"timestamp\":1790899200000}");
        Offset end = s.latestOffset(start, ReadLimit.allAvailable());
        // samples/rate-chk/offsets/0, line 3
        assertThat(end.json()).isEqualTo("{\"offset\":5,\"timestamp\":1790899201000}");
        assertThat(s.latestOffset(end, ReadLimit.allAvailable()).json())
                .isEqualTo("{\"offset\":10,\"timestamp\":1790899202000}");
        assertThat(s.deserializeOffset("{\"offset\":5,\"timestamp\":1790899201000}").json()).isEqualTo(end.json());
        assertThat(s.deserializeOffset("{ \"timestamp\" : 1790899201000, \"offset\" : 5 }").json())
                .isEqualTo(end.json());
        assertThat(s.description()).isEqualTo(
                "RatePerMicroBatchStream[rowsPerBatch=5, numPartitions=2, startTimestamp=1790899200000, "
                        + "advanceMsPerBatch=1000]");
        assertThat(s.reportLatestOffset()).isNull();
    }

    @Test
    void everyRowOfABatchCarriesTheBatchStartTimestamp() {
        MicroBatchStream s = stream(SAMPLE);
        Offset o0 = s.initialOffset();
        Offset o1 = s.latestOffset(o0, ReadLimit.allAvailable());
        Offset o2 = s.latestOffset(o1, ReadLimit.allAvailable());

        List<List<Row>> first = StreamDriver.readPartitions(s, o0, o1);
        // samples/rate-out-part-00000.json: values 0, 2, 4 at 2026-10-02T00:00:00.000Z
        assertThat(Instant.ofEpochMilli(START)).isEqualTo(Instant.parse("2026-10-02T00:00:00.000Z"));
        assertThat(first).containsExactly(
                List.of(row(START, 0), row(START, 2), row(START, 4)),
                List.of(row(START, 1), row(START, 3)));

        List<List<Row>> second = StreamDriver.readPartitions(s, o1, o2);
        long t1 = START + 1000;
        assertThat(second).containsExactly(
                List.of(row(t1, 5), row(t1, 7), row(t1, 9)),
                List.of(row(t1, 6), row(t1, 8)));
        // a replay is the same
        assertThat(StreamDriver.readPartitions(s, s.deserializeOffset(o1.json()), s.deserializeOffset(o2.json())))
                .isEqualTo(second);
    }

    @Test
    void ignoresTheClockAndTheReadLimit() {
        MicroBatchStream s = stream(Map.of("rowsPerBatch", "1000", "advanceMillisPerBatch", "250"));
        Offset o1 = s.latestOffset(s.initialOffset(), ReadLimit.maxRows(1));
        clock.advance(1_000_000);
        Offset o2 = s.latestOffset(o1, ReadLimit.allAvailable());
        assertThat(o1.json()).isEqualTo("{\"offset\":1000,\"timestamp\":250}");
        assertThat(o2.json()).isEqualTo("{\"offset\":2000,\"timestamp\":500}");
        assertThat(s.defaultReadLimit()).isEqualTo(ReadLimit.maxRows(1000));
        List<Row> rows = StreamDriver.read(s, o1, o2);
        assertThat(rows).hasSize(1000);
        assertThat(rows.stream().mapToLong(r -> r.getLong(1)).sorted().toArray())
                .isEqualTo(java.util.stream.LongStream.range(1000, 2000).toArray());
        assertThat(rows).allSatisfy(r -> assertThat(r.getTimestamp(0)).isEqualTo(Instant.ofEpochMilli(250)));
    }

    @Test
    void availableNowEmitsExactlyOneBatchBeyondTheStart() {
        MicroBatchStream s = stream(SAMPLE);
        assertThat(s).isInstanceOf(SupportsTriggerAvailableNow.class);
        Offset start = s.deserializeOffset("{\"offset\":10,\"timestamp\":1790899202000}");
        ((SupportsTriggerAvailableNow) s).prepareForTriggerAvailableNow();
        Offset target = s.latestOffset(start, ReadLimit.allAvailable());
        assertThat(target.json()).isEqualTo("{\"offset\":15,\"timestamp\":1790899203000}");
        // the next trigger gets the same position: nothing new, the run ends
        assertThat(s.latestOffset(target, ReadLimit.allAvailable()).json()).isEqualTo(target.json());
    }

    @Test
    void fewerRowsThanPartitionsLeavesSomePartitionsEmpty() {
        MicroBatchStream s = stream(Map.of("rowsPerBatch", "1", "numPartitions", "3", "advanceMillisPerBatch", "0"));
        Offset o1 = s.latestOffset(s.initialOffset(), ReadLimit.allAvailable());
        assertThat(o1.json()).isEqualTo("{\"offset\":1,\"timestamp\":0}");
        assertThat(StreamDriver.readPartitions(s, s.initialOffset(), o1))
                .containsExactly(List.of(row(0, 0)), List.of(), List.of());
        assertThat(s.planPartitions(o1, o1)).isEmpty();
    }

    @Test
    void optionErrorsAreSparks() {
        // Spark reads a missing rowsPerBatch as 0 ("Invalid value '0'"): Sluice says that it is required.
        assertInvalid(Map.of(), "rowsPerBatch", null, "Option 'rowsPerBatch' is missing: the option is required");
        assertInvalid(Map.of("rowsPerBatch", "-2"), "rowsPerBatch", "-2",
                "Invalid value '-2'. The option 'rowsPerBatch' must be positive");
        assertInvalid(Map.of("rowsPerBatch", "1", "numPartitions", "-1"), "numPartitions", "-1",
                "Invalid value '-1'. The option 'numPartitions' must be positive");
        assertInvalid(Map.of("rowsPerBatch", "1", "startTimestamp", "-1"), "startTimestamp", "-1",
                "Invalid value '-1'. The option 'startTimestamp' must be non-negative");
        assertInvalid(Map.of("rowsPerBatch", "1", "advanceMillisPerBatch", "-1"), "advanceMillisPerBatch", "-1",
                "Invalid value '-1'. The option 'advanceMillisPerBatch' must be non-negative");
        assertThatThrownBy(() -> provider.resolveSchema(
                Options.of(Map.of("rowsPerBatch", "1", "advanceMillisPerBatch", "3000000000")), Optional.empty()))
                .isInstanceOf(InvalidOptionException.class).hasMessageContaining("advanceMillisPerBatch");
        // option names are case-insensitive, as in Spark
        assertThat(stream(Map.of("ROWSPERBATCH", "3", "numpartitions", "1")).description())
                .startsWith("RatePerMicroBatchStream[rowsPerBatch=3, numPartitions=1,");
    }

    private void assertInvalid(Map<String, String> options, String option, String value, String message) {
        assertThatThrownBy(() -> provider.resolveSchema(Options.of(options), Optional.empty()))
                .isInstanceOfSatisfying(InvalidOptionException.class, e -> {
                    assertThat(e.getMessage()).isEqualTo(message);
                    assertThat(e.option()).isEqualTo(option);
                    assertThat(e.value()).isEqualTo(value);
                });
    }
}
