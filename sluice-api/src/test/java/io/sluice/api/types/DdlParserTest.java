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
import static org.assertj.core.api.Assertions.assertThatNullPointerException;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.util.Locale;

import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class DdlParserTest {

    private static StructField nn(String name, DataType type) {
        return new StructField(name, type, false);
    }

    private static StructField f(String name, DataType type) {
        return StructField.of(name, type);
    }

    private static SchemaParseException schemaError(String ddl) {
        SchemaParseException e = catchThrowableOfType(SchemaParseException.class, () -> DdlParser.parseSchema(ddl));
        assertThat(e).as("parseSchema(%s) should fail", ddl).isNotNull();
        return e;
    }

    private static SchemaParseException typeError(String ddl) {
        SchemaParseException e = catchThrowableOfType(SchemaParseException.class, () -> DdlParser.parseType(ddl));
        assertThat(e).as("parseType(%s) should fail", ddl).isNotNull();
        return e;
    }

    /** The first line of an error message: the headline without the input echo and caret. */
    private static String headline(SchemaParseException e) {
        return e.getMessage().lines().findFirst().orElseThrow();
    }

    @Nested
    class Schemas {
        @Test
        void readsColumnsInOrderWithTheirTypes() {
            assertThat(StructType.fromDDL("seq long, account string, amount decimal(10,2)")).isEqualTo(StructType.of(
                    f("seq", longType()), f("account", stringType()), f("amount", new DecimalType(10, 2))));
        }

        @ParameterizedTest
        @ValueSource(strings = {"", " ", "   \t\n ", "-- only a comment", "/* only a comment */"})
        void blankInputIsTheEmptySchema(String ddl) {
            assertThat(DdlParser.parseSchema(ddl)).isEqualTo(StructType.empty());
        }

        @Test
        void colonBetweenNameAndTypeIsOptional() {
            StructType expected = StructType.of(f("a", intType()), f("b", stringType()));
            assertThat(DdlParser.parseSchema("a: int, b string")).isEqualTo(expected);
            assertThat(DdlParser.parseSchema("a:int,b:string")).isEqualTo(expected);
            assertThat(DdlParser.parseSchema("a : int , b : string")).isEqualTo(expected);
        }

        @Test
        void whitespaceMayBeAnywhereBetweenTokens() {
            assertThat(DdlParser.parseSchema("\n\ta\t int\n,\r\n b  map < string , array < decimal ( 5 , 1 ) > >  \n"))
                    .isEqualTo(StructType.of(f("a", intType()),
                            f("b", MapType.of(stringType(), ArrayType.of(new DecimalType(5, 1))))));
            assertThat(DdlParser.parseSchema("a int,b struct<x:int,y:string>"))
                    .isEqualTo(StructType.of(f("a", intType()),
                            f("b", StructType.of(f("x", intType()), f("y", stringType())))));
        }

        @Test
        void keywordsAreCaseInsensitiveButNamesKeepTheirCase() {
            assertThat(DdlParser.parseSchema("Seq BIGINT not null, MixedCase StRiNg Comment 'c', lower ARRAY<Int>"))
                    .isEqualTo(StructType.of(nn("Seq", longType()), f("MixedCase", stringType()),
                            f("lower", ArrayType.of(intType()))));
        }

        @Test
        void notNullMakesAColumnNonNullable() {
            assertThat(DdlParser.parseSchema("a int NOT NULL, b int, c string not   null"))
                    .isEqualTo(StructType.of(nn("a", intType()), f("b", intType()), nn("c", stringType())));
        }

        @Test
        void commentsAreAcceptedAndDropped() {
            assertThat(DdlParser.parseSchema(
                    "a int COMMENT 'the a', b string NOT NULL COMMENT \"the b\", c long comment 'it\\'s, <odd>'"))
                    .isEqualTo(StructType.of(f("a", intType()), nn("b", stringType()), f("c", longType())));
        }

        @Test
        void commentStringsMayBeRawOrAdjacent() {
            assertThat(DdlParser.parseSchema("a int COMMENT R'C:\\dir' , b int COMMENT 'x' 'y'"))
                    .isEqualTo(StructType.of(f("a", intType()), f("b", intType())));
        }

        @Test
        void backquotedNamesMayHoldAnything() {
            assertThat(DdlParser.parseSchema("`my col` int, `a``b` string, `` long, `x, y: z` date, `NOT` int"))
                    .isEqualTo(StructType.of(f("my col", intType()), f("a`b", stringType()), f("", longType()),
                            f("x, y: z", dateType()), f("NOT", intType())));
        }

        @Test
        void backquotedNamesMaySpanLines() {
            assertThat(DdlParser.parseSchema("`two\nlines` int").fieldNames()).containsExactly("two\nlines");
        }

        @Test
        void keywordsAndTypeNamesMayBeColumnNames() {
            assertThat(DdlParser.parseSchema("int int, string string, not int not null, comment string comment 'c',"
                    + " struct struct<array: array<int>>, null int"))
                    .isEqualTo(StructType.of(f("int", intType()), f("string", stringType()), nn("not", intType()),
                            f("comment", stringType()),
                            f("struct", StructType.of(f("array", ArrayType.of(intType())))), f("null", intType())));
        }

        @Test
        void unquotedNamesMayHoldUnicodeLettersDigitsAndUnderscores() {
            assertThat(DdlParser.parseSchema("_id int, naïve string, 名前 string, a1_b2 int, 1a int").fieldNames())
                    .containsExactly("_id", "naïve", "名前", "a1_b2", "1a");
        }

        @Test
        void duplicateNamesAreAllowedAsInSpark() {
            StructType s = DdlParser.parseSchema("a int, a string, A long");
            assertThat(s.fields()).containsExactly(f("a", intType()), f("a", stringType()), f("A", longType()));
        }

        @Test
        void sqlCommentsAreWhitespace() {
            assertThat(DdlParser.parseSchema("a int, -- the a\n b /* the /* nested */ b */ string -- end"))
                    .isEqualTo(StructType.of(f("a", intType()), f("b", stringType())));
        }

        @Test
        void aStructTypeNameIsNotASchema() {
            // Spark's StructType.fromDDL reads a column list; "struct<...>" is a type, read with DataType.fromDDL.
            assertThat(headline(schemaError("struct<a: int>")))
                    .isEqualTo("Syntax error at position 6 (column 7): expected a data type but found '<'");
        }

        @Test
        void keywordsDoNotDependOnTheDefaultLocale() {
            // In a Turkish locale "INT".toLowerCase() is "ınt" (dotless i), which is no type name.
            Locale saved = Locale.getDefault();
            try {
                Locale.setDefault(Locale.forLanguageTag("tr-TR"));
                assertThat(DdlParser.parseSchema("I INT NOT NULL, B BINARY COMMENT 'x'"))
                        .isEqualTo(StructType.of(nn("I", intType()), f("B", binaryType())));
            } finally {
                Locale.setDefault(saved);
            }
        }

        @Test
        void rejectsNull() {
            assertThatNullPointerException().isThrownBy(() -> DdlParser.parseSchema(null));
            assertThatNullPointerException().isThrownBy(() -> DdlParser.parseType(null));
        }
    }

    @Nested
    class Types {
        @ParameterizedTest(name = "{0}")
        @CsvSource(delimiter = '|', value = {
                "boolean       | boolean",
                "tinyint       | tinyint",
                "byte          | tinyint",
                "smallint      | smallint",
                "short         | smallint",
                "int           | int",
                "integer       | int",
                "bigint        | bigint",
                "long          | bigint",
                "float         | float",
                "real          | float",
                "double        | double",
                "string        | string",
                "varchar(10)   | string",
                "char(3)       | string",
                "character(3)  | string",
                "binary        | binary",
                "date          | date",
                "timestamp     | timestamp",
                "timestamp_ltz | timestamp",
                "decimal       | decimal(10,0)",
                "dec           | decimal(10,0)",
                "numeric       | decimal(10,0)",
                "decimal(5)    | decimal(5,0)",
                "decimal(7,2)  | decimal(7,2)",
                "dec(38, 38)   | decimal(38,38)",
                "numeric(1,0)  | decimal(1,0)",
        })
        void namesAndAliases(String ddl, String simpleString) {
            assertThat(DdlParser.parseType(ddl).simpleString()).isEqualTo(simpleString);
            assertThat(DdlParser.parseType(ddl.toUpperCase()).simpleString()).isEqualTo(simpleString);
            assertThat(DdlParser.parseType("  " + ddl + "\n").simpleString()).isEqualTo(simpleString);
        }

        @Test
        void atomicTypesAreTheSharedConstants() {
            assertThat(DdlParser.parseType("Boolean")).isSameAs(booleanType());
            assertThat(DdlParser.parseType("BYTE")).isSameAs(byteType());
            assertThat(DdlParser.parseType("Short")).isSameAs(shortType());
            assertThat(DdlParser.parseType("INTEGER")).isSameAs(intType());
            assertThat(DdlParser.parseType("Long")).isSameAs(longType());
            assertThat(DdlParser.parseType("REAL")).isSameAs(floatType());
            assertThat(DdlParser.parseType("double")).isSameAs(doubleType());
            assertThat(DdlParser.parseType("VarChar(255)")).isSameAs(stringType());
            assertThat(DdlParser.parseType("binary")).isSameAs(binaryType());
            assertThat(DdlParser.parseType("DATE")).isSameAs(dateType());
            assertThat(DdlParser.parseType("TIMESTAMP_LTZ")).isSameAs(timestampType());
        }

        @Test
        void arraysAndMapsNest() {
            assertThat(DdlParser.parseType("array<int>")).isEqualTo(ArrayType.of(intType()));
            assertThat(DdlParser.parseType("ARRAY<ARRAY<STRING>>"))
                    .isEqualTo(ArrayType.of(ArrayType.of(stringType())));
            assertThat(DdlParser.parseType("map<string,bigint>")).isEqualTo(MapType.of(stringType(), longType()));
            assertThat(DdlParser.parseType("map<array<int>, map<string, decimal(4,1)>>"))
                    .isEqualTo(MapType.of(ArrayType.of(intType()),
                            MapType.of(stringType(), new DecimalType(4, 1))));
        }

        @Test
        void collectionsFromDdlAllowNullElementsAsInSpark() {
            assertThat(((ArrayType) DdlParser.parseType("array<int>")).containsNull()).isTrue();
            assertThat(((MapType) DdlParser.parseType("map<int,int>")).valueContainsNull()).isTrue();
        }

        @Test
        void structs() {
            assertThat(DdlParser.parseType("struct<a: int, b string>"))
                    .isEqualTo(StructType.of(f("a", intType()), f("b", stringType())));
            assertThat(DdlParser.parseType("STRUCT<`x y`: INT NOT NULL COMMENT 'c', Z: ARRAY<STRUCT<q:DATE>>>"))
                    .isEqualTo(StructType.of(nn("x y", intType()),
                            f("Z", ArrayType.of(StructType.of(f("q", dateType()))))));
        }

        @ParameterizedTest
        @ValueSource(strings = {"struct<>", "STRUCT< >", "struct<\n>"})
        void emptyStruct(String ddl) {
            assertThat(DdlParser.parseType(ddl)).isEqualTo(StructType.empty());
        }

        @Test
        void closingAngleBracketsMayTouch() {
            assertThat(DdlParser.parseType("array<array<array<int>>>"))
                    .isEqualTo(ArrayType.of(ArrayType.of(ArrayType.of(intType()))));
            assertThat(DdlParser.parseType("map<int,struct<a:map<int,int>>>").simpleString())
                    .isEqualTo("map<int,struct<a:map<int,int>>>");
        }

        @Test
        void aSchemaIsReadAsAStructLikeSparkDataTypeFromDdl() {
            assertThat(DdlParser.parseType("a int, b string NOT NULL"))
                    .isEqualTo(StructType.of(f("a", intType()), nn("b", stringType())));
            assertThat(DataType.fromDDL("id bigint")).isEqualTo(StructType.of(f("id", longType())));
        }

        @ParameterizedTest
        @ValueSource(strings = {"", "   ", "-- nothing"})
        void blankInputIsNotAType(String ddl) {
            assertThat(headline(typeError(ddl))).endsWith("expected a data type but found end of input");
        }
    }

    @Nested
    class Errors {
        @Test
        void fullMessageHasHeadlineInputAndCaret() {
            SchemaParseException e = schemaError("a int,");
            assertThat(e).hasMessage("Syntax error at position 6 (column 7): expected a column name but found end"
                    + " of input\na int,\n      ^");
            assertThat(e.position()).isEqualTo(6);
        }

        @Test
        void unknownTypeNamesTheTokenAndTheKnownTypes() {
            SchemaParseException e = schemaError("seq long, b lon");
            assertThat(e.position()).isEqualTo(12);
            assertThat(headline(e)).startsWith("Unknown data type 'lon' at position 12 (column 13); known types: "
                    + "boolean, tinyint");
            assertThat(headline(e)).contains("bigint (long)", "decimal(p,s)", "array<T>", "map<K,V>", "struct<");
            assertThat(e.getMessage()).endsWith("\nseq long, b lon\n            ^");
        }

        @Test
        void unknownTypeKeepsTheCaseTheUserWrote() {
            assertThat(headline(schemaError("a STRNG"))).startsWith("Unknown data type 'STRNG' at position 2 (column 3)");
        }

        @ParameterizedTest
        @ValueSource(strings = {"timestamp_ntz", "void", "variant", "interval", "time"})
        void sparkTypesSluiceLacksAreNamedAsUnsupported(String type) {
            SchemaParseException e = schemaError("a " + type);
            assertThat(headline(e)).startsWith("Unsupported data type '" + type + "' at position 2 (column 3)")
                    .contains("known types: boolean");
        }

        @Test
        void missingTypeAfterAName() {
            assertThat(schemaError("a int, b")).hasMessage(
                    "Syntax error at position 8 (column 9): expected a data type but found end of input\n"
                            + "a int, b\n"
                            + "        ^");
            assertThat(headline(schemaError("a int, b, c int")))
                    .isEqualTo("Syntax error at position 8 (column 9): expected a data type but found ','");
            assertThat(headline(schemaError("a: , b int")))
                    .isEqualTo("Syntax error at position 3 (column 4): expected a data type but found ','");
        }

        @ParameterizedTest
        @ValueSource(strings = {"a int,", "a int, ", "a int,\n", "a int, b string,"})
        void trailingCommaIsAnError(String ddl) {
            SchemaParseException e = schemaError(ddl);
            assertThat(headline(e)).endsWith("expected a column name but found end of input");
            assertThat(e.position()).isEqualTo(ddl.length());
        }

        @Test
        void leadingOrDoubledCommaIsAnError() {
            assertThat(headline(schemaError(", a int")))
                    .isEqualTo("Syntax error at position 0 (column 1): expected a column name but found ','");
            assertThat(headline(schemaError("a int,, b int")))
                    .isEqualTo("Syntax error at position 6 (column 7): expected a column name but found ','");
        }

        @Test
        void missingCommaListsWhatCouldFollow() {
            assertThat(headline(schemaError("a int b string"))).isEqualTo(
                    "Syntax error at position 6 (column 7): expected ',', NOT NULL, COMMENT or end of input but found 'b'");
            assertThat(headline(schemaError("a int NOT NULL b string"))).isEqualTo(
                    "Syntax error at position 15 (column 16): expected ',', COMMENT or end of input but found 'b'");
            assertThat(headline(schemaError("a int COMMENT 'x' NOT NULL"))).isEqualTo(
                    "Syntax error at position 18 (column 19): expected ',' or end of input but found 'NOT'");
        }

        @Test
        void notMustBeFollowedByNull() {
            assertThat(headline(schemaError("a int NOT, b int")))
                    .isEqualTo("Syntax error at position 9 (column 10): expected NULL after NOT but found ','");
            assertThat(headline(schemaError("a int NOT")))
                    .isEqualTo("Syntax error at position 9 (column 10): expected NULL after NOT but found end of input");
        }

        @Test
        void commentMustBeFollowedByAString() {
            assertThat(headline(schemaError("a int COMMENT x"))).isEqualTo(
                    "Syntax error at position 14 (column 15): expected a quoted string after COMMENT but found 'x'");
            assertThat(headline(schemaError("a int COMMENT"))).isEqualTo("Syntax error at position 13 (column 14):"
                    + " expected a quoted string after COMMENT but found end of input");
        }

        @Test
        void unclosedBackquote() {
            SchemaParseException e = schemaError("a int, `b c string");
            assertThat(e.position()).isEqualTo(7);
            assertThat(headline(e)).startsWith("Syntax error at position 7 (column 8): unclosed backquote");
            assertThat(e.getMessage()).endsWith("\na int, `b c string\n       ^");
        }

        @Test
        void backquoteEscapeAtTheEndIsStillUnclosed() {
            // `a`` is the name a` with its closing backquote missing.
            assertThat(headline(schemaError("`a`` int"))).contains("unclosed backquote");
        }

        @Test
        void earlierErrorsWinOverLaterUnclosedQuotes() {
            // The tokenizer sees the unclosed quote first, but the parser reports errors in input order.
            assertThat(headline(schemaError("a strng, `b int")))
                    .startsWith("Unknown data type 'strng' at position 2 (column 3)");
        }

        @Test
        void unclosedStringAndComment() {
            assertThat(headline(schemaError("a int COMMENT 'oops")))
                    .startsWith("Syntax error at position 14 (column 15): unclosed string");
            assertThat(headline(schemaError("a int /* oops")))
                    .startsWith("Syntax error at position 6 (column 7): unclosed comment");
        }

        @Test
        void unclosedAngleBracketNamesWhereItOpened() {
            SchemaParseException e = schemaError("a array<int");
            assertThat(e).hasMessage("Syntax error at position 11 (column 12): expected '>' to close the '<' at "
                    + "position 7 (column 8) but found end of input\na array<int\n           ^");
            assertThat(headline(schemaError("a map<string, int, b int"))).isEqualTo("Syntax error at position 17"
                    + " (column 18): expected '>' to close the '<' at position 5 (column 6) but found ','");
            assertThat(headline(schemaError("a struct<x int"))).isEqualTo("Syntax error at position 14 (column 15):"
                    + " expected ',', NOT NULL, COMMENT or '>' to close the '<' at position 8 (column 9) but found end"
                    + " of input");
            assertThat(headline(schemaError("a array<array<int>"))).isEqualTo("Syntax error at position 18"
                    + " (column 19): expected '>' to close the '<' at position 7 (column 8) but found end of input");
        }

        @Test
        void extraClosingBracket() {
            assertThat(headline(schemaError("a array<int>>")))
                    .isEqualTo("Syntax error at position 12 (column 13): expected ',', NOT NULL, COMMENT or end of"
                            + " input but found '>'");
            assertThat(headline(typeError("array<int>>")))
                    .isEqualTo("Syntax error at position 10 (column 11): expected end of input but found '>'");
        }

        @Test
        void complexTypesNeedTheirParameters() {
            assertThat(headline(schemaError("a array"))).isEqualTo("Syntax error at position 7 (column 8):"
                    + " array needs '<', as in array<int>, but found end of input");
            assertThat(headline(schemaError("a map, b int"))).isEqualTo("Syntax error at position 5 (column 6):"
                    + " map needs '<', as in map<string, int>, but found ','");
            assertThat(headline(schemaError("a struct(x int)"))).isEqualTo("Syntax error at position 8 (column 9):"
                    + " struct needs '<', as in struct<a: int>, but found '('");
            assertThat(headline(schemaError("a map<string>"))).isEqualTo("Syntax error at position 12 (column 13):"
                    + " expected ',' between the key and value types of map< but found '>'");
            assertThat(headline(schemaError("a array<>")))
                    .isEqualTo("Syntax error at position 8 (column 9): expected a data type but found '>'");
        }

        @Test
        void structFieldErrors() {
            assertThat(headline(typeError("struct<a int,>")))
                    .isEqualTo("Syntax error at position 13 (column 14): expected a field name but found '>'");
            assertThat(headline(typeError("struct<1 int>")))
                    .isEqualTo("Syntax error at position 7 (column 8): expected a field name but found '1'");
            assertThat(headline(typeError("struct<a>")))
                    .isEqualTo("Syntax error at position 8 (column 9): expected a data type but found '>'");
        }

        @Test
        void charAndVarcharNeedALength() {
            assertThat(headline(schemaError("a varchar"))).isEqualTo("Syntax error at position 9 (column 10):"
                    + " varchar needs a length, as in varchar(10), but found end of input");
            assertThat(headline(schemaError("a CHAR()")))
                    .isEqualTo("Syntax error at position 7 (column 8): expected a length but found ')'");
            assertThat(headline(schemaError("a char(1, 2)"))).isEqualTo("Syntax error at position 8 (column 9):"
                    + " expected ')' to close the '(' at position 6 (column 7) but found ','");
        }

        @Test
        void typesWithoutParametersRejectThem() {
            assertThat(headline(schemaError("a int(3)")))
                    .isEqualTo("Syntax error at position 5 (column 6): int takes no parameters but found '('");
            assertThat(headline(schemaError("a STRING(3)")))
                    .isEqualTo("Syntax error at position 8 (column 9): string takes no parameters but found '('");
        }

        @Test
        void decimalPrecisionOutOfRangeUsesDecimalTypesMessageAtThePrecision() {
            SchemaParseException e = schemaError("a decimal(39, 2)");
            assertThat(e).hasMessage("Invalid decimal type at position 10 (column 11): Decimal precision 39 is out"
                    + " of range: it must be between 1 and 38\na decimal(39, 2)\n          ^");
            assertThat(e.position()).isEqualTo(10);
            assertThat(headline(schemaError("a decimal(0)"))).isEqualTo("Invalid decimal type at position 10"
                    + " (column 11): Decimal precision 0 is out of range: it must be between 1 and 38");
        }

        @Test
        void decimalScaleOutOfRangePointsAtTheScale() {
            SchemaParseException e = schemaError("a decimal(5,6)");
            assertThat(headline(e)).isEqualTo("Invalid decimal type at position 12 (column 13): Decimal scale 6 is"
                    + " out of range: it must be between 0 and the precision 5");
            assertThat(e.position()).isEqualTo(12);
        }

        @Test
        void decimalSyntaxErrors() {
            assertThat(headline(schemaError("a decimal(-1)"))).isEqualTo(
                    "Syntax error at position 10 (column 11): expected a precision (a whole number) but found '-'");
            assertThat(headline(schemaError("a decimal(10,)")))
                    .isEqualTo("Syntax error at position 13 (column 14): expected a scale (a whole number) but found ')'");
            assertThat(headline(schemaError("a decimal(10.5)"))).isEqualTo("Syntax error at position 12 (column 13):"
                    + " expected ')' to close the '(' at position 9 (column 10) but found '.'");
            assertThat(headline(schemaError("a decimal(10,2")))
                    .isEqualTo("Syntax error at position 14 (column 15): expected ')' to close the '(' at position 9"
                            + " (column 10) but found end of input");
            assertThat(headline(schemaError("a decimal(99999999999)")))
                    .isEqualTo("Syntax error at position 10 (column 11): precision 99999999999 is too large");
        }

        @Test
        void numbersAreNotNames() {
            assertThat(headline(schemaError("123 int")))
                    .isEqualTo("Syntax error at position 0 (column 1): expected a column name but found '123'");
        }

        @Test
        void strayCharacters() {
            assertThat(headline(schemaError("a int; b int"))).isEqualTo(
                    "Syntax error at position 5 (column 6): expected ',', NOT NULL, COMMENT or end of input but found ';'");
            assertThat(headline(schemaError("a #int")))
                    .isEqualTo("Syntax error at position 2 (column 3): expected a data type but found '#'");
            assertThat(headline(schemaError("a 'int'")))
                    .isEqualTo("Syntax error at position 2 (column 3): expected a data type but found ''int''");
        }

        @Test
        void longTokensAreShortenedInTheMessage() {
            String longName = "`" + "x".repeat(100) + "`";
            assertThat(headline(schemaError("a " + longName)))
                    .isEqualTo("Syntax error at position 2 (column 3): expected a data type but found '`"
                            + "x".repeat(36) + "...'");
        }

        @Test
        void multiLineInputShowsTheLineAndColumnOfTheError() {
            SchemaParseException e = schemaError("a int,\n  b strng,\n  c int");
            assertThat(e.position()).isEqualTo(11);
            assertThat(e).hasMessageStartingWith("Unknown data type 'strng' at position 11 (line 2, column 5);")
                    .hasMessageEndingWith("\n  b strng,\n    ^");
        }

        @Test
        void caretCopiesTabsSoItStaysAligned() {
            assertThat(schemaError("a\tint,\tb\tlon").getMessage()).endsWith("\na\tint,\tb\tlon\n \t    \t \t^");
        }

        @Test
        void errorAtTheEndOfMultiLineInput() {
            SchemaParseException e = schemaError("a int,\r\n");
            assertThat(e.position()).isEqualTo(8);
            assertThat(e).hasMessage("Syntax error at position 8 (line 2, column 1): expected a column name but"
                    + " found end of input\n\n^");
        }

        @Test
        void isAnIllegalArgumentException() {
            assertThat(schemaError("a")).isInstanceOf(IllegalArgumentException.class);
        }
    }

    /** Which error {@code DataType.fromDDL} reports when the input is neither a type nor a schema. */
    @Nested
    class TypeErrors {
        @Test
        void misspeltTypeAloneIsAnUnknownType() {
            SchemaParseException e = typeError("strng");
            assertThat(headline(e)).startsWith("Unknown data type 'strng' at position 0 (column 1); known types:");
            assertThat(e.position()).isZero();
        }

        @Test
        void schemaWithAMisspeltTypeReportsTheMisspeltType() {
            SchemaParseException e = typeError("a strng");
            assertThat(headline(e)).startsWith("Unknown data type 'strng' at position 2 (column 3)");
        }

        @Test
        void schemaWithATrailingCommaReportsTheTrailingComma() {
            assertThat(headline(typeError("a int,"))).endsWith("expected a column name but found end of input");
        }

        @Test
        void typeFollowedByJunkReportsTheJunk() {
            assertThat(headline(typeError("int x")))
                    .isEqualTo("Syntax error at position 4 (column 5): expected end of input but found 'x'");
        }

        @Test
        void misspeltComplexTypeIsAnUnknownType() {
            assertThat(headline(typeError("arry<int>"))).startsWith("Unknown data type 'arry' at position 0");
            assertThat(headline(typeError("map<string, lon>"))).startsWith("Unknown data type 'lon' at position 12");
        }

        @Test
        void decimalErrorsSurviveTheSchemaFallback() {
            assertThat(headline(typeError("decimal(40,2)")))
                    .startsWith("Invalid decimal type at position 8 (column 9): Decimal precision 40 is out of range");
        }
    }
}
