package io.sluice.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;

import io.sluice.api.types.StructType;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

class RowTest {

    private static final StructType PAYMENT = StructType.fromDDL("seq long, Account string, amount decimal(10,2)");

    @Nested
    class TypedGetters {
        private final Row row = Row.of(true, (byte) 7, (short) 300, 42, 9_000_000_000L, 1.5f, 2.25d, "text",
                new BigDecimal("12.34"), new byte[] {1, 2}, LocalDate.of(2024, 2, 29), Instant.ofEpochSecond(1_700_000_000L),
                List.of(1, 2), Map.of("k", 1L), Row.of("inner", 1));

        @Test
        void eachGetterReturnsItsValue() {
            assertThat(row.size()).isEqualTo(15);
            assertThat(row.getBoolean(0)).isTrue();
            assertThat(row.getByte(1)).isEqualTo((byte) 7);
            assertThat(row.getShort(2)).isEqualTo((short) 300);
            assertThat(row.getInt(3)).isEqualTo(42);
            assertThat(row.getLong(4)).isEqualTo(9_000_000_000L);
            assertThat(row.getFloat(5)).isEqualTo(1.5f);
            assertThat(row.getDouble(6)).isEqualTo(2.25d);
            assertThat(row.getString(7)).isEqualTo("text");
            assertThat(row.getDecimal(8)).isEqualByComparingTo("12.34");
            assertThat(row.getBinary(9)).containsExactly(1, 2);
            assertThat(row.getDate(10)).isEqualTo(LocalDate.of(2024, 2, 29));
            assertThat(row.getTimestamp(11)).isEqualTo(Instant.ofEpochSecond(1_700_000_000L));
            assertThat(row.<Integer>getList(12)).containsExactly(1, 2);
            assertThat(row.<String, Long>getMap(13)).containsEntry("k", 1L);
            assertThat(row.getStruct(14)).isEqualTo(Row.of("inner", 1));
            assertThat(row.getStruct(14).getString(0)).isEqualTo("inner");
        }

        @Test
        void getAndGetAsByIndex() {
            assertThat(row.get(3)).isEqualTo(42);
            Integer i = row.getAs(3);
            assertThat(i).isEqualTo(42);
            String s = row.getAs(7);
            assertThat(s).isEqualTo("text");
        }

        @Test
        void numericGettersConvertBetweenNumberTypes() {
            Row r = Row.of(42, 7L, (short) 3);
            assertThat(r.getLong(0)).isEqualTo(42L);
            assertThat(r.getDouble(0)).isEqualTo(42.0);
            assertThat(r.getInt(1)).isEqualTo(7);
            assertThat(r.getLong(2)).isEqualTo(3L);
        }

        @Test
        void wrongTypeIsAClassCastException() {
            assertThatExceptionOfType(ClassCastException.class).isThrownBy(() -> row.getString(3));
            assertThatExceptionOfType(ClassCastException.class).isThrownBy(() -> row.getLong(7));
            assertThatExceptionOfType(ClassCastException.class).isThrownBy(() -> row.getBoolean(3));
        }

        @Test
        void indexOutOfRange() {
            assertThatExceptionOfType(IndexOutOfBoundsException.class).isThrownBy(() -> row.get(15));
            assertThatExceptionOfType(IndexOutOfBoundsException.class).isThrownBy(() -> row.getInt(-1));
        }
    }

    @Nested
    class Nulls {
        private final Row withSchema = Row.withSchema(PAYMENT, 1L, "acc", null);
        private final Row noSchema = Row.of(1L, null);

        @Test
        void isNullAtAndGet() {
            assertThat(withSchema.isNullAt(2)).isTrue();
            assertThat(withSchema.isNullAt(0)).isFalse();
            assertThat(withSchema.get(2)).isNull();
            Object v = withSchema.getAs(2);
            assertThat(v).isNull();
            BigDecimal byName = withSchema.getAs("amount");
            assertThat(byName).isNull();
        }

        @Test
        void objectGettersReturnNull() {
            Row r = Row.of(null, null, null, null, null, null, null, null, null);
            assertThat(r.getString(0)).isNull();
            assertThat(r.getDecimal(1)).isNull();
            assertThat(r.getBinary(2)).isNull();
            assertThat(r.getDate(3)).isNull();
            assertThat(r.getTimestamp(4)).isNull();
            assertThat(r.getList(5)).isNull();
            assertThat(r.getMap(6)).isNull();
            assertThat(r.getStruct(7)).isNull();
            assertThat(r.<Object>getAs(8)).isNull();
        }

        @Test
        void primitiveGetterOnNullNamesTheColumn() {
            assertThatNullPointerException().isThrownBy(() -> withSchema.getLong(2))
                    .withMessage("Value of column 'amount' (index 2) is null; check isNullAt(2) first");
            assertThatNullPointerException().isThrownBy(() -> withSchema.getLong("AMOUNT"))
                    .withMessage("Value of column 'amount' (index 2) is null; check isNullAt(2) first");
        }

        @Test
        void primitiveGetterOnNullWithoutSchemaNamesTheIndex() {
            assertThatNullPointerException().isThrownBy(() -> noSchema.getInt(1))
                    .withMessage("Value of column at index 1 is null; check isNullAt(1) first");
        }

        @Test
        void everyPrimitiveGetterChecksForNull() {
            Row r = Row.of((Object) null);
            assertThatNullPointerException().isThrownBy(() -> r.getBoolean(0));
            assertThatNullPointerException().isThrownBy(() -> r.getByte(0));
            assertThatNullPointerException().isThrownBy(() -> r.getShort(0));
            assertThatNullPointerException().isThrownBy(() -> r.getInt(0));
            assertThatNullPointerException().isThrownBy(() -> r.getLong(0));
            assertThatNullPointerException().isThrownBy(() -> r.getFloat(0));
            assertThatNullPointerException().isThrownBy(() -> r.getDouble(0));
        }
    }

    @Nested
    class ByName {
        private final Row row = Row.withSchema(PAYMENT, 7L, "acc-1", new BigDecimal("9.99"));

        @Test
        void getAsByNameIsCaseInsensitive() {
            Long seq = row.getAs("seq");
            String account = row.getAs("account");
            BigDecimal amount = row.getAs("AMOUNT");
            assertThat(seq).isEqualTo(7L);
            assertThat(account).isEqualTo("acc-1");
            assertThat(amount).isEqualByComparingTo("9.99");
            assertThat(row.getLong("SEQ")).isEqualTo(7L);
            assertThat(row.getString("Account")).isEqualTo("acc-1");
            assertThat(row.fieldIndex("ACCOUNT")).isEqualTo(1);
        }

        @Test
        void exactCaseWinsWhenNamesDifferOnlyInCase() {
            Row r = Row.withSchema(StructType.fromDDL("id int, ID string"), 1, "one");
            assertThat(r.<Integer>getAs("id")).isEqualTo(1);
            assertThat(r.<String>getAs("ID")).isEqualTo("one");
        }

        @Test
        void unknownNameListsTheColumns() {
            assertThatIllegalArgumentException().isThrownBy(() -> row.getAs("amt"))
                    .withMessage("No column named 'amt'; available columns: seq, Account, amount");
        }

        @Test
        void readingByNameNeedsASchema() {
            Row r = Row.of(1L);
            assertThat(r.schema()).isNull();
            assertThatExceptionOfType(UnsupportedOperationException.class).isThrownBy(() -> r.getAs("seq"))
                    .withMessage("This row has no schema: read it by index, or build it with Row.withSchema");
            assertThatExceptionOfType(UnsupportedOperationException.class).isThrownBy(() -> r.getLong("seq"));
            assertThatExceptionOfType(UnsupportedOperationException.class).isThrownBy(() -> r.getString("seq"));
        }

        @Test
        void carriesItsSchema() {
            assertThat(row.schema()).isSameAs(PAYMENT);
        }
    }

    @Nested
    class Construction {
        @Test
        void withSchemaChecksTheNumberOfValues() {
            assertThatIllegalArgumentException().isThrownBy(() -> Row.withSchema(PAYMENT, 1L, "acc"))
                    .withMessage("Schema struct<seq:bigint,Account:string,amount:decimal(10,2)> has 3 columns but 2"
                            + " values were given");
            assertThatIllegalArgumentException().isThrownBy(() -> Row.withSchema(StructType.empty(), 1))
                    .withMessage("Schema struct<> has 0 columns but 1 values were given");
        }

        @Test
        void attachChecksTheNumberOfValues() {
            Row r = Row.of(1L, "acc");
            assertThatIllegalArgumentException().isThrownBy(() -> r.attach(PAYMENT))
                    .withMessage("Schema struct<seq:bigint,Account:string,amount:decimal(10,2)> has 3 columns but"
                            + " the row has 2 values");
        }

        @Test
        void attachKeepsTheValuesAndAddsTheSchema() {
            Row r = Row.of(1L, "acc", BigDecimal.ONE);
            Row attached = r.attach(PAYMENT);
            assertThat(attached.schema()).isEqualTo(PAYMENT);
            assertThat(attached.getString("account")).isEqualTo("acc");
            assertThat(attached).isEqualTo(r);
            assertThat(r.schema()).isNull();
        }

        @Test
        void ofAndWithSchemaCopyTheArray() {
            Object[] values = {1L, "a", BigDecimal.ONE};
            Row of = Row.of(values);
            Row withSchema = Row.withSchema(PAYMENT, values);
            values[1] = "changed";
            assertThat(of.getString(1)).isEqualTo("a");
            assertThat(withSchema.getString(1)).isEqualTo("a");
        }

        @Test
        void wrapDoesNotCopy() {
            Object[] values = {1L, "a"};
            Row wrapped = Row.wrap(values);
            values[1] = "changed";
            assertThat(wrapped.getString(1)).isEqualTo("changed");
        }

        @Test
        void toArrayIsACopy() {
            Row r = Row.of(1, 2);
            Object[] copy = r.toArray();
            copy[0] = 99;
            assertThat(copy).containsExactly(99, 2);
            assertThat(r.getInt(0)).isEqualTo(1);
        }

        @Test
        void emptyRow() {
            assertThat(Row.of().size()).isZero();
            assertThat(Row.of()).isEqualTo(Row.wrap(new Object[0])).hasToString("[]");
        }
    }

    @Nested
    class Equality {
        @Test
        void comparesValues() {
            assertThat(Row.of(1, "a", null)).isEqualTo(Row.of(1, "a", null)).hasSameHashCodeAs(Row.of(1, "a", null));
            assertThat(Row.of(1, "a")).isNotEqualTo(Row.of(1, "b")).isNotEqualTo(Row.of(1, "a", null));
            assertThat(Row.of(1)).isNotEqualTo(Row.of(1L)).isNotEqualTo(null).isNotEqualTo(List.of(1));
        }

        @Test
        void comparesByteArraysByContent() {
            Row a = Row.of(1, new byte[] {1, 2, 3});
            Row b = Row.of(1, new byte[] {1, 2, 3});
            assertThat(a).isEqualTo(b).hasSameHashCodeAs(b);
            assertThat(a).isNotEqualTo(Row.of(1, new byte[] {1, 2, 4}));
        }

        @Test
        void comparesNestedRowsAndCollections() {
            Row a = Row.of(Row.of(1, new byte[] {9}), List.of("x"), Map.of("k", 1));
            Row b = Row.of(Row.of(1, new byte[] {9}), List.of("x"), Map.of("k", 1));
            assertThat(a).isEqualTo(b).hasSameHashCodeAs(b);
        }

        @Test
        void ignoresTheSchema() {
            Row plain = Row.of(1L, "acc", BigDecimal.TEN);
            Row typed = Row.withSchema(PAYMENT, 1L, "acc", BigDecimal.TEN);
            assertThat(typed).isEqualTo(plain).hasSameHashCodeAs(plain);
        }
    }

    @Nested
    class ToString {
        @Test
        void sparkForm() {
            assertThat(Row.of(1, "a", null)).hasToString("[1,a,null]");
            assertThat(Row.withSchema(PAYMENT, 1L, "a", null)).hasToString("[1,a,null]");
        }

        @Test
        void nestedValues() {
            assertThat(Row.of(Row.of(1, 2), List.of(3, 4), new BigDecimal("1.50"), LocalDate.of(2024, 1, 2)))
                    .hasToString("[[1,2],[3, 4],1.50,2024-01-02]");
        }

        @Test
        void byteArraysShowTheirContent() {
            assertThat(Row.of(new byte[] {1, -2}, "x")).hasToString("[[1, -2],x]");
        }
    }

    @Test
    void rowOfASingleNullHoldsOneNull() {
        assertThat(Row.of((Object) null).size()).isEqualTo(1);
        assertThat(Row.of((Object) null)).hasToString("[null]");
    }
}
