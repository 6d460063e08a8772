package io.sluice.values;

import io.sluice.api.InvalidOptionException;
import io.sluice.api.Options;

import java.nio.CharBuffer;
import java.time.DateTimeException;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.Optional;

/**
 * How Spark 4 reads timestamp and date values of a text format (JSON, CSV, {@code from_json}, {@code from_csv}),
 * from the options {@code timeZone}, {@code locale}, {@code timestampFormat}, {@code dateFormat} and
 * {@code enableDateTimeParsingFallback} (Spark's JSONOptions/CSVOptions; legacy time parser policy CORRECTED).
 *
 * <ul>
 *   <li>No {@code timestampFormat}: {@link SparkTimestamps}' rules (CAST's); if they fail, again with every
 *   {@code GMT} removed (Spark's fallback, on unless {@code enableDateTimeParsingFallback=false}).</li>
 *   <li>A {@code timestampFormat}: that pattern ({@link DateTimePatterns}); {@link SparkTimestamps}' rules are tried
 *   after it only if {@code enableDateTimeParsingFallback=true}.</li>
 *   <li>Dates likewise with {@code dateFormat}; for JSON the fallback also reads a whole number as days since
 *   1970-01-01 (Spark 1.5's encoding).</li>
 * </ul>
 * A value without a zone is in {@code timeZone}, by default the zone the caller gives (Spark's session time zone).
 * Immutable and thread-safe.
 */
public final class DateTimeReader {
    private final ZoneId zone;
    private final Locale locale;
    private final DateTimeFormatter timestampParser;
    private final DateTimeFormatter dateParser;
    private final boolean timestampFallback;
    private final boolean dateFallback;
    private final boolean daysNumberFallback;

    private DateTimeReader(ZoneId zone, Locale locale, DateTimeFormatter ts, DateTimeFormatter date,
                           boolean tsFallback, boolean dateFallback, boolean daysNumberFallback) {
        this.zone = zone;
        this.locale = locale;
        this.timestampParser = ts;
        this.dateParser = date;
        this.timestampFallback = tsFallback;
        this.dateFallback = dateFallback;
        this.daysNumberFallback = daysNumberFallback;
    }

    /**
     * Reads and validates the options.
     *
     * @param defaultZone the zone when there is no {@code timeZone} option
     * @param json whether this is JSON (whose date fallback also reads a day count)
     * @throws InvalidOptionException naming the option, the value and what is accepted
     */
    public static DateTimeReader of(Options o, ZoneId defaultZone, boolean json) {
        ZoneId zone = zone(o, defaultZone);
        Locale locale = o.get("locale").map(Locale::forLanguageTag).orElse(Locale.US);
        Optional<Boolean> fallback = o.contains("enableDateTimeParsingFallback")
                ? Optional.of(o.getBoolean("enableDateTimeParsingFallback", false)) : Optional.empty();
        Optional<String> tsPattern = o.get("timestampFormat");
        Optional<String> datePattern = o.get("dateFormat");
        DateTimeFormatter ts = tsPattern.map(p -> parser("timestampFormat", p, locale)).orElse(null);
        DateTimeFormatter date = datePattern.map(p -> parser("dateFormat", p, locale)).orElse(null);
        return new DateTimeReader(zone, locale, ts, date, fallback.orElse(tsPattern.isEmpty()),
                fallback.orElse(datePattern.isEmpty()), json);
    }

    /**
     * Spark's {@code timeZone} option, a zone id as {@link SparkTimestamps#zoneId} reads it.
     *
     * @throws InvalidOptionException for an unknown zone
     */
    public static ZoneId zone(Options o, ZoneId defaultZone) {
        Optional<String> v = o.get("timeZone");
        if (v.isEmpty()) {
            return defaultZone;
        }
        ZoneId z = SparkTimestamps.zoneId(v.get());
        if (z == null) {
            throw new InvalidOptionException("timeZone", v.get(),
                    "a time zone id such as 'UTC', 'America/Los_Angeles', '+02:00' or 'GMT+2' is accepted");
        }
        return z;
    }

    /**
     * A parser for the pattern given as {@code option}.
     *
     * @throws InvalidOptionException with Spark's message for a pattern it refuses
     */
    public static DateTimeFormatter parser(String option, String pattern, Locale locale) {
        try {
            return DateTimePatterns.parser(pattern, locale);
        } catch (IllegalArgumentException e) {
            throw new InvalidOptionException(option, pattern, DateTimePatterns.invalidPatternMessage(option, pattern, e),
                    true);
        }
    }

    /** The zone of values without one. */
    public ZoneId zone() {
        return zone;
    }

    /** The {@code locale} option (default en-US). */
    public Locale locale() {
        return locale;
    }

    /** Whether a {@code timestampFormat} was given. */
    public boolean hasTimestampPattern() {
        return timestampParser != null;
    }

    /** Whether a {@code dateFormat} was given. */
    public boolean hasDatePattern() {
        return dateParser != null;
    }

    /**
     * The timestamp in {@code s[off, off+len)} in microseconds since the epoch, or
     * {@link SparkTimestamps#FAIL_MICROS}.
     */
    public long timestampMicros(char[] s, int off, int len) {
        long micros = SparkTimestamps.FAIL_MICROS;
        if (timestampParser != null) {
            try {
                micros = DateTimePatterns.parseMicros(timestampParser, CharBuffer.wrap(s, off, len), zone);
            } catch (DateTimeException | ArithmeticException e) {
                micros = SparkTimestamps.FAIL_MICROS;
            }
        } else {
            micros = SparkTimestamps.toMicros(s, off, len, zone);
        }
        if (micros == SparkTimestamps.FAIL_MICROS && timestampFallback) {
            if (timestampParser != null) {
                micros = SparkTimestamps.toMicros(s, off, len, zone);
            }
            if (micros == SparkTimestamps.FAIL_MICROS && containsGmt(s, off, len)) {
                char[] cleaned = withoutGmt(s, off, len);
                micros = SparkTimestamps.toMicros(cleaned, 0, cleaned.length, zone);
            }
        }
        return micros;
    }

    /**
     * Schema inference's test (Spark's TimestampFormatter.parseOptional): the timestampFormat pattern, or
     * {@link SparkTimestamps}' rules when there is none; no fallback.
     */
    public boolean isTimestampWithoutFallback(String s) {
        if (timestampParser != null) {
            try {
                DateTimePatterns.parseMicros(timestampParser, s, zone);
                return true;
            } catch (DateTimeException | ArithmeticException e) {
                return false;
            }
        }
        return SparkTimestamps.toMicros(s, zone) != SparkTimestamps.FAIL_MICROS;
    }

    /** Schema inference's date test: the dateFormat pattern, else {@code defaultPattern}; no fallback. */
    public boolean isDateWithoutFallback(String s, DateTimeFormatter defaultPattern) {
        try {
            DateTimePatterns.parseDate(dateParser != null ? dateParser : defaultPattern, s);
            return true;
        } catch (DateTimeException e) {
            return false;
        }
    }

    /** The date in {@code s[off, off+len)} in days since 1970-01-01, or {@link SparkTimestamps#FAIL_DAY}. */
    public long epochDay(char[] s, int off, int len) {
        long day = SparkTimestamps.FAIL_DAY;
        if (dateParser != null) {
            try {
                day = DateTimePatterns.parseDate(dateParser, CharBuffer.wrap(s, off, len)).toEpochDay();
            } catch (DateTimeException e) {
                day = SparkTimestamps.FAIL_DAY;
            }
        } else {
            day = SparkTimestamps.toEpochDay(s, off, len);
        }
        if (day == SparkTimestamps.FAIL_DAY && dateFallback) {
            if (dateParser != null) {
                day = SparkTimestamps.toEpochDay(s, off, len);
            }
            if (day == SparkTimestamps.FAIL_DAY && containsGmt(s, off, len)) {
                char[] cleaned = withoutGmt(s, off, len);
                day = SparkTimestamps.toEpochDay(cleaned, 0, cleaned.length);
            }
            if (day == SparkTimestamps.FAIL_DAY && daysNumberFallback) {
                try {
                    day = Integer.parseInt(new String(s, off, len));
                } catch (NumberFormatException e) {
                    // not a day count either
                }
            }
        }
        return day;
    }

    /**
     * {@link #timestampMicros}, failing with Spark's reason.
     *
     * @throws ValueParseException when the text is not a timestamp
     */
    public long timestampMicrosOrFail(char[] s, int off, int len) {
        long micros = timestampMicros(s, off, len);
        if (micros == SparkTimestamps.FAIL_MICROS) {
            throw new ValueParseException("Cannot parse '" + new String(s, off, len) + "' as a timestamp"
                    + (timestampParser != null ? " with timestampFormat" : ""));
        }
        return micros;
    }

    /**
     * {@link #epochDay} as a date, failing with Spark's reason.
     *
     * @throws ValueParseException when the text is not a date
     */
    public LocalDate dateOrFail(char[] s, int off, int len) {
        long day = epochDay(s, off, len);
        if (day == SparkTimestamps.FAIL_DAY) {
            throw new ValueParseException("Cannot parse '" + new String(s, off, len) + "' as a date"
                    + (dateParser != null ? " with dateFormat" : ""));
        }
        return LocalDate.ofEpochDay(day);
    }

    /** {@link #epochDay} as a date, or null. */
    public LocalDate date(String s) {
        long day = epochDay(s.toCharArray(), 0, s.length());
        return day == SparkTimestamps.FAIL_DAY ? null : LocalDate.ofEpochDay(day);
    }

    /** {@link #timestampMicros} as an instant, or null. */
    public java.time.Instant timestamp(String s) {
        long micros = timestampMicros(s.toCharArray(), 0, s.length());
        return micros == SparkTimestamps.FAIL_MICROS ? null : SparkTimestamps.instant(micros);
    }

    private static boolean containsGmt(char[] s, int off, int len) {
        for (int i = off; i + 2 < off + len; i++) {
            if (s[i] == 'G' && s[i + 1] == 'M' && s[i + 2] == 'T') {
                return true;
            }
        }
        return false;
    }

    private static char[] withoutGmt(char[] s, int off, int len) {
        return new String(s, off, len).replace("GMT", "").toCharArray();
    }
}
