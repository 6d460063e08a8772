package io.sluice.core;

import io.sluice.api.Row;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.List;
import java.util.TimeZone;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The session time zone, Spark's {@code spark.sql.session.timeZone}: set through {@code Sluice.builder().config}
 * (not the JVM's zone), every zone-dependent expression reads and writes in it.
 */
class SessionTimeZoneTest extends EngineTestBase {
    private static final Instant NOON_LA = Instant.parse("2020-01-01T20:00:00Z");

    private Sluice losAngeles(io.sluice.api.SluiceClock clock) {
        return Sluice.builder().clock(clock).parallelism(1).config("spark.sql.session.timeZone", "America/Los_Angeles")
                .build().registerSource(new ScriptedSource());
    }

    private StreamFrame oneRow(Sluice s) {
        source.add(1);
        return s.read().format("scripted").option("name", name).load();
    }

    @Test
    void zoneLessTimestampsAreReadInTheSessionZone() throws Exception {
        try (Sluice la = losAngeles(io.sluice.api.SluiceClock.system())) {
            StreamFrame f = oneRow(la).selectExpr(
                    "CAST('2020-01-01 12:00' AS TIMESTAMP) AS cast",
                    "from_json('{\"t\":\"2020-01-01 12:00\"}', 't timestamp').t AS fromJson",
                    "TIMESTAMP '2020-01-01 12:00'",
                    "to_timestamp('2020-01-01 12:00', 'yyyy-MM-dd HH:mm') AS pattern",
                    "CAST('2020-01-01T12:00:00Z' AS TIMESTAMP) AS zoned",
                    "CAST(DATE '2020-01-01' AS TIMESTAMP) AS midnight");
            assertThat(f.schema().fieldNames()).containsExactly("cast", "fromJson", "TIMESTAMP '2020-01-01 12:00:00'",
                    "pattern", "zoned", "midnight");
            assertThat(f.collectAsList()).containsExactly(Row.of(NOON_LA, NOON_LA, NOON_LA, NOON_LA,
                    Instant.parse("2020-01-01T12:00:00Z"), Instant.parse("2020-01-01T08:00:00Z")));
        }
    }

    @Test
    void timestampsAreWrittenAndDatedInTheSessionZone() throws Exception {
        ManualClock clock = new ManualClock(Instant.parse("2020-01-02T03:00:00Z").toEpochMilli());
        try (Sluice la = losAngeles(clock)) {
            List<Row> rows = oneRow(la).selectExpr(
                    "CAST(TIMESTAMP '2020-01-01 20:00:00Z' AS STRING)",
                    "to_json(struct(TIMESTAMP '2020-01-01 20:00:00Z' AS t))",
                    "CAST(TIMESTAMP '2020-01-02 03:00:00Z' AS DATE)",
                    "current_date()").collectAsList();
            assertThat(rows).containsExactly(Row.of("2020-01-01 12:00:00", "{\"t\":\"2020-01-01T12:00:00.000-08:00\"}",
                    LocalDate.parse("2020-01-01"), LocalDate.parse("2020-01-01")));
        }
    }

    @Test
    void anInvalidZoneIsRefusedNamingTheKeyAndWhatIsAccepted() {
        assertThatThrownBy(() -> Sluice.builder().config("spark.sql.session.timeZone", "Mars/Base"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Invalid value 'Mars/Base' for Sluice configuration 'spark.sql.session.timeZone': cannot "
                        + "resolve the given time zone; a time zone id such as 'America/Los_Angeles', 'UTC', "
                        + "'+02:00', 'GMT+2' or 'PST' is accepted");
    }

    @Test
    void theZoneIsReadAsSparkReadsZoneIds() {
        assertThat(Sluice.builder().config("SPARK.SQL.SESSION.TIMEZONE", "PST").build().sessionTimeZone())
                .isEqualTo(ZoneId.of("America/Los_Angeles"));
        assertThat(Sluice.builder().config("spark.sql.session.timeZone", "+1:00").build().sessionTimeZone())
                .isEqualTo(ZoneId.of("+01:00"));
        assertThat(Sluice.builder().config("spark.sql.session.timeZone", "GMT+2").build().sessionTimeZone())
                .isEqualTo(ZoneId.of("GMT+02:00"));
    }

    @Test
    void theDefaultIsTheJvmZoneWhenTheInstanceIsBuilt() {
        TimeZone original = TimeZone.getDefault();
        Sluice.Builder builder = Sluice.builder();
        try {
            TimeZone.setDefault(TimeZone.getTimeZone("Asia/Tokyo"));
            try (Sluice tokyo = builder.build()) {
                assertThat(tokyo.sessionTimeZone()).isEqualTo(ZoneId.of("Asia/Tokyo"));
            }
        } finally {
            TimeZone.setDefault(original);
        }
        try (Sluice jvm = Sluice.local()) {
            assertThat(jvm.sessionTimeZone()).isEqualTo(ZoneId.systemDefault());
        }
    }
}
