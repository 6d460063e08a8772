package io.sluice.files.format;

import io.sluice.api.Options;
import io.sluice.values.DateTimeReader;
import io.sluice.values.SparkTimestamps;
import io.sluice.values.ValueParseException;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/**
 * The file formats' timestamp and date values: {@link DateTimeReader} (Spark's rules, in sluice-values) with the
 * formats' failures ({@link ValueParseException}). A value without a zone is in {@code timeZone} (default: the
 * JVM's zone, Spark's default session time zone). Immutable and thread-safe.
 */
final class TemporalParsers {
    /** The rules themselves, for the JSON-to-row readers. */
    final DateTimeReader reader;

    private TemporalParsers(DateTimeReader reader) {
        this.reader = reader;
    }

    /** Validates and reads timeZone, locale, timestampFormat, dateFormat, enableDateTimeParsingFallback. */
    static TemporalParsers of(Options o, boolean json) {
        return new TemporalParsers(DateTimeReader.of(o, ZoneId.systemDefault(), json));
    }

    ZoneId zone() {
        return reader.zone();
    }

    boolean hasTimestampPattern() {
        return reader.hasTimestampPattern();
    }

    /** The timestamp in {@code s[off, off+len)}, truncated to microseconds as Spark stores it. */
    Instant timestamp(char[] s, int off, int len) {
        return SparkTimestamps.instant(timestampMicros(s, off, len));
    }

    /** {@link #timestamp} in microseconds since the epoch. */
    long timestampMicros(char[] s, int off, int len) {
        return reader.timestampMicrosOrFail(s, off, len);
    }

    /** Schema inference's timestamp test (Spark's TimestampFormatter.parseOptional); no fallback. */
    boolean isTimestampWithoutFallback(String s) {
        return reader.isTimestampWithoutFallback(s);
    }

    /** Schema inference's date test: the dateFormat pattern, else {@code defaultPattern}; no fallback. */
    boolean isDateWithoutFallback(String s, DateTimeFormatter defaultPattern) {
        return reader.isDateWithoutFallback(s, defaultPattern);
    }

    LocalDate date(char[] s, int off, int len) {
        return reader.dateOrFail(s, off, len);
    }

    /** A parser for a Spark datetime pattern given as {@code option}. */
    static DateTimeFormatter formatter(String option, String pattern, Locale locale) {
        return DateTimeReader.parser(option, pattern, locale);
    }
}
