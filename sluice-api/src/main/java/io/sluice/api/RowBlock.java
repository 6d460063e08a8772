package io.sluice.api;

import io.sluice.api.types.AtomicType;
import io.sluice.api.types.DataType;
import io.sluice.api.types.StructType;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;

/**
 * The storage behind rows made by a {@link RowBuilder}: a fixed number of rows of one schema, each value a 64-bit
 * word (a number, a boolean, epoch microseconds or days, or where a Latin-1 string sits in {@link #bytes}), a flag
 * per value, and a lazily made array for values kept as objects.
 *
 * <p>Why it is safe to share: a row's cells are written before its {@link Row} is constructed and never again;
 * later rows write other cells; no array is ever replaced once a row points at the block (a row that does not fit
 * moves to a new block before its Row exists). A {@link Row}'s final field gives every thread the cells as they
 * were when the row was made, as it does for {@link Row#wrap}'s array.
 */
final class RowBlock {
    static final byte NULL = 0;
    static final byte WORD = 1;
    static final byte OBJECT = 2;

    static final byte K_STRING = 0;
    static final byte K_LONG = 1;
    static final byte K_INT = 2;
    static final byte K_SHORT = 3;
    static final byte K_BYTE = 4;
    static final byte K_BOOLEAN = 5;
    static final byte K_TIMESTAMP = 6;
    static final byte K_DATE = 7;
    /** Any other type: its values are kept as objects. */
    static final byte K_OTHER = 8;

    final byte[] kinds;
    final int width;
    final int rows;
    final long[] words;
    final byte[] flags;
    final byte[] bytes;
    /** Made on the first value kept as an object; assigned once. */
    Object[] objects;

    RowBlock(byte[] kinds, int rows, int byteCapacity) {
        this.kinds = kinds;
        this.width = kinds.length;
        this.rows = rows;
        this.words = new long[rows * width];
        this.flags = new byte[rows * width];
        this.bytes = new byte[byteCapacity];
    }

    static byte[] kinds(StructType schema) {
        byte[] k = new byte[schema.size()];
        for (int i = 0; i < k.length; i++) {
            k[i] = kind(schema.field(i).dataType());
        }
        return k;
    }

    private static byte kind(DataType t) {
        if (t instanceof AtomicType a) {
            return switch (a) {
                case STRING_TYPE -> K_STRING;
                case LONG_TYPE -> K_LONG;
                case INT_TYPE -> K_INT;
                case SHORT_TYPE -> K_SHORT;
                case BYTE_TYPE -> K_BYTE;
                case BOOLEAN_TYPE -> K_BOOLEAN;
                case TIMESTAMP_TYPE -> K_TIMESTAMP;
                case DATE_TYPE -> K_DATE;
                default -> K_OTHER;
            };
        }
        return K_OTHER;
    }

    boolean isNull(int row, int col) {
        return flags[cell(row, col)] == NULL;
    }

    /** The value as {@link Row#wrap} would hold it: a new String, box or Instant for a word. */
    Object get(int row, int col) {
        int c = cell(row, col);
        return switch (flags[c]) {
            case NULL -> null;
            case OBJECT -> objects[c];
            default -> decode(kinds[col], words[c]);
        };
    }

    /** Whether the value is a long, int, short or byte stored as a word ({@link #word} reads it without a box). */
    boolean isIntegralWord(int row, int col) {
        byte k = kinds[col];
        return flags[cell(row, col)] == WORD && k >= K_LONG && k <= K_BYTE;
    }

    long word(int row, int col) {
        return words[row * width + col];
    }

    private int cell(int row, int col) {
        if (col < 0 || col >= width) {
            throw new ArrayIndexOutOfBoundsException("Index " + col + " out of bounds for length " + width);
        }
        return row * width + col;
    }

    private Object decode(byte kind, long w) {
        return switch (kind) {
            case K_STRING -> new String(bytes, (int) (w >>> 32), (int) w, StandardCharsets.ISO_8859_1);
            case K_LONG -> w;
            case K_INT -> (int) w;
            case K_SHORT -> (short) w;
            case K_BYTE -> (byte) w;
            case K_BOOLEAN -> w != 0;
            case K_TIMESTAMP -> Instant.ofEpochSecond(Math.floorDiv(w, 1_000_000L), Math.floorMod(w, 1_000_000L) * 1000L);
            case K_DATE -> LocalDate.ofEpochDay(w);
            default -> throw new IllegalStateException("kind " + kind + " has no word form");
        };
    }
}
