package io.sluice.api;

import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Spark's time strings (JavaUtils.timeStringAs*) and interval strings, one implementation. */
class DurationsTest {
    @Test
    void timeStringsWithEveryUnitAndNoUnit() {
        assertThat(Durations.timeStringAsMs("x", "100")).isEqualTo(100);
        assertThat(Durations.timeStringAsMs("x", " 2D ")).isEqualTo(2 * 86_400_000L);
        assertThat(Durations.timeStringAsMs("x", "1h")).isEqualTo(3_600_000L);
        assertThat(Durations.timeStringAsMs("x", "15m")).isEqualTo(900_000L);
        assertThat(Durations.timeStringAsMs("x", "30s")).isEqualTo(30_000L);
        assertThat(Durations.timeStringAsMs("x", "2min")).isEqualTo(120_000L);
        assertThat(Durations.timeStringAsMs("x", "1500us")).isEqualTo(1L);
        assertThat(Durations.timeStringAsMs("x", "0")).isZero();
        assertThat(Durations.timeStringAsSec("x", "90")).isEqualTo(90);
        assertThat(Durations.timeStringAsSec("x", "1500ms")).isEqualTo(1);
        assertThat(Durations.timeStringAsSec("x", "-5")).isEqualTo(-5);
        assertThat(Durations.timeString("x", "7d", TimeUnit.MILLISECONDS, TimeUnit.HOURS)).isEqualTo(168);
    }

    @Test
    void badTimeStringsFailWithSparksMessage() {
        assertThatThrownBy(() -> Durations.timeStringAsMs("maxTriggerDelay", "soon"))
                .isInstanceOf(InvalidOptionException.class)
                .hasMessage("Time must be specified as seconds (s), milliseconds (ms), microseconds (us), minutes (m "
                        + "or min), hour (h), or day (d). E.g. 50s, 100ms, or 250us.\nFailed to parse time string: soon");
        assertThatThrownBy(() -> Durations.timeStringAsMs("maxFileAge", "7w"))
                .hasMessage(Durations.TIME_STRING_ERROR + "\nInvalid suffix: \"w\"");
        assertThatThrownBy(() -> Durations.timeStringAsMs("maxFileAge", "5 s"))
                .hasMessage(Durations.TIME_STRING_ERROR + "\nFailed to parse time string: 5 s");
        assertThatThrownBy(() -> Durations.timeStringAsMs("retention", "-1d"))
                .hasMessage("Invalid value '-1d' for option 'retention': a non-negative duration is accepted");
    }

    @Test
    void intervals() {
        assertThat(Durations.intervalMs("trigger interval", "10 seconds")).isEqualTo(10_000);
        assertThat(Durations.intervalMs("trigger interval", "1 minute")).isEqualTo(60_000);
        assertThat(Durations.intervalMs("trigger interval", "interval 2 hours")).isEqualTo(7_200_000);
        assertThat(Durations.intervalMs("trigger interval", "500ms")).isEqualTo(500);
        assertThat(Durations.intervalMs("trigger interval", "0")).isZero();
        assertThatThrownBy(() -> Durations.intervalMs("trigger interval", "5 fortnights"))
                .hasMessage("Invalid trigger interval '5 fortnights': unknown unit 'fortnights'; accepted: ms, "
                        + "seconds, minutes, hours, days");
    }

    @Test
    void declaredDurationOptionsAreCheckedByTheSameRules() {
        OptionSet set = OptionSet.of(OptionDef.of("maxFileAge", OptionDef.Type.DURATION, "age"));
        assertThatThrownBy(() -> set.validate(Options.of(java.util.Map.of("maxFileAge", "7 weeks"))))
                .hasMessage(Durations.TIME_STRING_ERROR + "\nFailed to parse time string: 7 weeks");
    }
}
