package io.sluice.files.sink;

import io.sluice.api.Row;
import io.sluice.api.types.AtomicType;
import io.sluice.api.types.DataType;
import io.sluice.api.types.DecimalType;
import io.sluice.values.RowToJson;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.BitSet;

/**
 * The folder of a row under {@code partitionBy}: {@code col=value/...} as Spark (Hive) names it. A value is the
 * column cast to a string (timestamps {@code yyyy-MM-dd HH:mm:ss[.fraction]} in the sink's time zone, dates
 * {@code yyyy-MM-dd}); null and the empty string become {@code __HIVE_DEFAULT_PARTITION__}; names and values are
 * escaped as Hive escapes path names ({@code %XX} for control characters, DEL and each of
 * {@code " # % ' * / : = ? \ { [ ] ^}).
 * Thread-safe.
 */
final class PartitionPaths {
    static final String DEFAULT_PARTITION_NAME = "__HIVE_DEFAULT_PARTITION__";
    private static final BitSet ESCAPED = new BitSet(128);
    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    static {
        for (char c = 1; c < 0x20; c++) {
            ESCAPED.set(c);
        }
        for (char c : "\"#%'*/:=?\\\u007F{[]^".toCharArray()) {
            ESCAPED.set(c);
        }
    }

    private final int[] columns;
    private final String[] prefixes;
    private final DataType[] types;
    private final ZoneId zone;

    PartitionPaths(int[] columns, String[] names, DataType[] types, ZoneId zone) {
        this.columns = columns;
        this.types = types;
        this.zone = zone;
        this.prefixes = new String[columns.length];
        for (int i = 0; i < columns.length; i++) {
            prefixes[i] = escapePathName(names[i]) + "=";
        }
    }

    /** The relative folder of the row, e.g. {@code day=2026-10-02/kind=a}; "" without partition columns. */
    String folderOf(Row row) {
        if (columns.length == 0) {
            return "";
        }
        StringBuilder sb = new StringBuilder(32);
        for (int i = 0; i < columns.length; i++) {
            if (i > 0) {
                sb.append('/');
            }
            sb.append(prefixes[i]);
            String v = valueString(row.get(columns[i]), types[i]);
            sb.append(v == null || v.isEmpty() ? DEFAULT_PARTITION_NAME : escapePathName(v));
        }
        return sb.toString();
    }

    private String valueString(Object v, DataType type) {
        if (v == null) {
            return null;
        }
        if (type instanceof DecimalType d) {
            return RowToJson.atScale((BigDecimal) v, d.scale()).toString();
        }
        if (type == AtomicType.TIMESTAMP_TYPE) {
            return timestampString((Instant) v, zone);
        }
        if (type == AtomicType.DATE_TYPE) {
            LocalDate d = (LocalDate) v;
            return d.toString();
        }
        if (type == AtomicType.BINARY_TYPE) {
            return new String((byte[]) v, StandardCharsets.UTF_8);
        }
        if (type == AtomicType.FLOAT_TYPE) {
            return Float.toString(((Number) v).floatValue());
        }
        if (type == AtomicType.DOUBLE_TYPE) {
            return Double.toString(((Number) v).doubleValue());
        }
        return v.toString();
    }

    /** Spark's cast of a timestamp to string: the fraction only when non-zero, without trailing zeros. */
    static String timestampString(Instant t, ZoneId zone) {
        LocalDateTime ldt = LocalDateTime.ofInstant(t, zone);
        StringBuilder sb = new StringBuilder(32);
        int y = ldt.getYear();
        if (y < 1000 && y >= 0) {
            sb.append(String.format("%04d", y));
        } else {
            sb.append(y);
        }
        sb.append('-').append(two(ldt.getMonthValue())).append('-').append(two(ldt.getDayOfMonth()))
                .append(' ').append(two(ldt.getHour())).append(':').append(two(ldt.getMinute())).append(':')
                .append(two(ldt.getSecond()));
        int micros = ldt.getNano() / 1000;
        if (micros != 0) {
            String frac = String.format("%06d", micros);
            int end = frac.length();
            while (frac.charAt(end - 1) == '0') {
                end--;
            }
            sb.append('.').append(frac, 0, end);
        }
        return sb.toString();
    }

    private static String two(int v) {
        return v < 10 ? "0" + v : Integer.toString(v);
    }

    /** Hive's FileUtils.escapePathName, as Spark's ExternalCatalogUtils has it (non-Windows). */
    static String escapePathName(String path) {
        int first = 0;
        int n = path.length();
        while (first < n && !needsEscaping(path.charAt(first))) {
            first++;
        }
        if (first == n) {
            return path;
        }
        StringBuilder sb = new StringBuilder(n + 8).append(path, 0, first);
        for (int i = first; i < n; i++) {
            char c = path.charAt(i);
            if (needsEscaping(c)) {
                sb.append('%').append(HEX[(c & 0xF0) >> 4]).append(HEX[c & 0x0F]);
            } else {
                sb.append(c);
            }
        }
        return sb.toString();
    }

    private static boolean needsEscaping(char c) {
        return c < 128 && ESCAPED.get(c);
    }
}
