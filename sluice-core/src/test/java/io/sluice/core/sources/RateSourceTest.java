package io.sluice.core.sources;

import io.sluice.core.ManualClock;
import io.sluice.api.InvalidOptionException;
import io.sluice.api.Offset;
import io.sluice.api.Options;
import io.sluice.api.ReadLimit;
import io.sluice.api.Row;
import io.sluice.api.source.MicroBatchStream;
import io.sluice.api.types.DataType;
import io.sluice.api.types.StructField;
import io.sluice.api.types.StructType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RateSourceTest {
    private static final long T0 = 1_790_899_200_000L;
    private final RateSourceProvider provider = new RateSourceProvider();

    @TempDir
    Path dir;

    private MicroBatchStream stream(ManualClock clock, Map<String, String> options) {
        return StreamDriver.create(provider, options, dir, clock);
    }

    private static Row row(long ms, long value) {
        return Row.of(Instant.ofEpochMilli(ms), value);
    }

    private static Offset off(long seconds) {
        return Offset.of(Long.toString(seconds));
    }

    @Test
    void schemaIsTimestampAndValue() {
        assertThat(provider.shortName()).isEqualTo("rate");
        assertThat(provider.resolveSchema(Options.empty(), Optional.empty()).simpleString())
                .isEqualTo("struct<timestamp:timestamp,value:bigint>");
        StructType other = StructType.of(StructField.of("value", DataType.longType()));
        assertThatThrownBy(() -> provider.resolveSchema(Options.empty(), Optional.of(other)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("fixed schema");
    }

    @Test
    void offsetsAreWholeSecondsSinceCreation() {
        ManualClock clock = new ManualClock(T0);
        MicroBatchStream s = stream(clock, Map.of("rowsPerSecond", "10", "numPartitions", "2"));
        Offset start = s.initialOffset();
        assertThat(start.json()).isEqualTo("0");

        clock.advance(999);
        Offset same = s.latestOffset(start, ReadLimit.allAvailable());
        assertThat(same == null || same.json().equals("0")).isTrue();

        clock.advance(1);
        Offset one = s.latestOffset(start, ReadLimit.allAvailable());
        assertThat(one.json()).isEqualTo("1");
        // two triggers in the same second: nothing new
        clock.advance(500);
        Offset again = s.latestOffset(one, ReadLimit.allAvailable());
        assertThat(again == null || again.json().equals("1")).isTrue();

        clock.advance(2000);
        assertThat(s.latestOffset(one, ReadLimit.allAvailable()).json()).isEqualTo("3");
        assertThat(s.deserializeOffset("3").json()).isEqualTo("3");
    }

    @Test
    void rowsSpreadEvenlyOverTheSecondAndRoundRobinOverPartitions() {
        ManualClock clock = new ManualClock(T0);
        MicroBatchStream s = stream(clock, Map.of("rowsPerSecond", "10", "numPartitions", "2"));
        clock.advance(1000);
        Offset one = s.latestOffset(s.initialOffset(), ReadLimit.allAvailable());

        List<List<Row>> parts = StreamDriver.readPartitions(s, s.initialOffset(), one);
        assertThat(parts).hasSize(2);
        assertThat(parts.get(0)).containsExactly(row(T0, 0), row(T0 + 200, 2), row(T0 + 400, 4), row(T0 + 600, 6),
                row(T0 + 800, 8));
        assertThat(parts.get(1)).containsExactly(row(T0 + 100, 1), row(T0 + 300, 3), row(T0 + 500, 5),
                row(T0 + 700, 7), row(T0 + 900, 9));

        List<List<Row>> next = StreamDriver.readPartitions(s, one, off(3));
        List<Row> expected0 = new ArrayList<>();
        List<Row> expected1 = new ArrayList<>();
        for (long v = 10; v < 30; v++) {
            (v % 2 == 0 ? expected0 : expected1).add(row(T0 + 1000 + (v - 10) * 100, v));
        }
        assertThat(next.get(0)).isEqualTo(expected0);
        assertThat(next.get(1)).isEqualTo(expected1);
        assertThat(next.get(0).get(0).getTimestamp(0)).isEqualTo(Instant.parse("2026-10-02T00:00:01Z"));
    }

    @Test
    void timestampsAreRoundedToTheNearestMillisecond() {
        ManualClock clock = new ManualClock(T0);
        MicroBatchStream s = stream(clock, Map.of("rowsPerSecond", "3", "numPartitions", "1"));
        assertThat(StreamDriver.read(s, off(0), off(1)))
                .containsExactly(row(T0, 0), row(T0 + 333, 1), row(T0 + 667, 2));
    }

    @Test
    void emptyRangePlansNothing() {
        MicroBatchStream s = stream(new ManualClock(T0), Map.of("numPartitions", "2"));
        assertThat(s.planPartitions(off(4), off(4))).isEmpty();
    }

    @Test
    void rampUpGrowsTheSpeedLinearly() {
        // rowsPerSecond 10, rampUpTime 4s: speed 0 2 4 6 8 10 10..., rows so far 0 2 6 12 20 30 40
        assertThat(List.of(0L, 1L, 2L, 3L, 4L, 5L, 6L).stream()
                .map(sec -> RateStream.valueAtSecond(sec, 10, 4)).toList())
                .containsExactly(0L, 2L, 6L, 12L, 20L, 30L, 40L);

        ManualClock clock = new ManualClock(T0);
        MicroBatchStream s = stream(clock, Map.of("rowsPerSecond", "10", "rampUpTime", "4s", "numPartitions", "1"));
        assertThat(StreamDriver.read(s, off(0), off(1))).containsExactly(row(T0, 0), row(T0 + 500, 1));

        List<Row> expected = new ArrayList<>();
        for (long v = 2; v < 12; v++) {
            expected.add(row(T0 + 1000 + (v - 2) * 200, v));
        }
        assertThat(StreamDriver.read(s, off(1), off(3))).isEqualTo(expected);

        // after the ramp-up: 10 rows a second
        List<Row> steady = StreamDriver.read(s, off(5), off(6));
        assertThat(steady).hasSize(10);
        assertThat(steady.get(0)).isEqualTo(row(T0 + 5000, 30));
        assertThat(steady.get(9)).isEqualTo(row(T0 + 5900, 39));
        assertThat(s.description()).isEqualTo("RateStreamV2[rowsPerSecond=10, rampUpTimeSeconds=4, numPartitions=1");
    }

    @Test
    void creationTimeIsKeptSoARestartReplaysTheSameRows() throws Exception {
        ManualClock clock = new ManualClock(T0);
        Map<String, String> opts = Map.of("rowsPerSecond", "7", "rampUpTime", "2", "numPartitions", "3");
        MicroBatchStream first = stream(clock, opts);
        clock.advance(3_400);
        Offset end = first.latestOffset(first.initialOffset(), ReadLimit.allAvailable());
        assertThat(end.json()).isEqualTo("3");
        List<List<Row>> before = StreamDriver.readPartitions(first, off(1), end);
        first.stop();

        assertThat(Files.readString(dir.resolve("0"), StandardCharsets.UTF_8)).isEqualTo("v1\n" + T0);
        try (var files = Files.list(dir)) {
            assertThat(files.map(p -> p.getFileName().toString())).containsExactly("0");
        }

        // a restart a minute later: the same range yields the same rows
        clock.advance(60_000);
        MicroBatchStream second = stream(clock, opts);
        Offset replayEnd = second.deserializeOffset("3");
        assertThat(StreamDriver.readPartitions(second, second.deserializeOffset("1"), replayEnd)).isEqualTo(before);
        assertThat(before.stream().mapToInt(List::size).sum()).isEqualTo(
                (int) (RateStream.valueAtSecond(3, 7, 2) - RateStream.valueAtSecond(1, 7, 2)));
        // and the offsets go on from the kept creation time
        assertThat(second.latestOffset(replayEnd, ReadLimit.allAvailable()).json()).isEqualTo("63");
    }

    @Test
    void aCorruptCreationTimeFileFailsClearly() throws Exception {
        Files.writeString(dir.resolve("0"), "garbage");
        assertThatThrownBy(() -> stream(new ManualClock(T0), Map.of()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining(dir.resolve("0").toString())
                .hasMessageContaining("failed to detect the log file version line");
    }

    @Test
    void descriptionIsSparks() {
        assertThat(stream(new ManualClock(T0), Map.of()).description())
                .isEqualTo("RateStreamV2[rowsPerSecond=1, rampUpTimeSeconds=0, numPartitions=default");
        assertThat(stream(new ManualClock(T0), Map.of("rowsPerSecond", "5", "numPartitions", "2")).description())
                .isEqualTo("RateStreamV2[rowsPerSecond=5, rampUpTimeSeconds=0, numPartitions=2");
    }

    @Test
    void rampUpTimeAcceptsSparkTimeStrings() {
        assertThat(description(Map.of("rampUpTime", "5"))).contains("rampUpTimeSeconds=5,");
        assertThat(description(Map.of("rampUpTime", "5s"))).contains("rampUpTimeSeconds=5,");
        assertThat(description(Map.of("rampUpTime", "2min"))).contains("rampUpTimeSeconds=120,");
        assertThat(description(Map.of("rampUpTime", "1500ms"))).contains("rampUpTimeSeconds=1,");
        assertThat(description(Map.of("rampUpTime", " 1H "))).contains("rampUpTimeSeconds=3600,");
    }

    private String description(Map<String, String> options) {
        return stream(new ManualClock(T0), options).description();
    }

    @Test
    void optionErrorsAreSparks() {
        assertInvalid(Map.of("rowsPerSecond", "0"), "rowsPerSecond", "0",
                "Invalid value '0'. The option 'rowsPerSecond' must be positive");
        assertInvalid(Map.of("rowsPerSecond", "-3"), "rowsPerSecond", "-3",
                "Invalid value '-3'. The option 'rowsPerSecond' must be positive");
        assertInvalid(Map.of("rampUpTime", "-5s"), "rampUpTime", "-5",
                "Invalid value '-5'. The option 'rampUpTime' must not be negative");
        assertInvalid(Map.of("numPartitions", "0"), "numPartitions", "0",
                "Invalid value '0'. The option 'numPartitions' must be positive");
        String timeError = "Time must be specified as seconds (s), milliseconds (ms), microseconds (us), "
                + "minutes (m or min), hour (h), or day (d). E.g. 50s, 100ms, or 250us.\n";
        assertInvalid(Map.of("rampUpTime", "soon"), "rampUpTime", "soon",
                timeError + "Failed to parse time string: soon");
        assertInvalid(Map.of("rampUpTime", "5x"), "rampUpTime", "5x", timeError + "Invalid suffix: \"x\"");
        assertInvalid(Map.of("rowsPerSecond", String.valueOf(Long.MAX_VALUE), "rampUpTime", "2"), "rampUpTime", "2",
                "Max offset with " + Long.MAX_VALUE + " rowsPerSecond is 1, but 'rampUpTimeSeconds' is 2.");
        assertThatThrownBy(() -> provider.resolveSchema(Options.of(Map.of("rowsPerSecond", "many")), Optional.empty()))
                .isInstanceOf(InvalidOptionException.class).hasMessageContaining("rowsPerSecond");
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
