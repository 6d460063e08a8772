package io.sluice.files.format;

import io.sluice.api.Row;
import io.sluice.api.RowBuilder;
import io.sluice.api.types.AtomicType;
import io.sluice.api.types.DataType;
import io.sluice.api.types.StructType;
import io.sluice.values.JsonToRow;

import java.nio.charset.StandardCharsets;

/**
 * A fast path for the common JSON line: one flat object of scalar fields, read straight from the line's UTF-8
 * bytes into the row, with no Jackson parser. It accepts only input that Jackson reads without error and for which
 * it gives the very values {@link JsonToRow.StructReader} gives (strict JSON: double-quoted ASCII field names
 * without escapes, strings, integers, true/false/null, whitespace); for anything else, and whenever a value does
 * not convert cleanly (a wrong type, out of range, a bad timestamp), it returns null and the caller parses the line
 * with Jackson as before, so malformed lines, partial results and messages stay exactly those of the general path.
 * Field matching replicates the general path's (exact name; the field after the previous one tried first, then
 * the first column of that name; duplicate keys: the last wins). Only the first value of the line is read.
 * Values go straight into a {@link RowBuilder} (an ASCII string as its bytes, numbers and timestamps as words):
 * no array, String or box per value. Not thread-safe (one per file reader).
 */
final class FlatJsonScanner {
    private static final int K_STRING = 0;
    private static final int K_LONG = 1;
    private static final int K_INT = 2;
    private static final int K_SHORT = 3;
    private static final int K_BOOLEAN = 4;
    private static final int K_TIMESTAMP = 5;
    private static final int K_DATE = 6;
    /** Any other type: only null is read here. */
    private static final int K_OTHER = 7;
    /** Longer strings or field names go to Jackson, which enforces its own length limits. */
    private static final int MAX_TOKEN = 1 << 20;
    /** Jackson refuses names over 50,000 characters: long names go to it, so that it does. */
    private static final int MAX_NAME = 1000;
    private static final int MAX_NUMBER = 18;
    /** Skipped numbers longer than this go to Jackson. */
    private static final int MAX_SKIPPED_NUMBER = 100;

    /**
     * The caps above lowered to the reader's {@link JsonLimits}, so that whatever is past a bound (counted in
     * bytes, never fewer than Jackson's characters) goes to Jackson, which fails it with the reason.
     */
    private final int maxToken;
    private final int maxName;
    private final int maxSkippedNumber;
    private final int maxNumber;

    private final byte[][] names;
    /** Whether a name is ASCII without control characters, quotes or backslashes, and not over MAX_NAME. */
    private final boolean[] plain;
    private final int[] kinds;
    private final int[] targets;
    private final RowBuilder row;
    private final TemporalParsers temporal;
    private char[] chars = new char[64];
    /** Where the last scanned token ended (the position after it). */
    private int pos;
    private long number;
    /** The last string scanned: its characters' bytes, and whether they are plain ASCII (no escapes). */
    private int strStart;
    private int strEnd;
    private boolean strPlain;

    /**
     * @param fields  the columns read from JSON (the corrupt-record column excluded), in schema order
     * @param targets where each of them goes in the output row
     * @param schema  the output row's schema (the corrupt-record column included)
     */
    FlatJsonScanner(StructType fields, int[] targets, StructType schema, TemporalParsers temporal) {
        this(fields, targets, schema, temporal, JsonLimits.DEFAULT);
    }

    FlatJsonScanner(StructType fields, int[] targets, StructType schema, TemporalParsers temporal,
                    JsonLimits limits) {
        this.maxToken = Math.min(MAX_TOKEN, limits.maxStringLength());
        this.maxName = Math.min(MAX_NAME, limits.maxNameLength());
        this.maxSkippedNumber = Math.min(MAX_SKIPPED_NUMBER, limits.maxNumberLength());
        this.maxNumber = Math.min(MAX_NUMBER, limits.maxNumberLength());
        int n = fields.size();
        this.names = new byte[n][];
        this.plain = new boolean[n];
        this.kinds = new int[n];
        this.targets = targets.clone();
        this.row = new RowBuilder(schema);
        this.temporal = temporal;
        for (int i = 0; i < n; i++) {
            names[i] = fields.field(i).name().getBytes(StandardCharsets.UTF_8);
            plain[i] = names[i].length <= maxName && isPlain(names[i]);
            kinds[i] = kind(fields.field(i).dataType());
        }
    }

    private static boolean isPlain(byte[] name) {
        if (name.length > MAX_NAME) {
            return false;
        }
        for (byte c : name) {
            if (c < 0x20 || c == '"' || c == '\\') {
                return false;
            }
        }
        return true;
    }

    private static int kind(DataType t) {
        if (t instanceof AtomicType a) {
            return switch (a) {
                case STRING_TYPE -> K_STRING;
                case LONG_TYPE -> K_LONG;
                case INT_TYPE -> K_INT;
                case SHORT_TYPE -> K_SHORT;
                case BOOLEAN_TYPE -> K_BOOLEAN;
                case TIMESTAMP_TYPE -> K_TIMESTAMP;
                case DATE_TYPE -> K_DATE;
                default -> K_OTHER;
            };
        }
        return K_OTHER;
    }

    /** The row of {@code b[start, end)}, or null when the line must go to the general parser. */
    Row scan(byte[] b, int start, int end) {
        if (scanInto(b, start, end)) {
            return row.build();
        }
        row.clear();
        return null;
    }

    private boolean scanInto(byte[] b, int start, int end) {
        // Jackson guesses the encoding from the first 4 bytes: a zero byte there could mean UTF-16 or UTF-32.
        for (int i = start, lim = Math.min(end, start + 4); i < lim; i++) {
            if (b[i] == 0) {
                return false;
            }
        }
        int p = ws(b, start, end);
        if (p >= end || b[p] != '{') {
            return false;
        }
        p = ws(b, p + 1, end);
        if (p >= end) {
            return false;
        }
        if (b[p] == '}') {
            return true;
        }
        int n = names.length;
        int expect = 0;
        while (true) {
            if (b[p] != '"') {
                return false;
            }
            int ns = p + 1;
            int q;
            int slot;
            if (expect < n && plain[expect] && (q = ns + names[expect].length) < end && b[q] == '"'
                    && sameAt(names[expect], b, ns)) {
                // The usual case, the field after the previous one, in one pass: what the loop below would
                // accept too, since a plain name has only bytes it lets through.
                slot = expect;
            } else {
                q = ns;
                while (q < end) {
                    byte c = b[q];
                    if (c == '"') {
                        break;
                    }
                    if (c < 0x20 || c == '\\') { // a control character, a non-ASCII byte or an escape
                        return false;
                    }
                    q++;
                }
                if (q >= end || q - ns > maxName) {
                    return false;
                }
                slot = expect < n && same(names[expect], b, ns, q) ? expect : find(b, ns, q);
            }
            p = ws(b, q + 1, end);
            if (p >= end || b[p] != ':') {
                return false;
            }
            p = ws(b, p + 1, end);
            if (p >= end) {
                return false;
            }
            if (slot < 0) {
                p = skip(b, p, end);
            } else {
                p = read(slot, b, p, end);
                expect = slot + 1;
            }
            if (p < 0) {
                return false;
            }
            p = ws(b, p, end);
            if (p >= end) {
                return false;
            }
            byte c = b[p];
            if (c == '}') {
                return true;
            }
            if (c != ',') {
                return false;
            }
            p = ws(b, p + 1, end);
            if (p >= end) {
                return false;
            }
        }
    }

    private static int ws(byte[] b, int p, int end) {
        while (p < end) {
            byte c = b[p];
            if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
                break;
            }
            p++;
        }
        return p;
    }

    private static boolean same(byte[] name, byte[] b, int from, int to) {
        int len = name.length;
        if (to - from != len) {
            return false;
        }
        for (int i = 0; i < len; i++) {
            if (b[from + i] != name[i]) {
                return false;
            }
        }
        return true;
    }

    private static boolean sameAt(byte[] name, byte[] b, int from) {
        for (int i = 0; i < name.length; i++) {
            if (b[from + i] != name[i]) {
                return false;
            }
        }
        return true;
    }

    private int find(byte[] b, int from, int to) {
        for (int i = 0; i < names.length; i++) {
            if (same(names[i], b, from, to)) {
                return i;
            }
        }
        return -1;
    }

    /** Reads the value at {@code p} into its column; the position after it, or -1 for the general path. */
    private int read(int slot, byte[] b, int p, int end) {
        int t = targets[slot];
        byte c = b[p];
        if (c == 'n') {
            if (!literal(b, p, end, 'n', 'u', 'l', 'l')) {
                return -1;
            }
            row.setNull(t);
            return p + 4;
        }
        switch (kinds[slot]) {
            case K_STRING -> {
                if (c != '"') {
                    return -1;
                }
                if (!string(b, p, end)) {
                    return -1;
                }
                if (strPlain) {
                    row.setLatin1(t, b, strStart, strEnd - strStart);
                } else {
                    String s = decode(b, strStart, strEnd);
                    if (s == null) {
                        return -1;
                    }
                    row.set(t, s);
                }
                return pos;
            }
            case K_LONG, K_INT, K_SHORT -> {
                if (!integer(b, p, end)) {
                    return -1;
                }
                long v = number;
                switch (kinds[slot]) {
                    case K_LONG -> {
                    }
                    case K_INT -> {
                        if (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE) {
                            return -1;
                        }
                    }
                    default -> {
                        if (v < Short.MIN_VALUE || v > Short.MAX_VALUE) {
                            return -1;
                        }
                    }
                }
                row.setLong(t, v);
                return pos;
            }
            case K_BOOLEAN -> {
                if (literal(b, p, end, 't', 'r', 'u', 'e')) {
                    row.setBoolean(t, true);
                    return p + 4;
                }
                if (p + 4 < end && b[p + 4] == 'e' && literal(b, p, end, 'f', 'a', 'l', 's')) {
                    row.setBoolean(t, false);
                    return p + 5;
                }
                return -1;
            }
            case K_TIMESTAMP, K_DATE -> {
                if (c == '"') {
                    int len = temporalChars(b, p, end);
                    if (len < 1) {
                        return -1;
                    }
                    try {
                        if (kinds[slot] == K_TIMESTAMP) {
                            row.setTimestampMicros(t, temporal.timestampMicros(chars, 0, len));
                        } else {
                            row.set(t, temporal.date(chars, 0, len));
                        }
                    } catch (RuntimeException e) {
                        return -1; // the general path reports it
                    }
                    return pos;
                }
                if (kinds[slot] == K_TIMESTAMP && integer(b, p, end)) {
                    long seconds = number;
                    if (seconds > Long.MAX_VALUE / 1_000_000L || seconds < Long.MIN_VALUE / 1_000_000L) {
                        return -1; // the general path decides
                    }
                    row.setTimestampMicros(t, seconds * 1_000_000L);
                    return pos;
                }
                return -1;
            }
            default -> {
                return -1;
            }
        }
    }

    private static boolean literal(byte[] b, int p, int end, char c0, char c1, char c2, char c3) {
        return p + 4 <= end && b[p] == c0 && b[p + 1] == c1 && b[p + 2] == c2 && b[p + 3] == c3;
    }

    /** Skips the scalar value at {@code p}: the position after it, or -1 (nested values go to the general path). */
    private int skip(byte[] b, int p, int end) {
        byte c = b[p];
        if (c == '"') {
            return string(b, p, end) && (strPlain || decode(b, strStart, strEnd) != null) ? pos : -1;
        }
        if (c == 'n') {
            return literal(b, p, end, 'n', 'u', 'l', 'l') ? p + 4 : -1;
        }
        if (c == 't') {
            return literal(b, p, end, 't', 'r', 'u', 'e') ? p + 4 : -1;
        }
        if (c == 'f') {
            return p + 4 < end && b[p + 4] == 'e' && literal(b, p, end, 'f', 'a', 'l', 's') ? p + 5 : -1;
        }
        return anyNumber(b, p, end);
    }

    /**
     * An integer of at most 18 digits in strict JSON form ({@code -?(0|[1-9][0-9]*)}, not followed by a fraction
     * or an exponent): sets {@link #number} and {@link #pos}.
     */
    private boolean integer(byte[] b, int p, int end) {
        int i = p;
        boolean negative = i < end && b[i] == '-';
        if (negative) {
            i++;
        }
        int first = i;
        long v = 0;
        while (i < end) {
            int d = b[i] - '0';
            if (d < 0 || d > 9) {
                break;
            }
            v = v * 10 + d;
            i++;
        }
        int digits = i - first;
        if (digits == 0 || digits > maxNumber || (digits > 1 && b[first] == '0')) {
            return false;
        }
        if (i < end && (b[i] == '.' || b[i] == 'e' || b[i] == 'E')) {
            return false;
        }
        number = negative ? -v : v;
        pos = i;
        return true;
    }

    /** Validates a JSON number in strict form (fraction and exponent allowed): the position after it, or -1. */
    private int anyNumber(byte[] b, int p, int end) {
        int i = p;
        if (i < end && b[i] == '-') {
            i++;
        }
        int first = i;
        i = digits(b, i, end);
        if (i == first || (i - first > 1 && b[first] == '0')) {
            return -1;
        }
        if (i < end && b[i] == '.') {
            int f = i + 1;
            i = digits(b, f, end);
            if (i == f) {
                return -1;
            }
        }
        if (i < end && (b[i] == 'e' || b[i] == 'E')) {
            i++;
            if (i < end && (b[i] == '+' || b[i] == '-')) {
                i++;
            }
            int e = i;
            i = digits(b, e, end);
            if (i == e) {
                return -1;
            }
        }
        return i - p > maxSkippedNumber ? -1 : i;
    }

    private static int digits(byte[] b, int i, int end) {
        while (i < end && b[i] >= '0' && b[i] <= '9') {
            i++;
        }
        return i;
    }

    /**
     * Finds the string whose opening quote is at {@code p}: false when the general path must read it (a control
     * character, a very long string). Sets {@link #strStart}, {@link #strEnd} (its characters' bytes),
     * {@link #strPlain} (printable ASCII without escapes: the bytes are the characters; otherwise {@link #decode}
     * decodes them as Jackson does, or refuses them) and {@link #pos} (after the closing quote).
     */
    private boolean string(byte[] b, int p, int end) {
        int s = p + 1;
        int q = s;
        boolean plain = true;
        while (q < end) {
            byte c = b[q];
            if (c == '"') {
                break;
            }
            if (c < 0x20 || c == '\\') {
                if (c >= 0 && c < 0x20) {
                    return false;
                }
                plain = false;
                if (c == '\\') {
                    q++; // the escaped character cannot close the string
                }
            }
            q++;
        }
        if (q >= end || q - s > maxToken) {
            return false;
        }
        pos = q + 1;
        strStart = s;
        strEnd = q;
        strPlain = plain;
        return true;
    }

    /**
     * The characters of the string in {@code b[s, q)} (not plain ASCII) as Jackson decodes them, or null when the
     * general path must read it (an escape other than JSON's, malformed UTF-8).
     */
    private static String decode(byte[] b, int s, int q) {
        boolean escapes = false;
        for (int i = s; i < q; i++) {
            if (b[i] == '\\') {
                escapes = true;
                break;
            }
        }
        if (!escapes) {
            // Non-ASCII only: well-formed UTF-8 decodes the same in Jackson and in the JDK; anything the JDK had
            // to replace (or a real U+FFFD) goes to the general path.
            String v = new String(b, s, q - s, StandardCharsets.UTF_8);
            return v.indexOf('\uFFFD') >= 0 ? null : v;
        }
        StringBuilder out = new StringBuilder(q - s);
        for (int i = s; i < q; i++) {
            byte c = b[i];
            if (c < 0) {
                return null; // escapes and non-ASCII together: rare, the general path reads it
            }
            if (c != '\\') {
                out.append((char) c);
                continue;
            }
            byte e = b[++i];
            switch (e) {
                case '"', '\\', '/' -> out.append((char) e);
                case 'b' -> out.append('\b');
                case 'f' -> out.append('\f');
                case 'n' -> out.append('\n');
                case 'r' -> out.append('\r');
                case 't' -> out.append('\t');
                case 'u' -> {
                    if (i + 4 >= q) {
                        return null;
                    }
                    int v = 0;
                    for (int k = 1; k <= 4; k++) {
                        int h = Character.digit(b[i + k], 16);
                        if (h < 0 || b[i + k] < 0) {
                            return null;
                        }
                        v = v << 4 | h;
                    }
                    out.append((char) v);
                    i += 4;
                }
                default -> {
                    return null;
                }
            }
        }
        return out.toString();
    }

    /** Puts the string at {@code p} into {@link #chars}: its length, or -1. Sets {@link #pos}. */
    private int temporalChars(byte[] b, int p, int end) {
        if (!string(b, p, end)) {
            return -1;
        }
        if (!strPlain) {
            String v = decode(b, strStart, strEnd);
            if (v == null) {
                return -1;
            }
            chars = v.toCharArray();
            return chars.length;
        }
        int len = strEnd - strStart;
        if (chars.length < len) {
            chars = new char[Math.max(len, chars.length * 2)];
        }
        for (int i = 0; i < len; i++) {
            chars[i] = (char) b[strStart + i];
        }
        return len;
    }
}
