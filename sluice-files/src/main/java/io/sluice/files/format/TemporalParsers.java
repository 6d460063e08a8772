package io.sluice.files.format;

import io.sluice.api.InvalidOptionException;
import io.sluice.api.Options;

import java.nio.CharBuffer;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.chrono.IsoChronology;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.ResolverStyle;
import java.time.temporal.ChronoField;
import java.time.temporal.TemporalAccessor;
import java.time.temporal.TemporalQueries;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * Reads timestamp and date values the way Spark 4 does (legacy time parser policy CORRECTED, ANSI off).
 *
 * <ul>
 *   <li>No {@code timestampFormat}: Spark's lenient rules ({@link SparkDateTime}); if they fail, again with every
 *   {@code GMT} removed (Spark's fallback, on unless {@code enableDateTimeParsingFallback=false}).</li>
 *   <li>A {@code timestampFormat}: that pattern (Spark's datetime patterns, strict), missing fields defaulting to
 *   1970-01-01 00:00:00; the lenient rules are tried only if {@code enableDateTimeParsingFallback=true}.</li>
 *   <li>Dates likewise with {@code dateFormat}; JSON's fallback also reads a whole number as days since
 *   1970-01-01 (Spark 1.5's encoding).</li>
 * </ul>
 * A value without a zone is in {@code timeZone} (default: the JVM's zone). Immutable and thread-safe.
 */
final class TemporalParsers {
    private static final String PATTERN_GUIDE = "https://spark.apache.org/docs/latest/sql-ref-datetime-pattern.html";
    private static final Set<Character> WEEK_BASED = Set.of('Y', 'W', 'w', 'u', 'e', 'c');
    private static final Set<Character> UNSUPPORTED = Set.of('A', 'n', 'N', 'p');
    private static final Set<Character> UNSUPPORTED_FOR_PARSING = Set.of('E', 'F', 'q', 'Q');

    private final ZoneId zone;
    private final DateTimeFormatter timestampFormatter;
    private final DateTimeFormatter dateFormatter;
    private final boolean timestampFallback;
    private final boolean dateFallback;
    private final boolean daysNumberFallback;

    private TemporalParsers(ZoneId zone, DateTimeFormatter ts, DateTimeFormatter date, boolean tsFallback,
                            boolean dateFallback, boolean daysNumberFallback) {
        this.zone = zone;
        this.timestampFormatter = ts;
        this.dateFormatter = date;
        this.timestampFallback = tsFallback;
        this.dateFallback = dateFallback;
        this.daysNumberFallback = daysNumberFallback;
    }

    /** Validates and reads timeZone, locale, timestampFormat, dateFormat, enableDateTimeParsingFallback. */
    static TemporalParsers of(Options o, boolean json) {
        ZoneId zone = OptionValues.zone(o);
        Locale locale = OptionValues.locale(o);
        Optional<Boolean> fallback = OptionValues.optionalBool(o, "enableDateTimeParsingFallback");
        Optional<String> tsPattern = o.get("timestampFormat");
        Optional<String> datePattern = o.get("dateFormat");
        DateTimeFormatter ts = tsPattern.map(p -> formatter("timestampFormat", p, locale)).orElse(null);
        DateTimeFormatter date = datePattern.map(p -> formatter("dateFormat", p, locale)).orElse(null);
        boolean tsFallback = fallback.orElse(tsPattern.isEmpty());
        boolean dateFallback = fallback.orElse(datePattern.isEmpty());
        return new TemporalParsers(zone, ts, date, tsFallback, dateFallback, json);
    }

    ZoneId zone() {
        return zone;
    }

    boolean hasTimestampPattern() {
        return timestampFormatter != null;
    }

    /** The timestamp in {@code s[off, off+len)}, truncated to microseconds as Spark stores it. */
    Instant timestamp(char[] s, int off, int len) {
        long micros = timestampMicros(s, off, len);
        return Instant.ofEpochSecond(Math.floorDiv(micros, 1_000_000L), Math.floorMod(micros, 1_000_000L) * 1000L);
    }

    /** {@link #timestamp} in microseconds since the epoch. */
    long timestampMicros(char[] s, int off, int len) {
        long micros = SparkDateTime.FAIL_MICROS;
        RuntimeException patternError = null;
        if (timestampFormatter != null) {
            try {
                micros = patternMicros(s, off, len);
            } catch (DateTimeException | ArithmeticException e) {
                patternError = e;
            }
        } else {
            micros = SparkDateTime.toMicros(s, off, len, zone);
        }
        if (micros == SparkDateTime.FAIL_MICROS && timestampFallback) {
            if (timestampFormatter != null) {
                micros = SparkDateTime.toMicros(s, off, len, zone);
            }
            if (micros == SparkDateTime.FAIL_MICROS && containsGmt(s, off, len)) {
                char[] cleaned = withoutGmt(s, off, len);
                micros = SparkDateTime.toMicros(cleaned, 0, cleaned.length, zone);
            }
        }
        if (micros == SparkDateTime.FAIL_MICROS) {
            throw new ValueParseException("Cannot parse '" + new String(s, off, len) + "' as a timestamp"
                    + (timestampFormatter != null ? " with timestampFormat" : ""), patternError);
        }
        return micros;
    }

    /**
     * Schema inference's test (Spark's TimestampFormatter.parseOptional): the timestampFormat pattern, or the
     * lenient rules when there is none; no fallback.
     */
    boolean isTimestampWithoutFallback(String s) {
        char[] c = s.toCharArray();
        if (timestampFormatter != null) {
            try {
                patternMicros(c, 0, c.length);
                return true;
            } catch (DateTimeException | ArithmeticException e) {
                return false;
            }
        }
        return SparkDateTime.toMicros(c, 0, c.length, zone) != SparkDateTime.FAIL_MICROS;
    }

    /** Schema inference's date test: the dateFormat pattern, else {@code defaultPattern}; no fallback. */
    boolean isDateWithoutFallback(String s, DateTimeFormatter defaultPattern) {
        try {
            localDate((dateFormatter != null ? dateFormatter : defaultPattern).parse(s));
            return true;
        } catch (DateTimeException e) {
            return false;
        }
    }

    LocalDate date(char[] s, int off, int len) {
        long day = SparkDateTime.FAIL_DAY;
        RuntimeException patternError = null;
        if (dateFormatter != null) {
            try {
                day = localDate(dateFormatter.parse(CharBuffer.wrap(s, off, len))).toEpochDay();
            } catch (DateTimeException e) {
                patternError = e;
            }
        } else {
            day = SparkDateTime.toEpochDay(s, off, len);
        }
        if (day == SparkDateTime.FAIL_DAY && dateFallback) {
            if (dateFormatter != null) {
                day = SparkDateTime.toEpochDay(s, off, len);
            }
            if (day == SparkDateTime.FAIL_DAY && containsGmt(s, off, len)) {
                char[] cleaned = withoutGmt(s, off, len);
                day = SparkDateTime.toEpochDay(cleaned, 0, cleaned.length);
            }
            if (day == SparkDateTime.FAIL_DAY && daysNumberFallback) {
                try {
                    day = Integer.parseInt(new String(s, off, len));
                } catch (NumberFormatException e) {
                    // not a day count either
                }
            }
        }
        if (day == SparkDateTime.FAIL_DAY) {
            throw new ValueParseException("Cannot parse '" + new String(s, off, len) + "' as a date"
                    + (dateFormatter != null ? " with dateFormat" : ""), patternError);
        }
        return LocalDate.ofEpochDay(day);
    }

    private long patternMicros(char[] s, int off, int len) {
        TemporalAccessor parsed = timestampFormatter.parse(CharBuffer.wrap(s, off, len));
        ZoneId parsedZone = parsed.query(TemporalQueries.zone());
        ZonedDateTime zdt = ZonedDateTime.of(localDate(parsed), localTime(parsed), parsedZone == null ? zone : parsedZone);
        return Math.addExact(Math.multiplyExact(zdt.toEpochSecond(), 1_000_000L), zdt.getNano() / 1000);
    }

    private static int getOrDefault(TemporalAccessor a, ChronoField f, int def) {
        return a.isSupported(f) ? a.get(f) : def;
    }

    // Spark's DateTimeFormatterHelper.toLocalDate: missing fields default to 1970-01-01.
    private static LocalDate localDate(TemporalAccessor a) {
        LocalDate d = a.query(TemporalQueries.localDate());
        if (d != null) {
            return d;
        }
        int year = getOrDefault(a, ChronoField.YEAR, 1970);
        if (a.isSupported(ChronoField.DAY_OF_YEAR)) {
            LocalDate date = LocalDate.ofYearDay(year, a.get(ChronoField.DAY_OF_YEAR));
            if (a.isSupported(ChronoField.MONTH_OF_YEAR) && a.get(ChronoField.MONTH_OF_YEAR) != date.getMonthValue()
                    || a.isSupported(ChronoField.DAY_OF_MONTH) && a.get(ChronoField.DAY_OF_MONTH) != date.getDayOfMonth()) {
                throw new DateTimeException("Conflicting day of year and month/day");
            }
            return date;
        }
        return LocalDate.of(year, getOrDefault(a, ChronoField.MONTH_OF_YEAR, 1), getOrDefault(a, ChronoField.DAY_OF_MONTH, 1));
    }

    private static LocalTime localTime(TemporalAccessor a) {
        LocalTime t = a.query(TemporalQueries.localTime());
        if (t != null) {
            return t;
        }
        int hour;
        if (a.isSupported(ChronoField.HOUR_OF_DAY)) {
            hour = a.get(ChronoField.HOUR_OF_DAY);
        } else if (a.isSupported(ChronoField.HOUR_OF_AMPM)) {
            hour = a.get(ChronoField.HOUR_OF_AMPM);
        } else if (a.isSupported(ChronoField.AMPM_OF_DAY) && a.get(ChronoField.AMPM_OF_DAY) == 1) {
            hour = 12;
        } else {
            hour = 0;
        }
        return LocalTime.of(hour, getOrDefault(a, ChronoField.MINUTE_OF_HOUR, 0),
                getOrDefault(a, ChronoField.SECOND_OF_MINUTE, 0), getOrDefault(a, ChronoField.NANO_OF_SECOND, 0));
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

    /**
     * Builds a parser for a Spark datetime pattern: Spark's checks (week-based and some letters refused), 'y'
     * read as proleptic year, a run of 'S' read as 1 to that many fraction digits, case-insensitive, strict.
     */
    static DateTimeFormatter formatter(String option, String pattern, Locale locale) {
        try {
            String converted = convertPattern(pattern);
            DateTimeFormatterBuilder b = new DateTimeFormatterBuilder().parseCaseInsensitive();
            if (converted.indexOf('S') >= 0) {
                appendWithVarLengthFraction(b, converted);
            } else {
                b.appendPattern(converted);
            }
            return b.toFormatter(locale).withChronology(IsoChronology.INSTANCE).withResolverStyle(ResolverStyle.STRICT);
        } catch (IllegalArgumentException e) {
            throw new InvalidOptionException(option, pattern, "Invalid value '" + pattern + "' for option '" + option
                    + "': Fail to recognize '" + pattern + "' pattern in the DateTimeFormatter (" + e.getMessage()
                    + "). You can form a valid datetime pattern with the guide from '" + PATTERN_GUIDE + "'", true);
        }
    }

    // Spark's DateTimeFormatterHelper.convertIncompatiblePattern for parsing.
    private static String convertPattern(String pattern) {
        String[] parts = (pattern + " ").split("'", -1);
        boolean era = false;
        for (int i = 0; i < parts.length; i += 2) {
            era |= parts[i].indexOf('G') >= 0;
        }
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < parts.length; i++) {
            String part = parts[i];
            if (i > 0) {
                out.append('\'');
            }
            if (i % 2 == 0) {
                for (char c : part.toCharArray()) {
                    if (WEEK_BASED.contains(c)) {
                        throw new IllegalArgumentException("All week-based patterns are unsupported since Spark 3.0, "
                                + "detected: " + c + ", Please use the SQL function EXTRACT instead");
                    }
                    if (UNSUPPORTED.contains(c) || UNSUPPORTED_FOR_PARSING.contains(c)) {
                        throw new IllegalArgumentException("Illegal pattern character: " + c);
                    }
                }
                for (String style : new String[] {"GGGGG", "MMMMM", "LLLLL", "EEEEE", "QQQQQ", "qqqqq", "yyyyyyy"}) {
                    if (part.contains(style)) {
                        throw new IllegalArgumentException("Too many pattern letters: " + style.charAt(0));
                    }
                }
                out.append(era ? part : part.replace('y', 'u'));
            } else {
                out.append(part);
            }
        }
        return out.substring(0, out.length() - 1);
    }

    // Spark's createBuilderWithVarLengthSecondFraction.
    private static void appendWithVarLengthFraction(DateTimeFormatterBuilder b, String pattern) {
        String[] parts = pattern.split("'");
        for (int idx = 0; idx < parts.length; idx++) {
            String part = parts[idx];
            if (part.isEmpty() && idx != 0) {
                b.appendLiteral("'");
            } else if (idx % 2 == 0) {
                String rest = part;
                while (!rest.isEmpty()) {
                    int s = rest.indexOf('S');
                    if (s < 0) {
                        b.appendPattern(rest);
                        break;
                    }
                    int e = s;
                    while (e < rest.length() && rest.charAt(e) == 'S') {
                        e++;
                    }
                    if (s > 0) {
                        b.appendPattern(rest.substring(0, s));
                    }
                    b.appendFraction(ChronoField.NANO_OF_SECOND, 1, e - s, false);
                    rest = rest.substring(e);
                }
            } else {
                b.appendLiteral(part);
            }
        }
    }
}
