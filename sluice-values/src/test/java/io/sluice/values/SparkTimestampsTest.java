package io.sluice.values;

import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.ZoneOffset;

import static org.assertj.core.api.Assertions.assertThat;

class SparkTimestampsTest {
    private static Instant ts(String s, ZoneId zone) {
        long m = SparkTimestamps.toMicros(s.toCharArray(), 0, s.length(), zone);
        return m == SparkTimestamps.FAIL_MICROS ? null : Instant.ofEpochSecond(Math.floorDiv(m, 1_000_000L),
                Math.floorMod(m, 1_000_000L) * 1000);
    }

    private static Instant utc(String s) {
        return ts(s, ZoneOffset.UTC);
    }

    private static LocalDate date(String s) {
        long d = SparkTimestamps.toEpochDay(s.toCharArray(), 0, s.length());
        return d == SparkTimestamps.FAIL_DAY ? null : LocalDate.ofEpochDay(d);
    }

    @Test
    void timestampForms() {
        assertThat(utc("2026")).isEqualTo(Instant.parse("2026-01-01T00:00:00Z"));
        assertThat(utc("2026-10")).isEqualTo(Instant.parse("2026-10-01T00:00:00Z"));
        assertThat(utc("2026-10-04")).isEqualTo(Instant.parse("2026-10-04T00:00:00Z"));
        assertThat(utc("2026-10-04 ")).isEqualTo(Instant.parse("2026-10-04T00:00:00Z"));
        assertThat(utc("2026-10-04T07")).isEqualTo(Instant.parse("2026-10-04T07:00:00Z"));
        assertThat(utc("2026-10-04 07:08")).isEqualTo(Instant.parse("2026-10-04T07:08:00Z"));
        assertThat(utc("2026-10-04T07:08:09.1")).isEqualTo(Instant.parse("2026-10-04T07:08:09.100Z"));
        assertThat(utc("2026-10-04T07:08:09.1234567")).isEqualTo(Instant.parse("2026-10-04T07:08:09.123456Z"));
        assertThat(utc("2026-10-04T07:08:09Z")).isEqualTo(Instant.parse("2026-10-04T07:08:09Z"));
        assertThat(utc("2026-10-04T07:08:09.000Z")).isEqualTo(Instant.parse("2026-10-04T07:08:09Z"));
        assertThat(utc("2026-10-04T07:08:09+0530")).isEqualTo(Instant.parse("2026-10-04T01:38:09Z"));
        assertThat(utc("2026-10-04T07:08:09-5:00")).isEqualTo(Instant.parse("2026-10-04T12:08:09Z"));
        assertThat(utc("2026-10-04T07:08:09+01:3")).isEqualTo(Instant.parse("2026-10-04T06:05:09Z"));
        assertThat(utc("2026-10-04 07:08:09 UTC")).isEqualTo(Instant.parse("2026-10-04T07:08:09Z"));
        assertThat(utc("2026-10-04 07:08:09 PST")).isEqualTo(Instant.parse("2026-10-04T14:08:09Z"));
        assertThat(utc("2026-10-04T07:08:09UTC+02:00")).isEqualTo(Instant.parse("2026-10-04T05:08:09Z"));
        assertThat(utc("+2026-10-04")).isEqualTo(Instant.parse("2026-10-04T00:00:00Z"));
        assertThat(utc("-0001-01-01")).isEqualTo(LocalDate.of(-1, 1, 1).atStartOfDay().toInstant(ZoneOffset.UTC));
        assertThat(utc("\t2026-10-04 \n")).isEqualTo(Instant.parse("2026-10-04T00:00:00Z"));
    }

    @Test
    void timestampRejects() {
        for (String bad : new String[] {"", " ", "26-10-04", "2026-13-01", "2026-02-30", "2026-10-04T24:00:00",
                "2026-10-04T07:08:60", "2026-10-04X", "2026-10-04T07:08Z", "2026-10-04T07:08:09 Mars/Base",
                "12:00:00", "T12:00:00", "2026/10/04", "1234567-01-01", "2026-1-1-1", "abc"}) {
            assertThat(utc(bad)).as(bad).isNull();
        }
    }

    @Test
    void theDefaultZoneAppliesWithoutOneAndDaylightSavingGapsMoveForward() {
        ZoneId paris = ZoneId.of("Europe/Paris");
        assertThat(ts("2026-07-01 12:00:00", paris)).isEqualTo(Instant.parse("2026-07-01T10:00:00Z"));
        assertThat(ts("2026-01-01 12:00:00", paris)).isEqualTo(Instant.parse("2026-01-01T11:00:00Z"));
        assertThat(ts("2026-03-29 02:30:00", paris)).isEqualTo(Instant.parse("2026-03-29T01:30:00Z"));
        assertThat(ts("2026-07-01 12:00:00Z", paris)).isEqualTo(Instant.parse("2026-07-01T12:00:00Z"));
    }

    @Test
    void theIsoFastPathAgreesWithTheGeneralRules() {
        String[] samples = {"2026-10-04", "2026-10-04T00:00:00", "2026-10-04 23:59:59", "2026-10-04T00:00:00Z",
                "2026-10-04T00:00:00.000Z", "2026-10-04T00:00:00.1Z", "2026-10-04T00:00:00.1234567Z",
                "2026-10-04T00:00:00.", "2026-10-04T00:00:00.Z", "2026-10-04T00:00:00+02:00", "2026-10-04T00:00:00-09:30",
                "2026-10-04T00:00:00+19:00", "2024-02-29T12:00:00", "2026-02-29T12:00:00", "2026-04-31", "2026-00-10",
                "2026-13-01", "2026-10-04T24:00:00", "2026-10-04T10:60:00", "2026-10-04T10:00:60", "0001-01-01",
                "9999-12-31T23:59:59.999999Z", "1969-12-31T23:59:59.999999Z", "1900-03-01", "2000-02-29",
                "2026-10-04X00:00:00", "2026-10-04T00:00:00Zx", "2026-10-04T00:00:00+0200", "2026-1a-04",
                "2026-10-04T00:00", "2026-10-04T00:00:00 UTC", "1582-10-10"};
        for (ZoneId zone : new ZoneId[] {ZoneOffset.UTC, ZoneId.of("Europe/Paris"), ZoneOffset.ofHours(-3)}) {
            for (String s : samples) {
                char[] c = s.toCharArray();
                assertThat(SparkTimestamps.toMicros(c, 0, c.length, zone)).as(s + " in " + zone)
                        .isEqualTo(SparkTimestamps.toMicrosGeneral(c, 0, c.length, zone));
            }
        }
        for (int y = -400; y <= 2400; y += 7) {
            for (int m = 1; m <= 12; m++) {
                assertThat(SparkTimestamps.daysFromCivil(y, m, 28)).isEqualTo(LocalDate.of(y, m, 28).toEpochDay());
            }
        }
    }

    @Test
    void dateForms() {
        assertThat(date("2026")).isEqualTo(LocalDate.of(2026, 1, 1));
        assertThat(date("2026-7")).isEqualTo(LocalDate.of(2026, 7, 1));
        assertThat(date("2026-7-4")).isEqualTo(LocalDate.of(2026, 7, 4));
        assertThat(date("2026-07-04 anything")).isEqualTo(LocalDate.of(2026, 7, 4));
        assertThat(date("2026-07-04Tanything")).isEqualTo(LocalDate.of(2026, 7, 4));
        assertThat(date(" 2026-07-04 ")).isEqualTo(LocalDate.of(2026, 7, 4));
        assertThat(date("-2026-07-04")).isEqualTo(LocalDate.of(-2026, 7, 4));
        for (String bad : new String[] {"", "26-07-04", "2026-07-04x", "2026-7 x", "2026-02-30", "2026/07/04"}) {
            assertThat(date(bad)).as(bad).isNull();
        }
    }

    @Test
    void zoneIdsAsSparkReadsThem() {
        assertThat(SparkTimestamps.zoneId("+1:00")).isEqualTo(ZoneOffset.ofHours(1));
        assertThat(SparkTimestamps.zoneId("-08:3")).isEqualTo(ZoneOffset.ofHoursMinutes(-8, -3));
        assertThat(SparkTimestamps.zoneId("PST")).isEqualTo(ZoneId.of("America/Los_Angeles"));
        assertThat(SparkTimestamps.zoneId("nowhere")).isNull();
    }
}
