package io.sluice.values;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Spark's string-to-timestamp and string-to-date rules (SparkDateTimeUtils.stringToTimestamp, stringToDate): the
 * one implementation behind {@code CAST(s AS TIMESTAMP|DATE)}, {@code from_json} and the JSON and CSV file formats
 * when no timestampFormat or dateFormat is given (Spark 4, ANSI off). Works on char ranges so the hot path
 * allocates nothing but the result. Stateless and thread-safe.
 *
 * <p>Accepted timestamps: {@code [+-]yyyy*[-[m]m[-[d]d[( |T)[h]h[:[m]m[:[s]s[.fraction]]][zone]]]]}, where the
 * fraction keeps at most 6 digits (microseconds) and the zone is {@code Z}, {@code +|-hh:mm} and the like, a
 * short id, {@code UTC+..}/{@code GMT+..}/{@code UT+..} or a region such as {@code Europe/Paris}; without a zone
 * the default zone applies. Leading and trailing whitespace and control characters are ignored. Unlike Spark, a
 * time without a date ({@code 12:00:00}, which Spark places on the current day) is refused: the result would
 * depend on the day the file is read.
 */
public final class SparkTimestamps {
    /** Returned by {@link #toMicros} when the text is not a timestamp (no real timestamp has this value). */
    public static final long FAIL_MICROS = Long.MIN_VALUE;
    /** Returned by {@link #toEpochDay} when the text is not a date. */
    public static final long FAIL_DAY = Long.MIN_VALUE;

    private static final Object BAD_ZONE = new Object();
    private static final ConcurrentHashMap<String, Object> ZONES = new ConcurrentHashMap<>();
    private static final int MAX_CACHED_ZONES = 4096;

    private SparkTimestamps() {
    }

    private static boolean isWsOrCtl(char c) {
        return c <= ' ' || c == 0x7f;
    }

    private static boolean validDigits(int segment, int digits) {
        return segment == 6 || (segment == 0 && digits >= 4 && digits <= 6)
                || (segment == 7 && digits <= 2)
                || (segment != 0 && segment != 6 && segment != 7 && digits > 0 && digits <= 2);
    }

    /**
     * The timestamp in {@code s[off, off+len)} in microseconds since the epoch (a fraction past the sixth digit is
     * dropped), or {@link #FAIL_MICROS}; a text without a zone is in {@code defaultZone} (the session time zone, or
     * a format's {@code timeZone} option).
     */
    public static long toMicros(char[] s, int off, int len, ZoneId defaultZone) {
        long fast = isoMicros(s, off, len, defaultZone);
        return fast != NOT_FAST ? fast : toMicrosGeneral(s, off, len, defaultZone);
    }

    private static final long NOT_FAST = Long.MIN_VALUE + 1;

    private static int d2(char[] s, int i) {
        int a = s[i] - '0';
        int b = s[i + 1] - '0';
        return (a | b) >= 0 && a <= 9 && b <= 9 ? a * 10 + b : -1;
    }

    /**
     * The common ISO forms ({@code yyyy-MM-dd[(T| )HH:mm:ss[.f*][Z|+hh:mm|-hh:mm]]}) without allocation, giving
     * exactly what {@link #toMicrosGeneral} gives; {@link #NOT_FAST} for anything else (which then takes the
     * general path).
     */
    private static long isoMicros(char[] s, int off, int len, ZoneId defaultZone) {
        if (len < 10 || s[off + 4] != '-' || s[off + 7] != '-') {
            return NOT_FAST;
        }
        int y1 = d2(s, off);
        int y2 = d2(s, off + 2);
        int month = d2(s, off + 5);
        int day = d2(s, off + 8);
        if ((y1 | y2 | month | day) < 0) {
            return NOT_FAST;
        }
        int year = y1 * 100 + y2;
        int hour = 0;
        int minute = 0;
        int second = 0;
        int micros = 0;
        int i = off + 10;
        int end = off + len;
        ZoneId zone = defaultZone;
        int offsetSeconds = 0;
        if (i < end) {
            if (len < 19 || (s[i] != 'T' && s[i] != ' ') || s[off + 13] != ':' || s[off + 16] != ':') {
                return NOT_FAST;
            }
            hour = d2(s, off + 11);
            minute = d2(s, off + 14);
            second = d2(s, off + 17);
            if ((hour | minute | second) < 0) {
                return NOT_FAST;
            }
            i = off + 19;
            if (i < end && s[i] == '.') {
                i++;
                int digits = 0;
                while (i < end && s[i] >= '0' && s[i] <= '9') {
                    if (digits < 6) {
                        micros = micros * 10 + (s[i] - '0');
                    }
                    digits++;
                    i++;
                }
                for (int k = digits; k < 6; k++) {
                    micros *= 10;
                }
            }
            if (i < end) {
                char c = s[i];
                if (c == 'Z' && i + 1 == end) {
                    zone = ZoneOffset.UTC;
                } else if ((c == '+' || c == '-') && i + 6 == end && s[i + 3] == ':') {
                    int oh = d2(s, i + 1);
                    int om = d2(s, i + 4);
                    if ((oh | om) < 0 || oh > 18 || om > 59) {
                        return NOT_FAST;
                    }
                    offsetSeconds = (oh * 3600 + om * 60) * (c == '-' ? -1 : 1);
                    zone = null;
                } else {
                    return NOT_FAST;
                }
            }
        }
        if (month < 1 || month > 12 || day < 1 || day > lengthOfMonth(year, month) || hour > 23 || minute > 59
                || second > 59) {
            return NOT_FAST;
        }
        if (zone != null) {
            ZoneOffset fixed = fixedOffset(zone);
            if (fixed == null) {
                return NOT_FAST;
            }
            offsetSeconds = fixed.getTotalSeconds();
        }
        long seconds = daysFromCivil(year, month, day) * 86400L + hour * 3600L + minute * 60L + second - offsetSeconds;
        return seconds * 1_000_000L + micros;
    }

    private static int lengthOfMonth(int year, int month) {
        return switch (month) {
            case 2 -> (year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)) ? 29 : 28;
            case 4, 6, 9, 11 -> 30;
            default -> 31;
        };
    }

    // Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil).
    static long daysFromCivil(int y, int m, int d) {
        y -= m <= 2 ? 1 : 0;
        long era = (y >= 0 ? y : y - 399) / 400;
        long yoe = y - era * 400;
        long doy = (153L * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
        long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
        return era * 146097 + doe - 719468;
    }

    /** The general rules, for every form. */
    static long toMicrosGeneral(char[] s, int off, int len, ZoneId defaultZone) {
        int j = off;
        int end = off + len;
        while (j < end && isWsOrCtl(s[j])) {
            j++;
        }
        while (end > j && isWsOrCtl(s[end - 1])) {
            end--;
        }
        if (j == end) {
            return FAIL_MICROS;
        }
        int[] seg = {1, 1, 1, 0, 0, 0, 0, 0, 0};
        int i = 0;
        int cur = 0;
        int digits = 0;
        int digitsMicro = 0;
        boolean justTime = false;
        int sign = 0;
        int tzStart = -1;
        int tzEnd = -1;
        int first = j; // Spark's "j == 0" is the first character after trimming, before any sign
        if (s[j] == '-' || s[j] == '+') {
            sign = s[j] == '-' ? -1 : 1;
            j++;
        }
        while (j < end) {
            char b = s[j];
            int v = b - '0';
            if (v < 0 || v > 9) {
                if (j == first && b == 'T') {
                    justTime = true;
                    i += 3;
                } else if (i < 2) {
                    if (b == '-') {
                        if (!validDigits(i, digits)) {
                            return FAIL_MICROS;
                        }
                        seg[i] = cur;
                        cur = 0;
                        digits = 0;
                        i++;
                    } else if (i == 0 && b == ':' && sign == 0) {
                        justTime = true;
                        if (!validDigits(3, digits)) {
                            return FAIL_MICROS;
                        }
                        seg[3] = cur;
                        cur = 0;
                        digits = 0;
                        i = 4;
                    } else {
                        return FAIL_MICROS;
                    }
                } else if (i == 2) {
                    if (b != ' ' && b != 'T' || !validDigits(i, digits)) {
                        return FAIL_MICROS;
                    }
                    seg[i] = cur;
                    cur = 0;
                    digits = 0;
                    i++;
                } else if (i == 3 || i == 4) {
                    if (b != ':' || !validDigits(i, digits)) {
                        return FAIL_MICROS;
                    }
                    seg[i] = cur;
                    cur = 0;
                    digits = 0;
                    i++;
                } else if (i == 5 || i == 6) {
                    if (!validDigits(i, digits)) {
                        return FAIL_MICROS;
                    }
                    seg[i] = cur;
                    cur = 0;
                    digits = 0;
                    i++;
                    if (!(b == '.' && i == 6)) {
                        tzStart = j;
                        tzEnd = end;
                        j = end - 1;
                    }
                    if (i == 6 && b != '.') {
                        i++;
                    }
                } else {
                    if (i < seg.length && (b == ':' || b == ' ')) {
                        if (!validDigits(i, digits)) {
                            return FAIL_MICROS;
                        }
                        seg[i] = cur;
                        cur = 0;
                        digits = 0;
                        i++;
                    } else {
                        return FAIL_MICROS;
                    }
                }
            } else {
                if (i == 6) {
                    digitsMicro++;
                }
                if (i != 6 || digits < 6) {
                    cur = cur * 10 + v;
                }
                digits++;
            }
            j++;
        }
        if (i >= seg.length || !validDigits(i, digits)) {
            return FAIL_MICROS;
        }
        seg[i] = cur;
        while (digitsMicro < 6) {
            seg[6] *= 10;
            digitsMicro++;
        }
        if (justTime) {
            return FAIL_MICROS;
        }
        ZoneId zone = defaultZone;
        if (tzStart >= 0) {
            zone = zone(s, tzStart, tzEnd);
            if (zone == null) {
                return FAIL_MICROS;
            }
        }
        if (sign != 0) {
            seg[0] *= sign;
        }
        int hour = seg[3];
        int minute = seg[4];
        int second = seg[5];
        if (hour > 23 || minute > 59 || second > 59) {
            return FAIL_MICROS;
        }
        try {
            LocalDate date = LocalDate.of(seg[0], seg[1], seg[2]);
            long seconds;
            ZoneOffset fixed = fixedOffset(zone);
            if (fixed != null) {
                seconds = date.toEpochDay() * 86400L + hour * 3600L + minute * 60L + second - fixed.getTotalSeconds();
            } else {
                seconds = ZonedDateTime.of(date.getYear(), date.getMonthValue(), date.getDayOfMonth(), hour, minute,
                        second, 0, zone).toEpochSecond();
            }
            return Math.addExact(Math.multiplyExact(seconds, 1_000_000L), seg[6]);
        } catch (DateTimeException | ArithmeticException e) {
            return FAIL_MICROS;
        }
    }

    private static ZoneOffset fixedOffset(ZoneId zone) {
        if (zone instanceof ZoneOffset z) {
            return z;
        }
        var rules = zone.getRules();
        return rules.isFixedOffset() ? rules.getOffset(java.time.Instant.EPOCH) : null;
    }

    private static ZoneId zone(char[] s, int start, int end) {
        while (start < end && s[start] <= ' ') {
            start++;
        }
        while (end > start && s[end - 1] <= ' ') {
            end--;
        }
        if (end - start == 1 && (s[start] == 'Z' || s[start] == 'z')) {
            return s[start] == 'Z' ? ZoneOffset.UTC : zoneId("z");
        }
        return zoneId(new String(s, start, end - start));
    }

    /**
     * A zone id as Spark's DateTimeUtils.getZoneId reads it (short ids such as {@code PST}, offsets, regions, with
     * its two pre-3.0 fixes for one-digit hours and minutes, {@code +1:00} and {@code +01:0}), or null.
     */
    public static ZoneId zoneId(String id) {
        Object z = ZONES.get(id);
        if (z == null) {
            try {
                z = ZoneId.of(fixLegacyOffsets(id), ZoneId.SHORT_IDS);
            } catch (DateTimeException e) {
                z = BAD_ZONE;
            }
            if (ZONES.size() < MAX_CACHED_ZONES) {
                ZONES.put(id, z);
            }
        }
        return z == BAD_ZONE ? null : (ZoneId) z;
    }

    private static boolean digit(char c) {
        return c >= '0' && c <= '9';
    }

    // (+|-)(\d): -> $10$2: (first occurrence), then (+|-)(\d\d):(\d)$ -> $1$2:0$3
    private static String fixLegacyOffsets(String id) {
        String r = id;
        for (int k = 0; k + 2 < r.length(); k++) {
            char c = r.charAt(k);
            if ((c == '+' || c == '-') && digit(r.charAt(k + 1)) && r.charAt(k + 2) == ':') {
                r = r.substring(0, k + 1) + '0' + r.substring(k + 1);
                break;
            }
        }
        int n = r.length();
        if (n >= 5) {
            char c = r.charAt(n - 5);
            if ((c == '+' || c == '-') && digit(r.charAt(n - 4)) && digit(r.charAt(n - 3)) && r.charAt(n - 2) == ':'
                    && digit(r.charAt(n - 1))) {
                r = r.substring(0, n - 1) + '0' + r.substring(n - 1);
            }
        }
        return r;
    }

    /**
     * The date in {@code s[off, off+len)} in days since 1970-01-01, or {@link #FAIL_DAY}:
     * {@code [+-]yyyy*[-[m]m[-[d]d[( |T)anything]]]}, surrounding whitespace and control characters ignored.
     */
    public static long toEpochDay(char[] s, int off, int len) {
        int j = off;
        int end = off + len;
        while (j < end && isWsOrCtl(s[j])) {
            j++;
        }
        while (end > j && isWsOrCtl(s[end - 1])) {
            end--;
        }
        if (j == end) {
            return FAIL_DAY;
        }
        int[] seg = {1, 1, 1};
        int sign = 1;
        int i = 0;
        int cur = 0;
        int digits = 0;
        if (s[j] == '-' || s[j] == '+') {
            sign = s[j] == '-' ? -1 : 1;
            j++;
        }
        while (j < end && i < 3 && !(s[j] == ' ' || s[j] == 'T')) {
            char b = s[j];
            if (i < 2 && b == '-') {
                if (!validDateDigits(i, digits)) {
                    return FAIL_DAY;
                }
                seg[i] = cur;
                cur = 0;
                digits = 0;
                i++;
            } else {
                int v = b - '0';
                if (v < 0 || v > 9) {
                    return FAIL_DAY;
                }
                cur = cur * 10 + v;
                digits++;
            }
            j++;
        }
        if (!validDateDigits(i, digits)) {
            return FAIL_DAY;
        }
        if (i < 2 && j < end) {
            return FAIL_DAY;
        }
        seg[i] = cur;
        try {
            return LocalDate.of(sign * seg[0], seg[1], seg[2]).toEpochDay();
        } catch (DateTimeException e) {
            return FAIL_DAY;
        }
    }

    /** {@link #toMicros(char[], int, int, ZoneId)} of a whole string. */
    public static long toMicros(String s, ZoneId defaultZone) {
        return toMicros(s.toCharArray(), 0, s.length(), defaultZone);
    }

    /** {@link #toEpochDay(char[], int, int)} of a whole string. */
    public static long toEpochDay(String s) {
        return toEpochDay(s.toCharArray(), 0, s.length());
    }

    /** {@code CAST(s AS TIMESTAMP)}: the instant, or null when {@code s} is not a timestamp. */
    public static Instant parseTimestamp(String s, ZoneId defaultZone) {
        long micros = toMicros(s, defaultZone);
        return micros == FAIL_MICROS ? null : instant(micros);
    }

    /** {@code CAST(s AS DATE)}: the date, or null when {@code s} is not a date. */
    public static LocalDate parseDate(String s) {
        long day = toEpochDay(s);
        return day == FAIL_DAY ? null : LocalDate.ofEpochDay(day);
    }

    /** Microseconds since the epoch as an instant. */
    public static Instant instant(long micros) {
        return Instant.ofEpochSecond(Math.floorDiv(micros, 1_000_000L), Math.floorMod(micros, 1_000_000L) * 1000L);
    }

    /** An instant in microseconds since the epoch (sub-microsecond digits dropped, as Spark keeps microseconds). */
    public static long micros(Instant t) {
        return Math.addExact(Math.multiplyExact(t.getEpochSecond(), 1_000_000L), t.getNano() / 1000);
    }

    /**
     * {@code CAST(t AS STRING)}: {@code 2026-10-02 00:00:00} in {@code zone}, a fraction only when there is one,
     * trimmed of trailing zeros ({@code 2026-10-02 00:00:00.5}).
     */
    public static String format(Instant t, ZoneId zone) {
        java.time.LocalDateTime d = java.time.LocalDateTime.ofInstant(t, zone);
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

    private static boolean validDateDigits(int segment, int digits) {
        return (segment == 0 && digits >= 4 && digits <= 7) || (segment != 0 && digits > 0 && digits <= 2);
    }
}
