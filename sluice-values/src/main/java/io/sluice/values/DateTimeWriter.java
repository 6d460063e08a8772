package io.sluice.values;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/**
 * Writes dates and timestamps as Spark's writers do ({@code to_json}, the JSON and CSV sinks): a pattern (Spark's
 * datetime patterns, {@link DateTimePatterns}) in a zone. The defaults (Spark's
 * {@code yyyy-MM-dd'T'HH:mm:ss[.SSS][XXX]} in UTC, and {@code yyyy-MM-dd}) take a hand-written path, since a
 * {@link DateTimeFormatter} costs more than the rest of a JSON row; it gives exactly the formatter's output
 * ({@code 2026-10-02T00:00:00.000Z}: milliseconds truncated, never rounded). Thread-safe.
 */
public final class DateTimeWriter {
    /** Spark 3+/4's timestampFormat for writing JSON and CSV: {@code 2026-10-02T00:00:00.000Z} in UTC. */
    public static final String DEFAULT_TIMESTAMP_FORMAT = "yyyy-MM-dd'T'HH:mm:ss[.SSS][XXX]";
    /** Spark's dateFormat for writing: {@code 2026-10-02}. */
    public static final String DEFAULT_DATE_FORMAT = "yyyy-MM-dd";
    private static final String DEFAULT_TIMESTAMP = DEFAULT_TIMESTAMP_FORMAT;
    private static final String[] ISO_TIMESTAMPS = {DEFAULT_TIMESTAMP, "yyyy-MM-dd'T'HH:mm:ss.SSSXXX"};

    private final DateTimeFormatter timestampFormatter;
    private final DateTimeFormatter dateFormatter;
    private final boolean fastTimestamp;
    private final boolean fastDate;

    /**
     * @throws IllegalArgumentException for a pattern Spark refuses
     */
    public DateTimeWriter(String timestampPattern, String datePattern, ZoneId zone) {
        // Spark's pattern rules (sluice-values): 'y' is the proleptic year, so year 0 and before match to_json's.
        this.timestampFormatter = DateTimePatterns.formatter(timestampPattern, Locale.US, zone);
        this.dateFormatter = DateTimePatterns.formatter(datePattern, Locale.US, zone);
        boolean utc = zone.normalized().equals(ZoneOffset.UTC);
        this.fastTimestamp = utc && (ISO_TIMESTAMPS[0].equals(timestampPattern) || ISO_TIMESTAMPS[1].equals(timestampPattern));
        this.fastDate = DEFAULT_DATE_FORMAT.equals(datePattern);
    }

    /** Writes the timestamp into {@code buf} (at least 32 chars) and returns the length. */
    public int timestamp(Instant t, char[] buf) {
        if (fastTimestamp) {
            long sec = t.getEpochSecond();
            long days = Math.floorDiv(sec, 86_400L);
            int secOfDay = (int) Math.floorMod(sec, 86_400L);
            long ymd = civil(days);
            int year = (int) (ymd >> 9);
            if (year >= 1 && year <= 9999) {
                int month = (int) ((ymd >> 5) & 0xF);
                int day = (int) (ymd & 0x1F);
                digits4(buf, 0, year);
                buf[4] = '-';
                digits2(buf, 5, month);
                buf[7] = '-';
                digits2(buf, 8, day);
                buf[10] = 'T';
                digits2(buf, 11, secOfDay / 3600);
                buf[13] = ':';
                digits2(buf, 14, secOfDay / 60 % 60);
                buf[16] = ':';
                digits2(buf, 17, secOfDay % 60);
                buf[19] = '.';
                int millis = t.getNano() / 1_000_000;
                buf[20] = (char) ('0' + millis / 100);
                buf[21] = (char) ('0' + millis / 10 % 10);
                buf[22] = (char) ('0' + millis % 10);
                buf[23] = 'Z';
                return 24;
            }
        }
        String s = timestampFormatter.format(t);
        if (s.length() > buf.length) {
            throw new IllegalArgumentException("Formatted timestamp too long: " + s);
        }
        s.getChars(0, s.length(), buf, 0);
        return s.length();
    }

    /** The timestamp as text. */
    public String timestamp(Instant t) {
        char[] buf = new char[64];
        return new String(buf, 0, timestamp(t, buf));
    }

    /** Writes the date into {@code buf} (at least 32 chars) and returns the length. */
    public int date(LocalDate d, char[] buf) {
        int year = d.getYear();
        if (fastDate && year >= 1 && year <= 9999) {
            digits4(buf, 0, year);
            buf[4] = '-';
            digits2(buf, 5, d.getMonthValue());
            buf[7] = '-';
            digits2(buf, 8, d.getDayOfMonth());
            return 10;
        }
        String s = dateFormatter.format(d);
        if (s.length() > buf.length) {
            throw new IllegalArgumentException("Formatted date too long: " + s);
        }
        s.getChars(0, s.length(), buf, 0);
        return s.length();
    }

    /** The date as text. */
    public String date(LocalDate d) {
        char[] buf = new char[64];
        return new String(buf, 0, date(d, buf));
    }

    /** Days since 1970-01-01 to (year << 9 | month << 5 | day), proleptic Gregorian (H. Hinnant's algorithm). */
    private static long civil(long days) {
        long z = days + 719_468;
        long era = Math.floorDiv(z, 146_097);
        long doe = z - era * 146_097;
        long yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
        long y = yoe + era * 400;
        long doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        long mp = (5 * doy + 2) / 153;
        long d = doy - (153 * mp + 2) / 5 + 1;
        long m = mp < 10 ? mp + 3 : mp - 9;
        if (m <= 2) {
            y++;
        }
        return (y << 9) | (m << 5) | d;
    }

    private static void digits2(char[] buf, int at, int v) {
        buf[at] = (char) ('0' + v / 10);
        buf[at + 1] = (char) ('0' + v % 10);
    }

    private static void digits4(char[] buf, int at, int v) {
        buf[at] = (char) ('0' + v / 1000);
        buf[at + 1] = (char) ('0' + v / 100 % 10);
        buf[at + 2] = (char) ('0' + v / 10 % 10);
        buf[at + 3] = (char) ('0' + v % 10);
    }
}
