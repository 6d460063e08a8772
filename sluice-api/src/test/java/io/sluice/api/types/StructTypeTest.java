package io.sluice.api.types;

import static io.sluice.api.types.DataType.intType;
import static io.sluice.api.types.DataType.longType;
import static io.sluice.api.types.DataType.stringType;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.junit.jupiter.api.Test;

class StructTypeTest {

    private final StructType schema = StructType.of(
            StructField.of("seq", longType()), StructField.of("Account", stringType()),
            new StructField("amount", new DecimalType(10, 2), false));

    @Test
    void fieldsInOrder() {
        assertThat(schema.size()).isEqualTo(3);
        assertThat(schema.fieldNames()).containsExactly("seq", "Account", "amount");
        assertThat(schema.field(1)).isEqualTo(StructField.of("Account", stringType()));
        assertThat(schema.fields()).extracting(StructField::dataType)
                .containsExactly(longType(), stringType(), new DecimalType(10, 2));
    }

    @Test
    void indexOfIsCaseInsensitive() {
        assertThat(schema.indexOf("seq")).isZero();
        assertThat(schema.indexOf("SEQ")).isZero();
        assertThat(schema.indexOf("account")).isEqualTo(1);
        assertThat(schema.indexOf("ACCOUNT")).isEqualTo(1);
        assertThat(schema.indexOf("Amount")).isEqualTo(2);
        assertThat(schema.indexOf("nope")).isEqualTo(-1);
        assertThat(schema.indexOf("")).isEqualTo(-1);
    }

    @Test
    void exactMatchWinsOverCaseInsensitiveMatch() {
        StructType s = StructType.of(StructField.of("id", intType()), StructField.of("ID", longType()),
                StructField.of("Id", stringType()));
        assertThat(s.indexOf("id")).isZero();
        assertThat(s.indexOf("ID")).isEqualTo(1);
        assertThat(s.indexOf("Id")).isEqualTo(2);
        // No exact match: the first field that matches ignoring case.
        assertThat(s.indexOf("iD")).isZero();
    }

    @Test
    void duplicateNamesResolveToTheFirst() {
        StructType s = StructType.of(StructField.of("a", intType()), StructField.of("a", stringType()));
        assertThat(s.indexOf("a")).isZero();
        assertThat(s.indexOf("A")).isZero();
        assertThat(s.size()).isEqualTo(2);
    }

    @Test
    void lookupIgnoresCaseWithoutTheDefaultLocale() {
        // "I".toLowerCase() is a dotless i in a Turkish locale; the lookup must not depend on it.
        Locale saved = Locale.getDefault();
        try {
            Locale.setDefault(Locale.forLanguageTag("tr-TR"));
            StructType s = StructType.of(StructField.of("ID", intType()));
            assertThat(s.indexOf("id")).isZero();
            assertThat(s.indexOf("Id")).isZero();
        } finally {
            Locale.setDefault(saved);
        }
    }

    @Test
    void fieldIndexNamesTheMissingColumnAndTheAvailableOnes() {
        assertThat(schema.fieldIndex("ACCOUNT")).isEqualTo(1);
        assertThatIllegalArgumentException().isThrownBy(() -> schema.fieldIndex("amt"))
                .withMessage("No column named 'amt'; available columns: seq, Account, amount");
    }

    @Test
    void findReturnsTheField() {
        assertThat(schema.find("AMOUNT")).contains(new StructField("amount", new DecimalType(10, 2), false));
        assertThat(schema.find("nope")).isEmpty();
    }

    @Test
    void addReturnsACopyWithOneMoreColumn() {
        StructType more = schema.add("note", stringType()).add(new StructField("n", intType(), false));
        assertThat(more.fieldNames()).containsExactly("seq", "Account", "amount", "note", "n");
        assertThat(more.indexOf("NOTE")).isEqualTo(3);
        assertThat(more.field(4).nullable()).isFalse();
        assertThat(schema.size()).isEqualTo(3);
        assertThat(schema.indexOf("note")).isEqualTo(-1);
    }

    @Test
    void isImmutable() {
        List<StructField> source = new ArrayList<>(List.of(StructField.of("a", intType())));
        StructType s = new StructType(source);
        source.add(StructField.of("b", intType()));
        assertThat(s.size()).isEqualTo(1);
        assertThatThrownBy(() -> s.fields().add(StructField.of("c", intType())))
                .isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> s.fieldNames().add("c")).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void rejectsNullFields() {
        assertThatNullPointerException().isThrownBy(() -> StructType.of(StructField.of("a", intType()), null));
    }

    @Test
    void simpleStringAsInSpark() {
        assertThat(StructType.of(StructField.of("a", longType()), StructField.of("b", stringType())).simpleString())
                .isEqualTo("struct<a:bigint,b:string>");
        assertThat(StructType.empty().simpleString()).isEqualTo("struct<>");
        assertThat(StructType.of(StructField.of("p", StructType.of(StructField.of("x", ArrayType.of(intType())))))
                .simpleString()).isEqualTo("struct<p:struct<x:array<int>>>");
        assertThat(schema).hasToString("struct<seq:bigint,Account:string,amount:decimal(10,2)>");
    }

    @Test
    void sqlQuotesNamesThatNeedItAndWritesNotNull() {
        StructType s = StructType.of(StructField.of("a", intType()), new StructField("my col", stringType(), false),
                StructField.of("x`y", ArrayType.of(longType())));
        assertThat(s.sql()).isEqualTo("STRUCT<a: INT, `my col`: STRING NOT NULL, `x``y`: ARRAY<BIGINT>>");
        assertThat(StructType.empty().sql()).isEqualTo("STRUCT<>");
    }

    @Test
    void toDdlIsAColumnList() {
        assertThat(schema.toDDL()).isEqualTo("seq BIGINT, Account STRING, amount DECIMAL(10,2) NOT NULL");
        assertThat(StructType.empty().toDDL()).isEmpty();
    }

    @Test
    void fromDdl() {
        assertThat(StructType.fromDDL("seq long, Account string, amount decimal(10,2) NOT NULL")).isEqualTo(schema);
    }

    @Test
    void equalityComparesNamesTypesNullabilityAndOrder() {
        StructType same = StructType.fromDDL(schema.toDDL());
        assertThat(same).isEqualTo(schema).hasSameHashCodeAs(schema);
        assertThat(StructType.of(StructField.of("a", intType())))
                .isNotEqualTo(StructType.of(new StructField("a", intType(), false)))
                .isNotEqualTo(StructType.of(StructField.of("A", intType())))
                .isNotEqualTo(StructType.of(StructField.of("a", longType())));
        assertThat(StructType.of(StructField.of("a", intType()), StructField.of("b", intType())))
                .isNotEqualTo(StructType.of(StructField.of("b", intType()), StructField.of("a", intType())));
        assertThat(StructType.empty()).isEqualTo(new StructType(List.of())).isNotEqualTo(null).isNotEqualTo("struct<>");
    }
}
