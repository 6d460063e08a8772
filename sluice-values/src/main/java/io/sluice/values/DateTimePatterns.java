package io.sluice.values;

import java.time.DateTimeException;
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
import java.util.Set;

/**
 * Spark's datetime patterns (https://spark.apache.org/docs/latest/sql-ref-datetime-pattern.html, legacy time parser
 * policy CORRECTED): the one implementation behind the {@code timestampFormat}/{@code dateFormat} options of the
 * file formats, {@code from_json}/{@code to_json}, {@code to_timestamp}, {@code to_date} and {@code date_format}.
 *
 * <p>Callers may rely on: week-based letters ({@code Y W w u e c}) and {@code A n N p} refused, {@code E F q Q}
 * refused for parsing, as in Spark 3+; {@code y} read as the proleptic year unless the pattern has an era
 * ({@code G}); parsing is case-insensitive and strict (the whole text must match), a run of {@code S} reads 1 to
 * that many fraction digits; fields the pattern lacks default to 1970-01-01 00:00:00, and a text without a zone is
 * in the zone given. Stateless and thread-safe.
 */
public final class DateTimePatterns {
    /** Spark's guide to its patterns, which its error messages name. */
    public static final String PATTERN_GUIDE = "https://spark.apache.org/docs/latest/sql-ref-datetime-pattern.html";
    private static final Set<Character> WEEK_BASED = Set.of('Y', 'W', 'w', 'u', 'e', 'c');
    private static final Set<Character> UNSUPPORTED = Set.of('A', 'n', 'N', 'p');
    private static final Set<Character> UNSUPPORTED_FOR_PARSING = Set.of('E', 'F', 'q', 'Q');

    private DateTimePatterns() {
    }

    /**
     * A parser for a Spark datetime pattern.
     *
     * @throws IllegalArgumentException with Spark's reason for a pattern it refuses (java.time's, which, as in
     *                                  Spark, quotes the converted pattern: {@code uuuu} for {@code yyyy})
     */
    public static DateTimeFormatter parser(String pattern, Locale locale) {
        String converted = convertPattern(pattern, true);
        DateTimeFormatterBuilder b = new DateTimeFormatterBuilder().parseCaseInsensitive();
        if (converted.indexOf('S') >= 0) {
            appendWithVarLengthFraction(b, converted);
        } else {
            b.appendPattern(converted);
        }
        return b.toFormatter(locale).withChronology(IsoChronology.INSTANCE).withResolverStyle(ResolverStyle.STRICT);
    }


    /**
     * A formatter for a Spark datetime pattern, writing in {@code zone}.
     *
     * @throws IllegalArgumentException with Spark's reason for a pattern it refuses
     */
    public static DateTimeFormatter formatter(String pattern, Locale locale, ZoneId zone) {
        return new DateTimeFormatterBuilder().appendPattern(convertPattern(pattern, false)).toFormatter(locale)
                .withChronology(IsoChronology.INSTANCE).withZone(zone);
    }

    /** The error message Spark gives for a pattern {@link #parser} or {@link #formatter} refused. */
    public static String invalidPatternMessage(String option, String pattern, IllegalArgumentException e) {
        return "Invalid value '" + pattern + "' for option '" + option + "': Fail to recognize '" + pattern
                + "' pattern in the DateTimeFormatter (" + e.getMessage() + "). You can form a valid datetime pattern"
                + " with the guide from '" + PATTERN_GUIDE + "'";
    }

    /**
     * The whole of {@code text} parsed as a timestamp, in microseconds since the epoch; a text without a zone is in
     * {@code zone}.
     *
     * @throws DateTimeException when the text does not match the pattern or is not a valid time
     * @throws ArithmeticException when it is out of range
     */
    public static long parseMicros(DateTimeFormatter parser, CharSequence text, ZoneId zone) {
        TemporalAccessor parsed = parser.parse(text);
        ZoneId parsedZone = parsed.query(TemporalQueries.zone());
        ZonedDateTime zdt = ZonedDateTime.of(localDate(parsed), localTime(parsed), parsedZone == null ? zone : parsedZone);
        return Math.addExact(Math.multiplyExact(zdt.toEpochSecond(), 1_000_000L), zdt.getNano() / 1000);
    }

    /**
     * The whole of {@code text} parsed as a date (a time in the pattern is read and dropped).
     *
     * @throws DateTimeException when the text does not match the pattern or is not a valid date
     */
    public static LocalDate parseDate(DateTimeFormatter parser, CharSequence text) {
        return localDate(parser.parse(text));
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

    // Spark's DateTimeFormatterHelper.toLocalTime.
    private static LocalTime localTime(TemporalAccessor a) {
        LocalTime t = a.query(TemporalQueries.localTime());
        if (t != null) {
            return t;
        }
        int hour;
        if (a.isSupported(ChronoField.HOUR_OF_DAY)) {
            hour = a.get(ChronoField.HOUR_OF_DAY);
        } else if (a.isSupported(ChronoField.HOUR_OF_AMPM)) {
            hour = a.get(ChronoField.HOUR_OF_AMPM); // no am/pm in the text: am, as Spark assumes
        } else if (a.isSupported(ChronoField.AMPM_OF_DAY) && a.get(ChronoField.AMPM_OF_DAY) == 1) {
            hour = 12;
        } else {
            hour = 0;
        }
        return LocalTime.of(hour, getOrDefault(a, ChronoField.MINUTE_OF_HOUR, 0),
                getOrDefault(a, ChronoField.SECOND_OF_MINUTE, 0), getOrDefault(a, ChronoField.NANO_OF_SECOND, 0));
    }

    // Spark's DateTimeFormatterHelper.convertIncompatiblePattern and its checks.
    private static String convertPattern(String pattern, boolean parsing) {
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
                    if (UNSUPPORTED.contains(c) || parsing && UNSUPPORTED_FOR_PARSING.contains(c)) {
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
