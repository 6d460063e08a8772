package io.sluice.api;

import io.sluice.api.types.StructType;

import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.util.Objects;

/**
 * Builds rows of one schema value by value into storage that many rows share, for sources on a hot path. A
 * {@link Row#wrap} row of four values costs an array, a Row, and a String, box or Instant per value (about 200 bytes
 * for two short strings, a long and a timestamp); a row built here costs its Row and a 64-bit word per value, plus
 * the characters of its Latin-1 strings (about 80 bytes for the same row). That is memory the JVM must allocate,
 * and on a fresh JVM first touch, for every row a source reads.
 *
 * <p>A built row is an ordinary {@link Row}, without a schema (as {@link Row#wrap} makes them): immutable, safe to
 * hand to any thread, equal to (and with the hash code of) the {@link Row#of} row of the same values, and its
 * getters return the Java types listed on {@link io.sluice.api.types.DataType}. One difference: {@link Row#get}
 * makes the String, box or Instant of a value stored as a word on each call (equal objects, not the same one).
 *
 * <p>Use: set any of the current row's values (a value not set is null; setting one twice keeps the last), then
 * {@link #build()}; or {@link #clear()} to abandon the row. The typed setters check the column's type and throw
 * {@link IllegalArgumentException} naming the column when it does not take the value. Not thread-safe: one
 * builder per thread (a reader per file or per partition).
 */
public final class RowBuilder {
    /** Rows per block: small enough that a short read does not allocate much it does not use. */
    private static final int ROWS = 256;
    /**
     * Rows of a builder's first block; each next block doubles up to {@link #ROWS}. A reader makes a builder per
     * file, and a row keeps its whole block alive: 200,000 one-line files with a first block of 256 rows allocated
     * 2.8 GB (13 KB a file for 4 columns) where 8 rows need 600 bytes.
     */
    private static final int FIRST_ROWS = 8;
    private static final int MIN_BYTES = 256;
    /** Longer strings are kept as Strings, so one long value does not make every later block large. */
    private static final int MAX_INLINE = 1 << 16;
    private static final long MIN_DAY = LocalDate.MIN.toEpochDay();
    private static final long MAX_DAY = LocalDate.MAX.toEpochDay();

    private final StructType schema;
    private final byte[] kinds;
    private final int width;
    private RowBlock block;
    /** The current row's index in the block. */
    private int row;
    /** The next free byte of the block's bytes, and where the current row's bytes start. */
    private int bytePos;
    private int rowBytes;

    /** A builder of rows of {@code schema}'s columns; the rows do not carry the schema. */
    public RowBuilder(StructType schema) {
        this.schema = Objects.requireNonNull(schema, "schema");
        this.kinds = RowBlock.kinds(schema);
        this.width = kinds.length;
        this.block = new RowBlock(kinds, FIRST_ROWS, MIN_BYTES);
    }

    /** The number of columns. */
    public int width() {
        return width;
    }

    /** Sets the value of column {@code col} to null. */
    public void setNull(int col) {
        int c = cell(col);
        block.flags[c] = RowBlock.NULL;
        if (block.objects != null) {
            block.objects[c] = null;
        }
    }

    /**
     * Sets any value, as {@link Row#wrap} would hold it (the Java type of the column's type, or null); the value
     * is not checked or copied, so it must not change afterwards.
     */
    public void set(int col, Object value) {
        if (value == null) {
            setNull(col);
            return;
        }
        int c = cell(col);
        if (block.objects == null) {
            block.objects = new Object[block.flags.length];
        }
        block.objects[c] = value;
        block.flags[c] = RowBlock.OBJECT;
    }

    /**
     * Sets a string column to the {@code len} bytes at {@code src[off]}, each one character (ISO-8859-1; ASCII is
     * a part of it). The bytes are copied.
     */
    public void setLatin1(int col, byte[] src, int off, int len) {
        check(col, RowBlock.K_STRING, "setLatin1", "a string");
        Objects.checkFromIndexSize(off, len, src.length);
        if (len > MAX_INLINE) {
            set(col, new String(src, off, len, StandardCharsets.ISO_8859_1));
            return;
        }
        room(len);
        System.arraycopy(src, off, block.bytes, bytePos, len);
        putString(col, len);
    }

    /**
     * Sets a string column to the {@code len} characters at {@code src[off]}. The characters are copied (as bytes
     * when every one is Latin-1, as a String otherwise).
     */
    public void setString(int col, char[] src, int off, int len) {
        check(col, RowBlock.K_STRING, "setString", "a string");
        Objects.checkFromIndexSize(off, len, src.length);
        if (len <= MAX_INLINE) {
            room(len);
            byte[] dst = block.bytes;
            int p = bytePos;
            int i = 0;
            for (; i < len; i++) {
                char ch = src[off + i];
                if (ch > 0xFF) {
                    break;
                }
                dst[p + i] = (byte) ch;
            }
            if (i == len) {
                putString(col, len);
                return;
            }
        }
        set(col, new String(src, off, len));
    }

    /**
     * Sets a bigint, int, smallint or tinyint column. Throws {@link IllegalArgumentException} when the value is out
     * of the column type's range.
     */
    public void setLong(int col, long value) {
        boolean inRange = switch (kind(col)) {
            case RowBlock.K_LONG -> true;
            case RowBlock.K_INT -> value == (int) value;
            case RowBlock.K_SHORT -> value == (short) value;
            case RowBlock.K_BYTE -> value == (byte) value;
            default -> throw wrongType(col, "setLong", "a bigint, int, smallint or tinyint");
        };
        if (!inRange) {
            throw new IllegalArgumentException("Value " + value + " is out of range for column " + col + " ("
                    + schema.field(col).dataType().simpleString() + ")");
        }
        putWord(col, value);
    }

    public void setBoolean(int col, boolean value) {
        check(col, RowBlock.K_BOOLEAN, "setBoolean", "a boolean");
        putWord(col, value ? 1 : 0);
    }

    /** Sets a timestamp column to microseconds since 1970-01-01T00:00:00Z (Spark's precision). */
    public void setTimestampMicros(int col, long micros) {
        check(col, RowBlock.K_TIMESTAMP, "setTimestampMicros", "a timestamp");
        putWord(col, micros);
    }

    /** Sets a date column to days since 1970-01-01; throws {@link IllegalArgumentException} outside LocalDate's range. */
    public void setDateEpochDay(int col, long day) {
        check(col, RowBlock.K_DATE, "setDateEpochDay", "a date");
        if (day < MIN_DAY || day > MAX_DAY) {
            throw new IllegalArgumentException("Day " + day + " is out of range for column " + col + " (date)");
        }
        putWord(col, day);
    }

    /** The current row, made of the values set since the last build or clear; the next row starts with nulls. */
    public Row build() {
        Row r = Row.inBlock(block, row);
        row++;
        rowBytes = bytePos;
        if (row == block.rows) {
            // Sized on what this block's strings used (per row, for the next block's rows), so blocks follow the
            // data's string lengths.
            int used = bytePos;
            int rows = Math.min(ROWS, block.rows * 2);
            long bytes = (long) (used + used / 8) * rows / block.rows;
            block = new RowBlock(kinds, rows, (int) Math.max(MIN_BYTES, Math.min(bytes, Integer.MAX_VALUE - 8)));
            row = 0;
            bytePos = 0;
            rowBytes = 0;
        }
        return r;
    }

    /** The rows of the block the current row goes into (for tests: the first blocks are small). */
    int blockRows() {
        return block.rows;
    }

    /** The bytes of the block the current row goes into (for tests). */
    int blockBytes() {
        return block.bytes.length;
    }

    /** Abandons the current row's values. */
    public void clear() {
        int base = row * width;
        for (int c = base; c < base + width; c++) {
            block.flags[c] = RowBlock.NULL;
            if (block.objects != null) {
                block.objects[c] = null;
            }
        }
        bytePos = rowBytes;
    }

    private int cell(int col) {
        Objects.checkIndex(col, width);
        return row * width + col;
    }

    private byte kind(int col) {
        Objects.checkIndex(col, width);
        return kinds[col];
    }

    private void check(int col, byte kind, String setter, String type) {
        if (kind(col) != kind) {
            throw wrongType(col, setter, type);
        }
    }

    private IllegalArgumentException wrongType(int col, String setter, String type) {
        return new IllegalArgumentException(setter + " takes " + type + " column; column " + col + " ('"
                + schema.field(col).name() + "') is " + schema.field(col).dataType().simpleString());
    }

    private void putWord(int col, long w) {
        int c = row * width + col;
        block.words[c] = w;
        block.flags[c] = RowBlock.WORD;
    }

    /** Records the string just copied to {@code bytes[bytePos, bytePos + len)}. */
    private void putString(int col, int len) {
        putWord(col, (long) bytePos << 32 | len);
        bytePos += len;
    }

    /**
     * Makes room for {@code len} more bytes: when the block's bytes are full, the current row moves to a new block
     * with room (its Row does not exist yet, so no row sees the move).
     */
    private void room(int len) {
        if (bytePos + len <= block.bytes.length) {
            return;
        }
        RowBlock old = block;
        int rowLen = bytePos - rowBytes;
        RowBlock next = new RowBlock(kinds, old.rows, Math.max(old.bytes.length * 2, rowLen + len));
        int from = row * width;
        for (int c = 0; c < width; c++) {
            byte f = old.flags[from + c];
            next.flags[c] = f;
            long w = old.words[from + c];
            if (f == RowBlock.WORD && kinds[c] == RowBlock.K_STRING) {
                // The row's strings are at [rowBytes, bytePos) of the old block, in the new one at 0.
                w -= (long) rowBytes << 32;
            } else if (f == RowBlock.OBJECT) {
                next.objects = next.objects == null ? new Object[next.flags.length] : next.objects;
                next.objects[c] = old.objects[from + c];
                old.objects[from + c] = null;
            }
            next.words[c] = w;
            old.flags[from + c] = RowBlock.NULL;
        }
        System.arraycopy(old.bytes, rowBytes, next.bytes, 0, rowLen);
        block = next;
        row = 0;
        rowBytes = 0;
        bytePos = rowLen;
    }
}
