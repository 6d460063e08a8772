package io.sluice.core.expr;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.ResolverStyle;
import java.time.temporal.ChronoField;
import java.time.temporal.ChronoUnit;
import java.time.temporal.TemporalAccessor;
import java.time.temporal.TemporalQueries;
import java.util.Locale;

/**
 * Dates and timestamps as Spark reads and writes them, in UTC (Sluice's session time zone). Timestamps keep
 * microseconds, as Spark's do.
 */
final class DateTimes {
    private DateTimes() {
    }

    /** {@code to_json}'s default timestamp form: {@code 2026-10-02T00:00:00.000Z}. */
    static final DateTimeFormatter JSON_TIMESTAMP =
            DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSXXX", Locale.US).withZone(ZoneOffset.UTC);

    /**
     * Spark's {@code stringToDate}: {@code [+-]yyyy*}, {@code yyyy-[m]m}, {@code yyyy-[m]m-[d]d}, and the latter
     * followed by a space or {@code T} and anything. Surrounding whitespace is ignored. Null when not a date.
     */
    static LocalDate parseDate(String str) {
        String s = trim(str);
        int[] cursor = {0};
        int sign = sign(s, cursor);
        int year = digits(s, cursor, 4, 7);
        if (year < 0) {
            return null;
        }
        int month = 1;
        int day = 1;
        if (cursor[0] < s.length() && s.charAt(cursor[0]) == '-') {
            cursor[0]++;
            month = digits(s, cursor, 1, 2);
            if (month < 0) {
                return null;
            }
            if (cursor[0] < s.length() && s.charAt(cursor[0]) == '-') {
                cursor[0]++;
                day = digits(s, cursor, 1, 2);
                if (day < 0) {
                    return null;
                }
                if (cursor[0] < s.length() && s.charAt(cursor[0]) != ' ' && s.charAt(cursor[0]) != 'T') {
                    return null;
                }
            } else if (cursor[0] < s.length()) {
                return null;
            }
        } else if (cursor[0] < s.length()) {
            return null;
        }
        try {
            return LocalDate.of(sign * year, month, day);
        } catch (DateTimeException e) {
            return null;
        }
    }

    /**
     * Spark's {@code stringToTimestamp}: {@code yyyy}, {@code yyyy-[m]m}, {@code yyyy-[m]m-[d]d}, then optionally
     * a space or {@code T}, {@code [h]h:[m]m[:[s]s[.fraction]]} and a zone ({@code Z}, {@code +hh:mm},
     * {@code UTC}, {@code Europe/Paris}...). Without a zone the time is UTC. Null when not a timestamp.
     */
    static Instant parseTimestamp(String str) {
        String s = trim(str);
        int[] c = {0};
        int n = s.length();
        int sign = sign(s, c);
        int year = digits(s, c, 4, 7);
        if (year < 0) {
            return null;
        }
        int month = 1;
        int day = 1;
        int hour = 0;
        int minute = 0;
        int second = 0;
        int nanos = 0;
        ZoneId zone = ZoneOffset.UTC;
        if (c[0] < n && s.charAt(c[0]) == '-') {
            c[0]++;
            month = digits(s, c, 1, 2);
            if (month < 0) {
                return null;
            }
            if (c[0] < n && s.charAt(c[0]) == '-') {
                c[0]++;
                day = digits(s, c, 1, 2);
                if (day < 0) {
                    return null;
                }
                if (c[0] < n) {
                    char sep = s.charAt(c[0]);
                    if (sep != ' ' && sep != 'T') {
                        return null;
                    }
                    c[0]++;
                    if (c[0] < n) {
                        hour = digits(s, c, 1, 2);
                        if (hour < 0 || c[0] >= n || s.charAt(c[0]) != ':') {
                            return null;
                        }
                        c[0]++;
                        minute = digits(s, c, 1, 2);
                        if (minute < 0) {
                            return null;
                        }
                        if (c[0] < n && s.charAt(c[0]) == ':') {
                            c[0]++;
                            second = digits(s, c, 1, 2);
                            if (second < 0) {
                                return null;
                            }
                            if (c[0] < n && s.charAt(c[0]) == '.') {
                                c[0]++;
                                int start = c[0];
                                while (c[0] < n && Lexer.isDigit(s.charAt(c[0]))) {
                                    c[0]++;
                                }
                                int count = c[0] - start;
                                if (count == 0 || count > 9) {
                                    return null;
                                }
                                // Spark keeps microseconds: digits past the sixth are dropped.
                                int micros = 0;
                                for (int k = 0; k < 6; k++) {
                                    micros = micros * 10 + (k < count ? s.charAt(start + k) - '0' : 0);
                                }
                                nanos = micros * 1000;
                            }
                        }
                        if (c[0] < n) {
                            zone = zone(s.substring(c[0]).strip());
                            if (zone == null) {
                                return null;
                            }
                            c[0] = n;
                        }
                    }
                }
            } else if (c[0] < n) {
                return null;
            }
        } else if (c[0] < n) {
            return null;
        }
        try {
            return LocalDateTime.of(sign * year, month, day, hour, minute, second, nanos).atZone(zone).toInstant();
        } catch (DateTimeException e) {
            return null;
        }
    }

    private static ZoneId zone(String z) {
        if (z.isEmpty()) {
            return null;
        }
        try {
            char first = z.charAt(0);
            if (first == '+' || first == '-') {
                return ZoneOffset.of(z);
            }
            if (z.equals("Z") || z.equalsIgnoreCase("UTC")) {
                return ZoneOffset.UTC;
            }
            return ZoneId.of(z);
        } catch (DateTimeException e) {
            return null;
        }
    }

    private static int sign(String s, int[] cursor) {
        if (cursor[0] < s.length() && (s.charAt(cursor[0]) == '-' || s.charAt(cursor[0]) == '+')) {
            return s.charAt(cursor[0]++) == '-' ? -1 : 1;
        }
        return 1;
    }

    /** Reads min..max digits at the cursor; -1 when the count is out of range. */
    private static int digits(String s, int[] cursor, int min, int max) {
        int i = cursor[0];
        int v = 0;
        while (i < s.length() && Lexer.isDigit(s.charAt(i)) && i - cursor[0] < max) {
            v = v * 10 + (s.charAt(i) - '0');
            i++;
        }
        int count = i - cursor[0];
        if (count < min || (i < s.length() && Lexer.isDigit(s.charAt(i)))) {
            return -1;
        }
        cursor[0] = i;
        return v;
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

    /** A timestamp cast to string: {@code 2026-10-02 00:00:00}, with the fraction trimmed of trailing zeros. */
    static String formatTimestamp(Instant t) {
        LocalDateTime d = LocalDateTime.ofInstant(t, ZoneOffset.UTC);
        StringBuilder sb = new StringBuilder(26);
        sb.append(d.toLocalDate()).append(' ');
        pad2(sb, d.getHour()).append(':');
        pad2(sb, d.getMinute()).append(':');
        pad2(sb, d.getSecond());
        int micros = d.getNano() / 1000;
        if (micros != 0) {
            String f = Integer.toString(1_000_000 + micros).substring(1);
            int end = f.length();
            while (f.charAt(end - 1) == '0') {
                end--;
            }
            sb.append('.').append(f, 0, end);
        }
        return sb.toString();
    }

    private static StringBuilder pad2(StringBuilder sb, int v) {
        return sb.append((char) ('0' + v / 10)).append((char) ('0' + v % 10));
    }

    /** Drops sub-microsecond digits, as Spark's timestamps hold microseconds. */
    static Instant toMicros(Instant t) {
        return t.getNano() % 1000 == 0 ? t : t.truncatedTo(ChronoUnit.MICROS);
    }

    /**
     * A Spark datetime pattern ({@code yyyy-MM-dd HH:mm:ss}, {@code dd/MM/yyyy}...) as a java.time formatter.
     * Spark's pattern letters are java.time's for the common cases; as Spark does, {@code y} is read as the
     * proleptic year ({@code u}) unless the pattern has an era ({@code G}).
     *
     * @throws IllegalArgumentException for a pattern java.time rejects
     */
    static DateTimeFormatter pattern(String sparkPattern) {
        StringBuilder p = new StringBuilder(sparkPattern.length());
        boolean quoted = false;
        boolean hasEra = sparkPattern.indexOf('G') >= 0;
        for (int i = 0; i < sparkPattern.length(); i++) {
            char ch = sparkPattern.charAt(i);
            if (ch == '\'') {
                quoted = !quoted;
            }
            p.append(!quoted && !hasEra && ch == 'y' ? 'u' : ch);
        }
        return new DateTimeFormatterBuilder().parseCaseInsensitive().appendPattern(p.toString())
                .toFormatter(Locale.US).withResolverStyle(ResolverStyle.STRICT);
    }

    /**
     * Parses with a pattern formatter; fields the pattern lacks default as in Spark (1970-01-01, midnight, UTC).
     * Null when the text does not match the whole pattern.
     */
    static Instant parseWith(DateTimeFormatter f, String text) {
        TemporalAccessor t;
        try {
            t = f.parse(text);
        } catch (DateTimeException e) {
            return null;
        }
        try {
            LocalDate date = dateOf(t);
            LocalTime time = t.query(TemporalQueries.localTime());
            if (time == null) {
                int hour = t.isSupported(ChronoField.HOUR_OF_DAY) ? t.get(ChronoField.HOUR_OF_DAY)
                        : t.isSupported(ChronoField.HOUR_OF_AMPM) && t.isSupported(ChronoField.AMPM_OF_DAY)
                        ? t.get(ChronoField.AMPM_OF_DAY) * 12 + t.get(ChronoField.HOUR_OF_AMPM) : 0;
                int minute = t.isSupported(ChronoField.MINUTE_OF_HOUR) ? t.get(ChronoField.MINUTE_OF_HOUR) : 0;
                int second = t.isSupported(ChronoField.SECOND_OF_MINUTE) ? t.get(ChronoField.SECOND_OF_MINUTE) : 0;
                int nano = t.isSupported(ChronoField.NANO_OF_SECOND) ? t.get(ChronoField.NANO_OF_SECOND) : 0;
                time = LocalTime.of(hour, minute, second, nano);
            }
            ZoneId zone = t.query(TemporalQueries.zone());
            return toMicros(LocalDateTime.of(date, time).atZone(zone == null ? ZoneOffset.UTC : zone).toInstant());
        } catch (DateTimeException e) {
            return null;
        }
    }

    /** The date part of a pattern parse, defaulting missing fields; null when it does not match. */
    static LocalDate parseDateWith(DateTimeFormatter f, String text) {
        try {
            return dateOf(f.parse(text));
        } catch (DateTimeException e) {
            return null;
        }
    }

    private static LocalDate dateOf(TemporalAccessor t) {
        LocalDate date = t.query(TemporalQueries.localDate());
        if (date != null) {
            return date;
        }
        int year = t.isSupported(ChronoField.YEAR) ? t.get(ChronoField.YEAR) : 1970;
        int month = t.isSupported(ChronoField.MONTH_OF_YEAR) ? t.get(ChronoField.MONTH_OF_YEAR) : 1;
        int day = t.isSupported(ChronoField.DAY_OF_MONTH) ? t.get(ChronoField.DAY_OF_MONTH) : 1;
        return LocalDate.of(year, month, day);
    }
}
