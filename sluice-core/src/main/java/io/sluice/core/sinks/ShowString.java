package io.sluice.core.sinks;

import io.sluice.api.Row;
import io.sluice.api.types.ArrayType;
import io.sluice.api.types.AtomicType;
import io.sluice.api.types.DataType;
import io.sluice.api.types.DecimalType;
import io.sluice.api.types.MapType;
import io.sluice.api.types.StructType;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Spark's {@code Dataset.showString} (horizontal form): values as {@code ToPrettyString} renders them
 * ({@code NULL}, timestamps {@code yyyy-MM-dd HH:mm:ss[.fraction]}, arrays {@code [1, 2]}, maps {@code {a -> 1}},
 * structs {@code {1, a}}, binary {@code [0A FF]}), meta characters escaped ({@code \n} shown as {@code \\n}...),
 * cells longer than {@code truncate} cut to {@code truncate - 3} characters and {@code ...}, columns at least 3
 * wide, right-aligned when truncating and left-aligned otherwise, and {@code only showing top N rows} when there
 * were more rows than shown.
 */
final class ShowString {
    private static final int MINIMUM_COLUMN_WIDTH = 3;

    private ShowString() {
    }

    /**
     * @param rows     up to {@code numRows + 1} rows (one more tells that there were more)
     * @param truncate the cell width limit, or 0 for none
     */
    static String of(StructType schema, List<Row> rows, int numRows, int truncate, ZoneId zone) {
        int n = Math.max(0, numRows);
        boolean hasMoreData = rows.size() > n;
        List<Row> shown = rows.subList(0, Math.min(n, rows.size()));
        int cols = schema.size();

        List<String[]> cells = new ArrayList<>(shown.size() + 1);
        String[] header = new String[cols];
        for (int i = 0; i < cols; i++) {
            header[i] = escapeMetaCharacters(schema.field(i).name());
        }
        cells.add(header);
        for (Row r : shown) {
            String[] line = new String[cols];
            for (int i = 0; i < cols; i++) {
                String s = escapeMetaCharacters(pretty(r.get(i), schema.field(i).dataType(), zone));
                if (truncate > 0 && s.length() > truncate) {
                    s = truncate < 4 ? s.substring(0, truncate) : s.substring(0, truncate - 3) + "...";
                }
                line[i] = s;
            }
            cells.add(line);
        }

        int[] widths = new int[cols];
        Arrays.fill(widths, MINIMUM_COLUMN_WIDTH);
        for (String[] line : cells) {
            for (int i = 0; i < cols; i++) {
                widths[i] = Math.max(widths[i], halfWidth(line[i]));
            }
        }
        StringBuilder sep = new StringBuilder("+");
        for (int w : widths) {
            sep.append("-".repeat(w)).append('+');
        }
        sep.append('\n');

        StringBuilder sb = new StringBuilder();
        sb.append(sep);
        appendLine(sb, cells.get(0), widths, truncate > 0);
        sb.append(sep);
        for (int k = 1; k < cells.size(); k++) {
            appendLine(sb, cells.get(k), widths, truncate > 0);
        }
        sb.append(sep);
        if (hasMoreData) {
            sb.append("only showing top ").append(n).append(n == 1 ? " row" : " rows").append('\n');
        }
        return sb.toString();
    }

    private static void appendLine(StringBuilder sb, String[] line, int[] widths, boolean rightAlign) {
        sb.append('|');
        for (int i = 0; i < line.length; i++) {
            String cell = line[i];
            String pad = " ".repeat(Math.max(0, widths[i] - halfWidth(cell)));
            sb.append(rightAlign ? pad + cell : cell + pad).append('|');
        }
        sb.append('\n');
    }

    /** Spark's Utils.stringHalfWidth: full-width (East Asian) characters count twice. */
    static int halfWidth(String s) {
        int w = s.length();
        for (int i = 0; i < s.length(); i++) {
            if (isFullWidth(s.charAt(i))) {
                w++;
            }
        }
        return w;
    }

    private static boolean isFullWidth(char c) {
        return (c >= '\u1100' && c <= '\u115F') || (c >= '\u2E80' && c <= '\uA4CF')
                || (c >= '\uAC00' && c <= '\uD7A3') || (c >= '\uF900' && c <= '\uFAFF')
                || (c >= '\uFE10' && c <= '\uFE19') || (c >= '\uFE30' && c <= '\uFE6F')
                || (c >= '\uFF00' && c <= '\uFF60') || (c >= '\uFFE0' && c <= '\uFFE6');
    }

    static String escapeMetaCharacters(String s) {
        if (s.chars().noneMatch(c -> c == '\n' || c == '\r' || c == '\t' || c == '\f' || c == '\b' || c == 0x0B
                || c == 0x07)) {
            return s;
        }
        return s.replace("\n", "\\n").replace("\r", "\\r").replace("\t", "\\t").replace("\f", "\\f")
                .replace("\b", "\\b").replace("\u000B", "\\v").replace("\u0007", "\\a");
    }

    /** A value as Spark's ToPrettyString renders it. */
    static String pretty(Object v, DataType type, ZoneId zone) {
        if (v == null) {
            return "NULL";
        }
        if (type instanceof DecimalType d) {
            BigDecimal b = (BigDecimal) v;
            return (b.scale() == d.scale() ? b : b.setScale(d.scale(), RoundingMode.HALF_UP)).toString();
        }
        if (type instanceof ArrayType a) {
            StringBuilder sb = new StringBuilder("[");
            boolean first = true;
            for (Object e : (List<?>) v) {
                if (!first) {
                    sb.append(", ");
                }
                first = false;
                sb.append(pretty(e, a.elementType(), zone));
            }
            return sb.append(']').toString();
        }
        if (type instanceof MapType m) {
            StringBuilder sb = new StringBuilder("{");
            boolean first = true;
            for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
                if (!first) {
                    sb.append(", ");
                }
                first = false;
                sb.append(pretty(e.getKey(), m.keyType(), zone)).append(" -> ")
                        .append(pretty(e.getValue(), m.valueType(), zone));
            }
            return sb.append('}').toString();
        }
        if (type instanceof StructType st) {
            Row r = (Row) v;
            StringBuilder sb = new StringBuilder("{");
            for (int i = 0; i < st.size(); i++) {
                if (i > 0) {
                    sb.append(", ");
                }
                sb.append(pretty(r.get(i), st.field(i).dataType(), zone));
            }
            return sb.append('}').toString();
        }
        if (type == AtomicType.TIMESTAMP_TYPE) {
            return timestamp((Instant) v, zone);
        }
        if (type == AtomicType.BINARY_TYPE) {
            byte[] b = (byte[]) v;
            StringBuilder sb = new StringBuilder("[");
            for (int i = 0; i < b.length; i++) {
                if (i > 0) {
                    sb.append(' ');
                }
                sb.append(String.format("%02X", b[i] & 0xFF));
            }
            return sb.append(']').toString();
        }
        if (type == AtomicType.FLOAT_TYPE) {
            return Float.toString(((Number) v).floatValue());
        }
        if (type == AtomicType.DOUBLE_TYPE) {
            return Double.toString(((Number) v).doubleValue());
        }
        return v.toString();
    }

    /** Spark's timestamp to string: the fraction only when non-zero, without trailing zeros. */
    static String timestamp(Instant t, ZoneId zone) {
        LocalDateTime ldt = LocalDateTime.ofInstant(t, zone);
        String s = String.format("%04d-%02d-%02d %02d:%02d:%02d", ldt.getYear(), ldt.getMonthValue(),
                ldt.getDayOfMonth(), ldt.getHour(), ldt.getMinute(), ldt.getSecond());
        int micros = ldt.getNano() / 1000;
        if (micros == 0) {
            return s;
        }
        String frac = String.format("%06d", micros);
        int end = frac.length();
        while (frac.charAt(end - 1) == '0') {
            end--;
        }
        return s + "." + frac.substring(0, end);
    }
}
