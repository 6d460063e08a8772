package io.sluice.api.types;

import static io.sluice.api.types.DataType.binaryType;
import static io.sluice.api.types.DataType.booleanType;
import static io.sluice.api.types.DataType.byteType;
import static io.sluice.api.types.DataType.dateType;
import static io.sluice.api.types.DataType.doubleType;
import static io.sluice.api.types.DataType.floatType;
import static io.sluice.api.types.DataType.intType;
import static io.sluice.api.types.DataType.longType;
import static io.sluice.api.types.DataType.shortType;
import static io.sluice.api.types.DataType.stringType;
import static io.sluice.api.types.DataType.timestampType;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code StructType.fromDDL(s.toDDL())} gives back {@code s}, and {@code DataType.fromDDL(t.sql())} gives back
 * {@code t}, for hand-picked schemas and for many generated ones. (Arrays and maps are built with null elements
 * allowed: DDL cannot say otherwise, so {@code containsNull = false} cannot survive the trip, in Spark either.)
 */
class DdlRoundTripTest {

    private static StructField nn(String name, DataType type) {
        return new StructField(name, type, false);
    }

    private static StructField f(String name, DataType type) {
        return StructField.of(name, type);
    }

    static Stream<StructType> schemas() {
        return Stream.of(
                StructType.empty(),
                StructType.of(f("a", intType())),
                StructType.of(nn("a", intType())),
                StructType.of(f("seq", longType()), f("account", stringType()), nn("amount", new DecimalType(10, 2))),
                StructType.of(f("b", booleanType()), f("t", byteType()), f("s", shortType()), f("i", intType()),
                        f("l", longType()), f("f", floatType()), f("d", doubleType()), f("str", stringType()),
                        f("bin", binaryType()), f("dt", dateType()), f("ts", timestampType())),
                StructType.of(f("d1", new DecimalType(1, 0)), f("d2", new DecimalType(38, 38)),
                        f("d3", new DecimalType(38, 0)), f("d4", new DecimalType(10, 0))),
                StructType.of(f("my col", intType()), nn("a`b", stringType()), f("``", longType()),
                        f("", dateType()), f("trailing ", intType()), f(" leading", intType())),
                StructType.of(f("1a", intType()), f("123", intType()), f("a-b", intType()), f("a.b", intType()),
                        f("a,b", intType()), f("a:b", intType()), f("a<b>", intType()), f("(x)", intType())),
                StructType.of(f("it's", intType()), f("say \"hi\"", intType()), f("--", intType()),
                        f("/*", intType()), f("*/", intType()), f("tab\there", intType()), f("new\nline", intType())),
                StructType.of(f("NOT", intType()), nn("NULL", intType()), f("COMMENT", stringType()),
                        f("int", longType()), f("struct", stringType()), f("array", intType()), f("map", intType()),
                        f("decimal", intType()), f("r", intType()), f("R", stringType())),
                StructType.of(f("naïve", stringType()), f("名前", stringType()), f("_", intType()),
                        f("__x__", intType()), f("Ω", intType()), f("emoji😀", intType())),
                StructType.of(f("a", intType()), f("a", stringType()), f("A", longType())),
                StructType.of(f("xs", ArrayType.of(intType())), nn("m", MapType.of(stringType(), longType())),
                        f("nested", ArrayType.of(ArrayType.of(MapType.of(intType(), ArrayType.of(dateType())))))),
                StructType.of(f("point", StructType.of(nn("x", doubleType()), nn("y", doubleType()))),
                        f("empty", StructType.empty()),
                        f("deep", deeplyNested())),
                StructType.of(f("m", MapType.of(StructType.of(f("k", intType())), StructType.empty()))));
    }

    /** struct<`a b`: struct<`c``d`: array<struct<e: map<decimal(5,3), struct<f: binary NOT NULL>>>> NOT NULL>>. */
    private static StructType deeplyNested() {
        StructType innermost = StructType.of(nn("f", binaryType()));
        StructType element = StructType.of(f("e", MapType.of(new DecimalType(5, 3), innermost)));
        return StructType.of(f("a b", StructType.of(nn("c`d", ArrayType.of(element)))));
    }

    @ParameterizedTest
    @MethodSource("schemas")
    void schemaSurvivesToDdlAndBack(StructType schema) {
        assertThat(StructType.fromDDL(schema.toDDL())).isEqualTo(schema);
    }

    @ParameterizedTest
    @MethodSource("schemas")
    void structSurvivesSqlAndBack(StructType schema) {
        assertThat(DataType.fromDDL(schema.sql())).isEqualTo(schema);
        for (StructField field : schema.fields()) {
            assertThat(DataType.fromDDL(field.dataType().sql())).isEqualTo(field.dataType());
        }
    }

    @Test
    void everyAtomicTypeSurvivesSqlAndSimpleString() {
        for (AtomicType t : AtomicType.values()) {
            assertThat(DataType.fromDDL(t.sql())).isSameAs(t);
            assertThat(DataType.fromDDL(t.simpleString())).isSameAs(t);
        }
    }

    @Test
    void simpleStringOfPlainlyNamedTypesReadsBackToo() {
        // Spark's simpleString neither quotes names nor writes NOT NULL, so this holds only for such types.
        DataType t = StructType.of(f("a", MapType.of(stringType(), ArrayType.of(new DecimalType(9, 3)))),
                f("b", StructType.of(f("c", timestampType()), f("d", StructType.empty()))));
        assertThat(DataType.fromDDL(t.simpleString())).isEqualTo(t);
    }

    @Test
    void ddlOfASchemaLooksLikeSparks() {
        StructType s = StructType.of(f("seq", longType()), nn("my col", new DecimalType(10, 2)),
                f("tags", ArrayType.of(stringType())), f("p", StructType.of(nn("x", intType()))));
        assertThat(s.toDDL()).isEqualTo(
                "seq BIGINT, `my col` DECIMAL(10,2) NOT NULL, tags ARRAY<STRING>, p STRUCT<x: INT NOT NULL>");
    }

    // ---------------------------------------------------------------------------------------------------------
    // Generated schemas

    private static final String[] NAMES = {
        "a", "B", "id", "seq_no", "camelCase", "x1", "_", "1st", "42", "", " ", "my col", "a`b", "``", "`",
        "not", "NULL", "comment", "struct", "array", "map", "int", "decimal", "r", "it's", "\"q\"", "a,b", "a:b",
        "a<b", "b>a", "(p)", "--x", "/*", "é", "日本", "tab\t", "nl\n", "a.b", "$", "#",
    };

    private static DataType randomType(Random rnd, int depth) {
        int choice = rnd.nextInt(depth >= 3 ? 2 : 6);
        switch (choice) {
            case 0:
                return AtomicType.values()[rnd.nextInt(AtomicType.values().length)];
            case 1: {
                int precision = 1 + rnd.nextInt(DecimalType.MAX_PRECISION);
                return new DecimalType(precision, rnd.nextInt(precision + 1));
            }
            case 2:
                return ArrayType.of(randomType(rnd, depth + 1));
            case 3:
                return MapType.of(randomType(rnd, depth + 1), randomType(rnd, depth + 1));
            default:
                return randomStruct(rnd, depth + 1);
        }
    }

    private static StructType randomStruct(Random rnd, int depth) {
        int size = rnd.nextInt(depth == 0 ? 8 : 4);
        List<StructField> fields = new ArrayList<>();
        for (int i = 0; i < size; i++) {
            String name = NAMES[rnd.nextInt(NAMES.length)] + (rnd.nextInt(4) == 0 ? NAMES[rnd.nextInt(NAMES.length)] : "");
            fields.add(new StructField(name, randomType(rnd, depth), rnd.nextBoolean()));
        }
        return new StructType(fields);
    }

    static IntStream seeds() {
        return IntStream.range(0, 300);
    }

    @ParameterizedTest
    @MethodSource("seeds")
    void generatedSchemaSurvivesToDdlAndSqlAndBack(int seed) {
        StructType schema = randomStruct(new Random(seed), 0);
        assertThat(StructType.fromDDL(schema.toDDL())).as(schema.toDDL()).isEqualTo(schema);
        assertThat(DataType.fromDDL(schema.sql())).as(schema.sql()).isEqualTo(schema);
    }
}
