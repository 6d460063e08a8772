package io.sluice.api.types;

import static io.sluice.api.types.DataType.intType;
import static io.sluice.api.types.DataType.longType;
import static io.sluice.api.types.DataType.stringType;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class DataTypeTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource({
            "BOOLEAN_TYPE,   boolean,   BOOLEAN",
            "BYTE_TYPE,      tinyint,   TINYINT",
            "SHORT_TYPE,     smallint,  SMALLINT",
            "INT_TYPE,       int,       INT",
            "LONG_TYPE,      bigint,    BIGINT",
            "FLOAT_TYPE,     float,     FLOAT",
            "DOUBLE_TYPE,    double,    DOUBLE",
            "STRING_TYPE,    string,    STRING",
            "BINARY_TYPE,    binary,    BINARY",
            "DATE_TYPE,      date,      DATE",
            "TIMESTAMP_TYPE, timestamp, TIMESTAMP",
    })
    void atomicTypeNames(AtomicType type, String simple, String sql) {
        assertThat(type.simpleString()).isEqualTo(simple);
        assertThat(type.sql()).isEqualTo(sql);
        assertThat(type).hasToString(simple);
    }

    @Test
    void shorthands() {
        assertThat(DataType.booleanType()).isSameAs(AtomicType.BOOLEAN_TYPE);
        assertThat(DataType.byteType()).isSameAs(AtomicType.BYTE_TYPE);
        assertThat(DataType.shortType()).isSameAs(AtomicType.SHORT_TYPE);
        assertThat(DataType.intType()).isSameAs(AtomicType.INT_TYPE);
        assertThat(DataType.longType()).isSameAs(AtomicType.LONG_TYPE);
        assertThat(DataType.floatType()).isSameAs(AtomicType.FLOAT_TYPE);
        assertThat(DataType.doubleType()).isSameAs(AtomicType.DOUBLE_TYPE);
        assertThat(DataType.stringType()).isSameAs(AtomicType.STRING_TYPE);
        assertThat(DataType.binaryType()).isSameAs(AtomicType.BINARY_TYPE);
        assertThat(DataType.dateType()).isSameAs(AtomicType.DATE_TYPE);
        assertThat(DataType.timestampType()).isSameAs(AtomicType.TIMESTAMP_TYPE);
    }

    @Test
    void decimalNames() {
        DecimalType d = new DecimalType(10, 2);
        assertThat(d.simpleString()).isEqualTo("decimal(10,2)");
        assertThat(d.sql()).isEqualTo("DECIMAL(10,2)");
        assertThat(d).hasToString("decimal(10,2)").isEqualTo(new DecimalType(10, 2)).isNotEqualTo(new DecimalType(10, 3));
    }

    @Test
    void decimalBoundsAreAccepted() {
        assertThat(new DecimalType(1, 0).precision()).isEqualTo(1);
        assertThat(new DecimalType(38, 38).scale()).isEqualTo(38);
        assertThat(new DecimalType(DecimalType.MAX_PRECISION, 0).precision()).isEqualTo(38);
    }

    @Test
    void decimalPrecisionOutOfRange() {
        assertThatIllegalArgumentException().isThrownBy(() -> new DecimalType(0, 0))
                .withMessage("Decimal precision 0 is out of range: it must be between 1 and 38");
        assertThatIllegalArgumentException().isThrownBy(() -> new DecimalType(39, 2))
                .withMessage("Decimal precision 39 is out of range: it must be between 1 and 38");
        assertThatIllegalArgumentException().isThrownBy(() -> new DecimalType(-5, 0))
                .withMessage("Decimal precision -5 is out of range: it must be between 1 and 38");
    }

    @Test
    void decimalScaleOutOfRange() {
        assertThatIllegalArgumentException().isThrownBy(() -> new DecimalType(10, -1))
                .withMessage("Decimal scale -1 is out of range: it must be between 0 and the precision 10");
        assertThatIllegalArgumentException().isThrownBy(() -> new DecimalType(5, 6))
                .withMessage("Decimal scale 6 is out of range: it must be between 0 and the precision 5");
    }

    @Test
    void decimalPrecisionIsCheckedBeforeScale() {
        assertThatIllegalArgumentException().isThrownBy(() -> new DecimalType(40, 50))
                .withMessageStartingWith("Decimal precision 40");
    }

    @Test
    void arrays() {
        ArrayType a = ArrayType.of(intType());
        assertThat(a.containsNull()).isTrue();
        assertThat(a.simpleString()).isEqualTo("array<int>");
        assertThat(a.sql()).isEqualTo("ARRAY<INT>");
        assertThat(a).hasToString("array<int>");
        assertThat(ArrayType.of(ArrayType.of(new DecimalType(3, 1))).sql()).isEqualTo("ARRAY<ARRAY<DECIMAL(3,1)>>");
        assertThat(a).isEqualTo(new ArrayType(intType(), true)).isNotEqualTo(new ArrayType(intType(), false));
        assertThatNullPointerException().isThrownBy(() -> ArrayType.of(null)).withMessage("elementType");
    }

    @Test
    void maps() {
        MapType m = MapType.of(stringType(), ArrayType.of(longType()));
        assertThat(m.valueContainsNull()).isTrue();
        assertThat(m.simpleString()).isEqualTo("map<string,array<bigint>>");
        assertThat(m.sql()).isEqualTo("MAP<STRING, ARRAY<BIGINT>>");
        assertThat(m).hasToString("map<string,array<bigint>>");
        assertThat(m).isEqualTo(MapType.of(stringType(), ArrayType.of(longType())))
                .isNotEqualTo(new MapType(stringType(), ArrayType.of(longType()), false));
        assertThatNullPointerException().isThrownBy(() -> MapType.of(null, intType())).withMessage("keyType");
        assertThatNullPointerException().isThrownBy(() -> MapType.of(intType(), null)).withMessage("valueType");
    }

    @Test
    void structFieldForms() {
        StructField f = StructField.of("a", intType());
        assertThat(f.nullable()).isTrue();
        assertThat(f.simpleString()).isEqualTo("a:int");
        assertThat(f.toDDL()).isEqualTo("a INT");
        assertThat(new StructField("a", intType(), false).toDDL()).isEqualTo("a INT NOT NULL");
        assertThatNullPointerException().isThrownBy(() -> StructField.of(null, intType())).withMessage("name");
        assertThatNullPointerException().isThrownBy(() -> StructField.of("a", null)).withMessage("dataType");
    }

    @ParameterizedTest(name = "[{0}] -> [{1}]")
    @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
            "a          | a",
            "_x1        | _x1",
            "CamelCase  | CamelCase",
            "naïve      | naïve",
            "my col     | `my col`",
            "a`b        | `a``b`",
            "1a         | `1a`",
            "123        | `123`",
            "a-b        | `a-b`",
            "a.b        | `a.b`",
            "\"\"       | ``",
    })
    void namesAreBackquotedOnlyWhenNeeded(String name, String quoted) {
        assertThat(StructField.quoteIfNeeded(name)).isEqualTo(quoted);
    }

    @Test
    void fromDdlReadsTypes() {
        assertThat(DataType.fromDDL("map<string, array<decimal(10,2)>>"))
                .isEqualTo(MapType.of(stringType(), ArrayType.of(new DecimalType(10, 2))));
    }
}
