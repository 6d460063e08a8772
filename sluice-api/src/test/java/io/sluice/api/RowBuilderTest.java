package io.sluice.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.api.types.StructType;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.Test;

class RowBuilderTest {

    private static final StructType ALL = StructType.fromDDL("s string, l bigint, i int, sh smallint, b tinyint, "
            + "ok boolean, ts timestamp, d date, amount decimal(10,2), x double");

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }

    @Test
    void aBuiltRowIsTheRowOfTheSameValues() {
        RowBuilder b = new RowBuilder(ALL);
        b.setLatin1(0, ascii("--e-1-0--"), 2, 5);
        b.setLong(1, 9_000_000_000L);
        b.setLong(2, -42);
        b.setLong(3, 300);
        b.setLong(4, 7);
        b.setBoolean(5, true);
        b.setTimestampMicros(6, 1_700_000_000_123_456L);
        b.setDateEpochDay(7, 19_782);
        b.set(8, new BigDecimal("12.34"));
        b.set(9, 2.25d);
        Row row = b.build();

        Row same = Row.of("e-1-0", 9_000_000_000L, -42, (short) 300, (byte) 7, true,
                Instant.ofEpochSecond(1_700_000_000L, 123_456_000L), LocalDate.of(2024, 2, 29), new BigDecimal("12.34"), 2.25d);
        assertThat(row).isEqualTo(same);
        assertThat(same).isEqualTo(row);
        assertThat(row.hashCode()).isEqualTo(same.hashCode());
        assertThat(row.toString()).isEqualTo("[e-1-0,9000000000,-42,300,7,true,2023-11-14T22:13:20.123456Z,2024-02-29,12.34,2.25]");
        assertThat(row.toArray()).containsExactly(same.toArray());
        assertThat(row.size()).isEqualTo(10);
        assertThat(row.schema()).isNull();

        assertThat(row.get(0)).isInstanceOf(String.class);
        assertThat(row.get(1)).isInstanceOf(Long.class);
        assertThat(row.get(2)).isInstanceOf(Integer.class);
        assertThat(row.get(3)).isInstanceOf(Short.class);
        assertThat(row.get(4)).isInstanceOf(Byte.class);
        assertThat(row.get(5)).isInstanceOf(Boolean.class);
        assertThat(row.getString(0)).isEqualTo("e-1-0");
        assertThat(row.getLong(1)).isEqualTo(9_000_000_000L);
        assertThat(row.getInt(2)).isEqualTo(-42);
        assertThat(row.getLong(2)).isEqualTo(-42L);
        assertThat(row.getShort(3)).isEqualTo((short) 300);
        assertThat(row.getByte(4)).isEqualTo((byte) 7);
        assertThat(row.getBoolean(5)).isTrue();
        assertThat(row.getTimestamp(6)).isEqualTo(Instant.parse("2023-11-14T22:13:20.123456Z"));
        assertThat(row.getDate(7)).isEqualTo(LocalDate.of(2024, 2, 29));
        assertThat(row.getDecimal(8)).isEqualByComparingTo("12.34");
        assertThat(row.getDouble(9)).isEqualTo(2.25d);
        assertThat(row.<String>getAs(0)).isEqualTo("e-1-0");
    }

    @Test
    void valuesNotSetAreNullAndTheTypedGettersSayWhich() {
        RowBuilder b = new RowBuilder(StructType.fromDDL("s string, l bigint"));
        b.setLong(1, 5);
        b.setLong(1, 6); // the last one counts
        Row row = b.build().attach(StructType.fromDDL("s string, l bigint"));

        assertThat(row.isNullAt(0)).isTrue();
        assertThat(row.get(0)).isNull();
        assertThat(row.getString(0)).isNull();
        assertThat(row.isNullAt(1)).isFalse();
        assertThat(row.getLong("l")).isEqualTo(6L);
        assertThat(row).isEqualTo(Row.of(null, 6L));
        assertThatNullPointerException().isThrownBy(() -> row.getLong(0))
                .withMessage("Value of column 's' (index 0) is null; check isNullAt(0) first");

        b.setLong(1, 1);
        b.setNull(1);
        assertThat(b.build()).isEqualTo(Row.of(null, null));
    }

    @Test
    void aTimestampBeforeTheEpochAndTheFarDatesComeBackExactly() {
        RowBuilder b = new RowBuilder(StructType.fromDDL("ts timestamp, d date"));
        b.setTimestampMicros(0, -1L);
        b.setDateEpochDay(1, LocalDate.MIN.toEpochDay());
        Row row = b.build();
        assertThat(row.getTimestamp(0)).isEqualTo(Instant.parse("1969-12-31T23:59:59.999999Z"));
        assertThat(row.getDate(1)).isEqualTo(LocalDate.MIN);
    }

    @Test
    void charactersArePackedWhenLatin1AndKeptAsAStringOtherwise() {
        RowBuilder b = new RowBuilder(StructType.fromDDL("a string, b string"));
        char[] text = "[café|żółw]".toCharArray();
        b.setString(0, text, 1, 4);
        b.setString(1, text, 6, 4);
        assertThat(b.build()).isEqualTo(Row.of("café", "żółw"));
        b.setLatin1(0, new byte[] {(byte) 0xE9}, 0, 1);
        b.set(1, "set as is");
        assertThat(b.build()).isEqualTo(Row.of("é", "set as is"));
    }

    @Test
    void earlierRowsKeepTheirValuesWhileLaterOnesFillNewBlocks() {
        StructType schema = StructType.fromDDL("id string, n bigint, note string");
        RowBuilder b = new RowBuilder(schema);
        List<Row> built = new ArrayList<>();
        List<Row> expected = new ArrayList<>();
        // Strings from empty to 100 KB (over the inline limit), so rows move to larger blocks mid-row, blocks fill
        // by rows and by bytes, and some values are kept as Strings.
        for (int i = 0; i < 3_000; i++) {
            String id = "id-" + i;
            String note = "x".repeat(i % 7 == 0 ? i * 37 % 100_001 : i % 50);
            b.setLatin1(0, ascii(id), 0, id.length());
            b.setLong(1, i);
            if (i % 11 == 0) {
                b.setNull(2);
            } else {
                b.setLatin1(2, ascii(note), 0, note.length());
            }
            built.add(b.build());
            expected.add(Row.of(id, (long) i, i % 11 == 0 ? null : note));
        }
        assertThat(built).containsExactlyElementsOf(expected);
    }

    /**
     * A reader makes a builder per file, and a row keeps its block alive: a one-line file must not cost a block of
     * 256 rows. Blocks start at 8 rows (256 bytes for strings) and double up to 256.
     */
    @Test
    void theFirstBlocksAreSmallAndDoubleUpTo256Rows() {
        RowBuilder b = new RowBuilder(StructType.fromDDL("id string, n bigint"));
        List<Integer> sizes = new ArrayList<>();
        List<Row> built = new ArrayList<>();
        for (int i = 0; i < 1_000; i++) {
            if (sizes.isEmpty() || sizes.get(sizes.size() - 1) != b.blockRows()) {
                sizes.add(b.blockRows());
            }
            b.setLatin1(0, ascii("abcd"), 0, 4);
            b.setLong(1, i);
            built.add(b.build());
        }
        assertThat(sizes).containsExactly(8, 16, 32, 64, 128, 256);
        assertThat(new RowBuilder(StructType.fromDDL("id string")).blockBytes()).isEqualTo(256);
        // 4 bytes a row: the 256-row blocks' bytes follow what the 128-row block used (512 + 1/8, doubled).
        assertThat(b.blockBytes()).isEqualTo(1152);
        assertThat(built.get(999)).isEqualTo(Row.of("abcd", 999L));
        assertThat(built.get(0)).isEqualTo(Row.of("abcd", 0L));
    }

    @Test
    void clearAbandonsTheRowAndItsCharacters() {
        RowBuilder b = new RowBuilder(StructType.fromDDL("a string, n bigint, o double"));
        b.setLatin1(0, ascii("abandoned"), 0, 9);
        b.setLong(1, 1);
        b.set(2, 1.5d);
        b.clear();
        assertThat(b.build()).isEqualTo(Row.of(null, null, null));
        b.setLatin1(0, ascii("kept"), 0, 4);
        b.clear();
        b.setLatin1(0, ascii("next"), 0, 4);
        assertThat(b.build()).isEqualTo(Row.of("next", null, null));
    }

    @Test
    void rowsReadTheSameOnAnotherThread() throws Exception {
        RowBuilder b = new RowBuilder(StructType.fromDDL("a string, n bigint"));
        List<Row> rows = new ArrayList<>();
        for (int i = 0; i < 1_000; i++) {
            b.setLatin1(0, ascii("r" + i), 0, ("r" + i).length());
            b.setLong(1, i);
            rows.add(b.build());
        }
        List<Object> seen = CompletableFuture.supplyAsync(() -> rows.stream().map(r -> r.get(0) + "/" + r.getLong(1))
                .toList()).get().stream().map(Object.class::cast).toList();
        assertThat(seen).hasSize(1_000).startsWith("r0/0", "r1/1").endsWith("r999/999");
    }

    @Test
    void theTypedSettersRefuseOtherColumnsAndValuesOutOfRange() {
        RowBuilder b = new RowBuilder(StructType.fromDDL("s string, i int, ts timestamp, d date, b boolean"));
        assertThatIllegalArgumentException().isThrownBy(() -> b.setLong(0, 1))
                .withMessage("setLong takes a bigint, int, smallint or tinyint column; column 0 ('s') is string");
        assertThatIllegalArgumentException().isThrownBy(() -> b.setLatin1(1, new byte[1], 0, 1))
                .withMessage("setLatin1 takes a string column; column 1 ('i') is int");
        assertThatIllegalArgumentException().isThrownBy(() -> b.setString(2, new char[1], 0, 1))
                .withMessage("setString takes a string column; column 2 ('ts') is timestamp");
        assertThatIllegalArgumentException().isThrownBy(() -> b.setTimestampMicros(3, 0))
                .withMessage("setTimestampMicros takes a timestamp column; column 3 ('d') is date");
        assertThatIllegalArgumentException().isThrownBy(() -> b.setDateEpochDay(4, 0))
                .withMessage("setDateEpochDay takes a date column; column 4 ('b') is boolean");
        assertThatIllegalArgumentException().isThrownBy(() -> b.setBoolean(0, true))
                .withMessage("setBoolean takes a boolean column; column 0 ('s') is string");
        assertThatIllegalArgumentException().isThrownBy(() -> b.setLong(1, 1L << 31))
                .withMessage("Value 2147483648 is out of range for column 1 (int)");
        assertThatIllegalArgumentException().isThrownBy(() -> b.setDateEpochDay(3, Long.MAX_VALUE))
                .withMessage("Day 9223372036854775807 is out of range for column 3 (date)");
        assertThatThrownBy(() -> b.setNull(5)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> b.setLatin1(0, new byte[2], 1, 2)).isInstanceOf(IndexOutOfBoundsException.class);
        // None of the refused calls left a value behind.
        assertThat(b.build()).isEqualTo(Row.of(null, null, null, null, null));
    }

    @Test
    void setLongTakesEachIntegerTypesWholeRangeAndNothingBeyond() {
        RowBuilder b = new RowBuilder(StructType.fromDDL("l bigint, i int, s smallint, t tinyint"));
        b.setLong(0, Long.MIN_VALUE);
        b.setLong(1, Integer.MIN_VALUE);
        b.setLong(2, Short.MAX_VALUE);
        b.setLong(3, Byte.MIN_VALUE);
        assertThat(b.build()).isEqualTo(Row.of(Long.MIN_VALUE, Integer.MIN_VALUE, Short.MAX_VALUE, Byte.MIN_VALUE));
        assertThatIllegalArgumentException().isThrownBy(() -> b.setLong(1, Integer.MIN_VALUE - 1L))
                .withMessage("Value -2147483649 is out of range for column 1 (int)");
        assertThatIllegalArgumentException().isThrownBy(() -> b.setLong(2, Short.MAX_VALUE + 1))
                .withMessage("Value 32768 is out of range for column 2 (smallint)");
        assertThatIllegalArgumentException().isThrownBy(() -> b.setLong(3, Byte.MIN_VALUE - 1))
                .withMessage("Value -129 is out of range for column 3 (tinyint)");
    }

    @Test
    void aRowReadOutOfItsColumnsThrowsAsAnArrayRowDoes() {
        RowBuilder b = new RowBuilder(StructType.fromDDL("s string"));
        Row row = b.build();
        assertThatThrownBy(() -> row.get(1)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> Row.of("x").get(1)).isInstanceOf(IndexOutOfBoundsException.class);
    }

    @Test
    void copyGivesARowOfItsOwnValuesAndKeepsTheSchema() {
        StructType schema = StructType.fromDDL("s string, n bigint");
        RowBuilder b = new RowBuilder(schema);
        b.setLatin1(0, ascii("a"), 0, 1);
        b.setLong(1, 1);
        Row built = b.build().attach(schema);
        Row copy = built.copy();
        assertThat(copy).isNotSameAs(built).isEqualTo(built);
        assertThat(copy.schema()).isSameAs(schema);
        assertThat(copy.getString("s")).isEqualTo("a");
        assertThat(copy.get(0)).isSameAs(copy.get(0)); // held, not made on each call
        Row plain = Row.of("a", 1L);
        assertThat(plain.copy()).isSameAs(plain);
    }

    @Test
    void aSchemaWithoutColumnsBuildsEmptyRows() {
        RowBuilder b = new RowBuilder(StructType.empty());
        for (int i = 0; i < 600; i++) {
            assertThat(b.build()).isEqualTo(Row.of());
        }
        assertThat(b.width()).isZero();
    }
}
