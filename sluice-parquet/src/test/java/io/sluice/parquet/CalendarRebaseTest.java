package io.sluice.parquet;

import io.sluice.api.InvalidOptionException;
import io.sluice.api.Options;
import io.sluice.parquet.CalendarRebase.Configured;
import io.sluice.parquet.CalendarRebase.Mode;
import org.junit.jupiter.api.Test;

import java.time.LocalDate;
import java.time.ZoneId;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Spark's rules for which calendar a file is read in (DataSourceUtils.getRebaseSpec); values: SparkParquetRebaseTest. */
class CalendarRebaseTest {
    private static final Configured EXCEPTION = Configured.of(Options.of(Map.of("datetimeRebaseMode", "exception",
            "int96RebaseMode", "EXCEPTION")));

    @Test
    void theFootersSparkVersionAndLegacyKeysDecideBeforeTheOptions() {
        CalendarRebase none = EXCEPTION.forFile(Map.of());
        assertThat(none.dates()).isEqualTo(Mode.EXCEPTION);
        assertThat(none.int96()).isEqualTo(Mode.EXCEPTION);
        CalendarRebase spark24 = EXCEPTION.forFile(Map.of("org.apache.spark.version", "2.4.8"));
        assertThat(spark24.dates()).isEqualTo(Mode.LEGACY);
        assertThat(spark24.int96()).isEqualTo(Mode.LEGACY);
        CalendarRebase spark30 = EXCEPTION.forFile(Map.of("org.apache.spark.version", "3.0.3"));
        assertThat(spark30.dates()).isEqualTo(Mode.CORRECTED);
        assertThat(spark30.int96()).isEqualTo(Mode.LEGACY); // INT96 was rebased until 3.1.0
        CalendarRebase legacy = EXCEPTION.forFile(Map.of("org.apache.spark.version", "4.2.0",
                "org.apache.spark.legacyDateTime", "", "org.apache.spark.timeZone", "America/Los_Angeles"));
        assertThat(legacy).isEqualTo(new CalendarRebase(Mode.LEGACY, Mode.CORRECTED,
                ZoneId.of("America/Los_Angeles")));
        assertThat(EXCEPTION.forFile(Map.of("org.apache.spark.version", "4.2.0", "org.apache.spark.legacyINT96", ""))
                .int96()).isEqualTo(Mode.LEGACY);
    }

    @Test
    void theOptionWinsOverTheConfAndCorrectedIsTheDefault() {
        assertThat(Configured.of(Options.empty())).isEqualTo(new Configured(Mode.CORRECTED, Mode.CORRECTED));
        assertThat(Configured.of(Options.of(Map.of("spark.sql.parquet.datetimeRebaseModeInRead", "LEGACY",
                "spark.sql.parquet.int96RebaseModeInRead", "LEGACY", "int96RebaseMode", "CORRECTED"))))
                .isEqualTo(new Configured(Mode.LEGACY, Mode.CORRECTED));
        assertThatThrownBy(() -> Configured.of(Options.of(Map.of("datetimeRebaseMode", "julian"))))
                .isInstanceOf(InvalidOptionException.class)
                .hasMessageContaining("'datetimeRebaseMode'").hasMessageContaining("EXCEPTION, CORRECTED or LEGACY");
    }

    @Test
    void julianDaysMoveAsSparksTableSaysAndExceptionFailsBefore1582() {
        // A day number of the hybrid calendar names a Julian date before 1582: the number of the proleptic
        // 1000-03-01 is the Julian 1000-02-24 (5 days apart in that century), the date the rebase keeps.
        int julian = (int) LocalDate.of(1000, 3, 1).toEpochDay();
        assertThat(LocalDate.ofEpochDay(CalendarRebase.julianToGregorianDays(julian)))
                .isEqualTo(LocalDate.of(1000, 2, 24));
        assertThat(CalendarRebase.julianToGregorianDays(0)).isZero();
        CalendarRebase ex = EXCEPTION.forFile(Map.of());
        assertThat(ex.readDays(CalendarRebase.LAST_SWITCH_JULIAN_DAY)).isEqualTo(CalendarRebase.LAST_SWITCH_JULIAN_DAY);
        assertThatThrownBy(() -> ex.readDays(CalendarRebase.LAST_SWITCH_JULIAN_DAY - 1))
                .isInstanceOf(java.io.UncheckedIOException.class).cause().hasMessageStartingWith("[INCONSISTENT_BEHAVIOR_CROSS_VERSION.READ_ANCIENT_DATETIME] You may get a "
                        + "different result due to the upgrading to Spark >= 3.0: reading dates before 1582-10-15 or "
                        + "timestamps before 1900-01-01T00:00:00Z from Parquet files can be ambiguous")
                .hasMessageEndingWith("set the SQL config or the datasource option to \"CORRECTED\". SQLSTATE: 42K0B");
        assertThatThrownBy(() -> ex.readMicros(CalendarRebase.LAST_SWITCH_JULIAN_MICROS - 1, true)).cause()
                .hasMessageContaining("from Parquet INT96 files").hasMessageContaining(
                        "\"spark.sql.parquet.int96RebaseModeInRead\" or the datasource option \"int96RebaseMode\"");
    }
}
