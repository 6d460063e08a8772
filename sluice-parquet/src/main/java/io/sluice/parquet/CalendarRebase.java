package io.sluice.parquet;

import io.sluice.api.InvalidOptionException;
import io.sluice.api.Options;

import java.io.IOException;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoField;
import java.util.Calendar;
import java.util.Locale;
import java.util.Map;
import java.util.TimeZone;

/**
 * Spark's calendar rebase on read (its {@code DataSourceUtils.getRebaseSpec} and {@code RebaseDateTime}): Spark 2.x
 * and Spark 3.x in {@code LEGACY} mode wrote dates and timestamps in the hybrid Julian/Gregorian calendar, Spark
 * 3.0+ writes the proleptic Gregorian one. Which applies to a file comes from its footer: a file with
 * {@code org.apache.spark.version} is {@code LEGACY} when that version is older than 3.0.0 (dates, INT64
 * timestamps) / 3.1.0 (INT96) or when it carries {@code org.apache.spark.legacyDateTime} /
 * {@code org.apache.spark.legacyINT96}, else {@code CORRECTED}; a file without it (another writer) follows the
 * options {@code datetimeRebaseMode} / {@code int96RebaseMode} (or Spark's confs of the same meaning),
 * {@code CORRECTED} by default. {@code LEGACY} rebases in the file's {@code org.apache.spark.timeZone}, else the
 * JVM's zone, as Spark does; {@code EXCEPTION} fails on a value before the calendars' last switch with Spark's
 * {@code INCONSISTENT_BEHAVIOR_CROSS_VERSION.READ_ANCIENT_DATETIME}. Immutable.
 */
record CalendarRebase(Mode dates, Mode int96, ZoneId zone) {
    enum Mode { EXCEPTION, CORRECTED, LEGACY }

    static final String DATETIME_REBASE_MODE = "datetimeRebaseMode";
    static final String INT96_REBASE_MODE = "int96RebaseMode";
    static final String DATETIME_CONF = "spark.sql.parquet.datetimeRebaseModeInRead";
    static final String INT96_CONF = "spark.sql.parquet.int96RebaseModeInRead";
    static final java.util.List<String> MODES = java.util.List.of("EXCEPTION", "CORRECTED", "LEGACY");
    static final String SPARK_VERSION_KEY = "org.apache.spark.version";
    static final String LEGACY_DATETIME_KEY = "org.apache.spark.legacyDateTime";
    static final String LEGACY_INT96_KEY = "org.apache.spark.legacyINT96";
    static final String TIME_ZONE_KEY = "org.apache.spark.timeZone";

    /** Days since the epoch of 1582-10-15, the first Gregorian day: Spark's {@code lastSwitchJulianDay}. */
    static final int LAST_SWITCH_JULIAN_DAY = -141427;
    /** 1900-01-01T00:00:00Z in microseconds: before it the zones' rebase differs (Spark's message says so). */
    static final long LAST_SWITCH_JULIAN_MICROS = -2_208_988_800_000_000L;
    /** Spark's switch days (Julian calendar) and the day differences from each one on. */
    private static final int[] SWITCH_DAYS = {-719164, -682945, -646420, -609895, -536845, -500320, -463795,
            -390745, -354220, -317695, -244645, -208120, -171595, -141427};
    private static final int[] DIFFS = {2, 1, 0, -1, -2, -3, -4, -5, -6, -7, -8, -9, -10, 0};

    /** The modes the options ask for files without a Spark version: the option, else the conf, else CORRECTED. */
    record Configured(Mode dates, Mode int96) {
        static Configured of(Options o) {
            return new Configured(mode(o, DATETIME_REBASE_MODE, DATETIME_CONF), mode(o, INT96_REBASE_MODE, INT96_CONF));
        }

        private static Mode mode(Options o, String option, String conf) {
            String key = o.contains(option) ? option : conf;
            String v = o.get(key).orElse("CORRECTED").trim();
            try {
                return Mode.valueOf(v.toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new InvalidOptionException(key, v, "EXCEPTION, CORRECTED or LEGACY is accepted");
            }
        }

        /** The rebase of one file, from its footer's key-value metadata (Spark's rules). */
        CalendarRebase forFile(Map<String, String> footer) {
            Mode d = fileMode(footer, dates, "3.0.0", LEGACY_DATETIME_KEY);
            Mode i = fileMode(footer, int96, "3.1.0", LEGACY_INT96_KEY);
            String tz = footer.get(TIME_ZONE_KEY);
            ZoneId zone = tz != null ? TimeZone.getTimeZone(tz).toZoneId() : TimeZone.getDefault().toZoneId();
            return new CalendarRebase(d, i, zone);
        }

        private static Mode fileMode(Map<String, String> footer, Mode configured, String minVersion, String key) {
            String version = footer.get(SPARK_VERSION_KEY);
            if (version == null) {
                return configured;
            }
            // Spark compares the version strings as strings ("2.4.8" < "3.0.0").
            return version.compareTo(minVersion) < 0 || footer.get(key) != null ? Mode.LEGACY : Mode.CORRECTED;
        }
    }

    /** Spark's error for an ancient value under EXCEPTION; {@code format} is "Parquet" or "Parquet INT96". */
    static java.io.UncheckedIOException ancient(String format) {
        boolean int96 = format.endsWith("INT96");
        String conf = int96 ? INT96_CONF : DATETIME_CONF;
        String option = int96 ? INT96_REBASE_MODE : DATETIME_REBASE_MODE;
        return new java.io.UncheckedIOException(new IOException("[INCONSISTENT_BEHAVIOR_CROSS_VERSION.READ_ANCIENT_DATETIME] You may get a different "
                + "result due to the upgrading to Spark >= 3.0: reading dates before 1582-10-15 or timestamps before "
                + "1900-01-01T00:00:00Z from " + format + " files can be ambiguous, as the files may be written by\n"
                + "Spark 2.x or legacy versions of Hive, which uses a legacy hybrid calendar that is different from "
                + "Spark 3.0+'s Proleptic Gregorian calendar.\nSee more details in SPARK-31404.\nYou can set the SQL "
                + "config \"" + conf + "\" or the datasource option \"" + option + "\" to \"LEGACY\" to rebase the "
                + "datetime values w.r.t. the calendar difference during reading.\nTo read the datetime values as it "
                + "is, set the SQL config or the datasource option to \"CORRECTED\". SQLSTATE: 42K0B"));
    }

    /** A date written in the hybrid calendar to the proleptic Gregorian day (Spark's rebaseJulianToGregorianDays). */
    static int julianToGregorianDays(int days) {
        int i = SWITCH_DAYS.length;
        do {
            i--;
        } while (i > 0 && days < SWITCH_DAYS[i]);
        return days + DIFFS[i];
    }

    /**
     * Microseconds written in the hybrid calendar, as local time in {@code zone}, to the proleptic Gregorian ones
     * (Spark's {@code rebaseJulianToGregorianMicros}): the hybrid calendar's fields of the instant, read again as
     * a local date-time of the zone. After 1900 the calendars and zones agree: no change.
     */
    static long julianToGregorianMicros(ZoneId zone, long micros) {
        if (micros >= LAST_SWITCH_JULIAN_MICROS) {
            return micros;
        }
        Calendar cal = new Calendar.Builder().setCalendarType("gregory").setTimeZone(TimeZone.getTimeZone(zone))
                .setInstant(Math.floorDiv(micros, 1000L)).build();
        LocalDateTime local = LocalDateTime.of(cal.get(Calendar.YEAR), cal.get(Calendar.MONTH) + 1, 1,
                        cal.get(Calendar.HOUR_OF_DAY), cal.get(Calendar.MINUTE), cal.get(Calendar.SECOND),
                        (int) (Math.floorMod(micros, 1_000_000L) * 1000))
                .with(ChronoField.ERA, cal.get(Calendar.ERA))
                .plusDays(cal.get(Calendar.DAY_OF_MONTH) - 1);
        ZonedDateTime zoned = local.atZone(zone);
        ZonedDateTime adjusted = cal.get(Calendar.DST_OFFSET) == 0 ? zoned.withLaterOffsetAtOverlap()
                : zoned.withEarlierOffsetAtOverlap();
        java.time.Instant i = adjusted.toInstant();
        return Math.addExact(Math.multiplyExact(i.getEpochSecond(), 1_000_000L), i.getNano() / 1000);
    }

    /** A date column's day number as the file's mode reads it. */
    int readDays(int days) {
        return switch (dates) {
            case CORRECTED -> days;
            case LEGACY -> julianToGregorianDays(days);
            case EXCEPTION -> {
                if (days < LAST_SWITCH_JULIAN_DAY) {
                    throw ancient("Parquet");
                }
                yield days;
            }
        };
    }

    /** An INT64 timestamp (dates' mode) or an INT96 one ({@code int96} mode), in microseconds. */
    long readMicros(long micros, boolean isInt96) {
        Mode m = isInt96 ? int96 : dates;
        return switch (m) {
            case CORRECTED -> micros;
            case LEGACY -> julianToGregorianMicros(zone, micros);
            case EXCEPTION -> {
                if (micros < LAST_SWITCH_JULIAN_MICROS) {
                    throw ancient(isInt96 ? "Parquet INT96" : "Parquet");
                }
                yield micros;
            }
        };
    }

    /** Whether nothing is ever changed or checked: the converters skip the rebase. */
    boolean isIdentity() {
        return dates == Mode.CORRECTED && int96 == Mode.CORRECTED;
    }
}
