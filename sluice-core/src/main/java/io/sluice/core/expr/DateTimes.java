package io.sluice.core.expr;

import io.sluice.values.DateTimePatterns;
import io.sluice.values.SparkTimestamps;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.Locale;

/**
 * The expressions' dates and timestamps: Spark's rules from sluice-values ({@link SparkTimestamps},
 * {@link DateTimePatterns}) in the session time zone ({@code zone}: the query's {@code Sluice.sessionTimeZone()},
 * Spark's spark.sql.session.timeZone, which the analyzer hands down). Timestamps keep microseconds, as Spark's do.
 */
final class DateTimes {
    private DateTimes() {
    }

    /** {@code CAST(s AS DATE)}: Spark's {@code stringToDate}; null when not a date. */
    static LocalDate parseDate(String str) {
        return SparkTimestamps.parseDate(str);
    }

    /** {@code CAST(s AS TIMESTAMP)}: Spark's {@code stringToTimestamp} in the session zone; null when not one. */
    static Instant parseTimestamp(String str, ZoneId zone) {
        return SparkTimestamps.parseTimestamp(str, zone);
    }

    /** Spark trims whitespace and control characters around a value before casting it. */
    static String trim(String s) {
        int start = 0;
        int end = s.length();
        while (start < end && s.charAt(start) <= ' ') {
            start++;
        }
        while (end > start && s.charAt(end - 1) <= ' ') {
            end--;
        }
        return start == 0 && end == s.length() ? s : s.substring(start, end);
    }

    /**
     * A timestamp cast to string in the session zone: {@code 2026-10-02 00:00:00}, with the fraction trimmed of
     * trailing zeros.
     */
    static String formatTimestamp(Instant t, ZoneId zone) {
        return SparkTimestamps.format(t, zone);
    }

    /** Drops sub-microsecond digits, as Spark's timestamps hold microseconds. */
    static Instant toMicros(Instant t) {
        return t.getNano() % 1000 == 0 ? t : t.truncatedTo(ChronoUnit.MICROS);
    }

    /**
     * A Spark datetime pattern ({@code yyyy-MM-dd HH:mm:ss}, {@code dd/MM/yyyy}...) as a parser.
     *
     * @throws IllegalArgumentException for a pattern Spark refuses
     */
    static DateTimeFormatter pattern(String sparkPattern) {
        return DateTimePatterns.parser(sparkPattern, Locale.US);
    }

    /** Parses with a pattern parser in the session zone; null when the text does not match the whole pattern. */
    static Instant parseWith(DateTimeFormatter f, String text, ZoneId zone) {
        try {
            return SparkTimestamps.instant(DateTimePatterns.parseMicros(f, text, zone));
        } catch (DateTimeException | ArithmeticException e) {
            return null;
        }
    }

    /** The date part of a pattern parse, defaulting missing fields; null when it does not match. */
    static LocalDate parseDateWith(DateTimeFormatter f, String text) {
        try {
            return DateTimePatterns.parseDate(f, text);
        } catch (DateTimeException e) {
            return null;
        }
    }
}
