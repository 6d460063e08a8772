package io.sluice.core;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * Progress timestamps in Spark's form, {@code yyyy-MM-dd'T'HH:mm:ss.SSS'Z'} in UTC. Written by hand for the years
 * 1-9999 (every clock a query runs under): building a {@link DateTimeFormatter} costs a fresh JVM some 15 ms of
 * class loading on the way to its first batch; other years go through one, which gives the same text for these.
 */
final class ProgressTime {
    private ProgressTime() {
    }

    static String format(long epochMillis) {
        LocalDateTime t = LocalDateTime.ofEpochSecond(Math.floorDiv(epochMillis, 1000L),
                (int) Math.floorMod(epochMillis, 1000L) * 1_000_000, ZoneOffset.UTC);
        int year = t.getYear();
        if (year < 1 || year > 9999) {
            return Pattern.FORMATTER.format(Instant.ofEpochMilli(epochMillis));
        }
        char[] c = new char[24];
        digits(c, 0, year, 4);
        c[4] = '-';
        digits(c, 5, t.getMonthValue(), 2);
        c[7] = '-';
        digits(c, 8, t.getDayOfMonth(), 2);
        c[10] = 'T';
        digits(c, 11, t.getHour(), 2);
        c[13] = ':';
        digits(c, 14, t.getMinute(), 2);
        c[16] = ':';
        digits(c, 17, t.getSecond(), 2);
        c[19] = '.';
        digits(c, 20, t.getNano() / 1_000_000, 3);
        c[23] = 'Z';
        return new String(c);
    }

    private static void digits(char[] c, int at, int value, int width) {
        for (int i = at + width - 1; i >= at; i--) {
            c[i] = (char) ('0' + value % 10);
            value /= 10;
        }
    }

    /** Only loaded for a year outside 1-9999. */
    static final class Pattern {
        static final DateTimeFormatter FORMATTER =
                DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

        private Pattern() {
        }
    }
}
