package io.sluice.values;

import io.sluice.api.InvalidOptionException;
import io.sluice.api.Options;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The text formats' timestamp and date policy: patterns, fallbacks, timeZone. */
class DateTimeReaderTest {
    private static DateTimeReader reader(String... kv) {
        Map<String, String> m = new java.util.LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        return DateTimeReader.of(Options.of(m), ZoneOffset.UTC, true);
    }

    @Test
    void withoutAPatternCastsRulesThenWithoutGmt() {
        DateTimeReader r = reader();
        assertThat(r.timestamp("2020-01-01T12")).isEqualTo(Instant.parse("2020-01-01T12:00:00Z"));
        assertThat(r.timestamp("2020-01-01T12:00:00GMT")).isEqualTo(Instant.parse("2020-01-01T12:00:00Z"));
        assertThat(r.date("18262")).isEqualTo(LocalDate.of(18262, 1, 1)); // a year first, as in Spark
        assertThat(r.date("-1")).isEqualTo(LocalDate.of(1969, 12, 31)); // then JSON's day count
        assertThat(reader("enableDateTimeParsingFallback", "false").date("-1")).isNull();
        assertThat(DateTimeReader.of(Options.empty(), ZoneOffset.UTC, false).date("-1")).isNull(); // CSV
    }

    @Test
    void aPatternAloneUnlessTheFallbackIsOn() {
        DateTimeReader r = reader("timestampFormat", "dd/MM/yyyy HH:mm", "timeZone", "+02:00");
        assertThat(r.timestamp("02/01/2020 13:45")).isEqualTo(Instant.parse("2020-01-02T11:45:00Z"));
        assertThat(r.timestamp("2020-01-02T13:45")).isNull();
        assertThat(reader("timestampFormat", "dd/MM/yyyy HH:mm", "enableDateTimeParsingFallback", "true")
                .timestamp("2020-01-02T13:45")).isEqualTo(Instant.parse("2020-01-02T13:45:00Z"));
        assertThatThrownBy(() -> r.timestampMicrosOrFail("x".toCharArray(), 0, 1))
                .isInstanceOf(ValueParseException.class)
                .hasMessage("Cannot parse 'x' as a timestamp with timestampFormat");
    }

    @Test
    void badOptionsNameTheOption() {
        assertThatThrownBy(() -> reader("timeZone", "Mars/Base")).isInstanceOf(InvalidOptionException.class)
                .hasMessage("Invalid value 'Mars/Base' for option 'timeZone': a time zone id such as 'UTC', "
                        + "'America/Los_Angeles', '+02:00' or 'GMT+2' is accepted");
        assertThatThrownBy(() -> reader("dateFormat", "YYYY")).hasMessageStartingWith(
                "Invalid value 'YYYY' for option 'dateFormat': Fail to recognize 'YYYY' pattern in the DateTimeFormatter");
    }
}
