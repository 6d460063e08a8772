package io.sluice.core;

import io.sluice.api.Row;
import io.sluice.api.function.SqlFunction;
import io.sluice.api.types.DataType;
import io.sluice.api.types.StructField;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.sluice.core.Functions.col;
import static io.sluice.core.Functions.lit;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * SQL functions contributed through {@link SqlFunction}: {@link ScaleByFunction}, found through this module's test
 * {@code META-INF/services/io.sluice.api.function.SqlFunction}, resolves like a built-in function in SQL text and
 * built columns; its binding errors are analysis errors with the call's position; registered functions are listed
 * among the known ones; from_avro/to_avro without their module fail with Spark's "not loaded" error.
 */
class ContributedFunctionsTest extends EngineTestBase {

    /** A bounded read of the scripted source after adding {@code n} rows: it holds the values 1, 2, ... so far. */
    private StreamFrame rows(long n) {
        source.add(n);
        return sluice.read().format("scripted").option("name", name).load();
    }

    @Test
    void aFunctionListedInMetaInfServicesResolvesInSqlTextAndBuiltColumns() throws Exception {
        StreamFrame f = rows(3).selectExpr("value", "scale_by(value, 3)", "SCALE_BY(value, -1) AS negated",
                "scale_by(CAST(2 AS BIGINT), 10) AS folded");
        assertThat(f.schema().fields()).containsExactly(StructField.of("value", DataType.longType()),
                StructField.of("scale_by(value, 3)", DataType.longType()),
                StructField.of("negated", DataType.longType()),
                new StructField("folded", DataType.longType(), false));
        assertThat(f.collectAsList()).containsExactly(Row.of(1L, 3L, -1L, 20L), Row.of(2L, 6L, -2L, 20L),
                Row.of(3L, 9L, -3L, 20L));

        assertThat(rows(0).where("scale_by(value, 2) > 4").select(Functions.callFunction("scale_by", col("value"),
                lit(100)).as("x")).collectAsList()).containsExactly(Row.of(300L));
    }

    @Test
    void aBindingErrorIsAnAnalysisErrorOfTheCallWithItsPosition() {
        AnalysisException e = catchThrowableOfType(AnalysisException.class,
                () -> rows(0).selectExpr("value + scale_by(value, value)"));
        assertThat(e).hasMessage("Cannot resolve \"scale_by(value, value)\" due to data type mismatch: the factor "
                + "\"value\" must be a constant INT.\n"
                + "value + scale_by(value, value)\n"
                + "        ^");
        assertThat(e.position()).isEqualTo(8);

        assertThatThrownBy(() -> rows(0).select(Functions.callFunction("scale_by", lit("a"), lit(2))))
                .isInstanceOf(AnalysisException.class)
                .hasMessage("Cannot resolve \"scale_by(a, 2)\" due to data type mismatch: the first parameter requires "
                        + "the \"BIGINT\" type, however \"a\" has the type \"STRING\".");
    }

    @Test
    void anUnknownFunctionListsTheContributedOnesAmongTheKnownFunctions() {
        assertThatThrownBy(() -> rows(0).selectExpr("scale(value)"))
                .isInstanceOf(AnalysisException.class)
                .hasMessage("Cannot resolve function `scale`: Sluice has no function of that name. Known functions: "
                        + "abs, bigint, binary, boolean, char_length, character_length, coalesce, concat, concat_ws, "
                        + "current_date, current_timestamp, date, decimal, double, float, from_json, if, ifnull, int, "
                        + "length, lower, ltrim, map, now, nullif, nvl, round, rtrim, scale_by, smallint, string, "
                        + "struct, substr, substring, timestamp, tinyint, to_date, to_json, to_timestamp, trim, "
                        + "upper.\n"
                        + "scale(value)\n"
                        + "^");
    }

    @Test
    void avroFunctionsWithoutTheirModuleFailWithSparksNotLoadedError() {
        assertThatThrownBy(() -> rows(0).selectExpr("from_avro(CAST(value AS BINARY), '\"long\"')"))
                .isInstanceOf(AnalysisException.class)
                .hasMessage("Cannot call the FROM_AVRO SQL function because the Avro data source is not loaded. Add "
                        + "the module io.sluice:sluice-avro to the class path (a dependency, or its jar in the CLI's "
                        + "--plugins folder) and retry your query.\n"
                        + "from_avro(CAST(value AS BINARY), '\"long\"')\n"
                        + "^");
        assertThatThrownBy(() -> rows(0).select(Functions.toAvro(col("value"))))
                .isInstanceOf(AnalysisException.class)
                .hasMessage("Cannot call the TO_AVRO SQL function because the Avro data source is not loaded. Add "
                        + "the module io.sluice:sluice-avro to the class path (a dependency, or its jar in the CLI's "
                        + "--plugins folder) and retry your query.");
    }

    @Test
    void aFunctionRegisteredInCodeWinsOverTheClasspathOneAndBuiltInNamesAreRefused() throws Exception {
        sluice.registerFunction(new SqlFunction() {
            @Override
            public String name() {
                return "Scale_By";
            }

            @Override
            public Binding bind(Call call) {
                return new Binding(DataType.stringType(), false, args -> "scaled " + args[0]);
            }
        });
        assertThat(rows(1).selectExpr("scale_by(value)").collectAsList()).containsExactly(Row.of("scaled 1"));

        assertThatThrownBy(() -> sluice.registerFunction(new ScaleByFunction() {
            @Override
            public String name() {
                return "UPPER";
            }
        })).isInstanceOf(IllegalArgumentException.class)
                .hasMessageMatching("SqlFunction io\\.sluice\\.core\\.ContributedFunctionsTest\\$\\d+ claims the name "
                        + "'UPPER' of a built-in function, which cannot be replaced");
    }

    @Test
    void aRuntimeFailureOfTheEvaluatorFailsTheReadWithItsMessage() {
        sluice.registerFunction(new SqlFunction() {
            @Override
            public String name() {
                return "explode_on";
            }

            @Override
            public Binding bind(Call call) {
                return new Binding(DataType.longType(), true, args -> {
                    throw new IllegalStateException("no value " + args[0]);
                });
            }
        });
        StreamFrame f = rows(1).selectExpr("explode_on(value)");
        assertThatThrownBy(f::collectAsList).isInstanceOf(IllegalStateException.class).hasMessage("no value 1");
        assertThat(List.of(f.schema().field(0).nullable())).containsExactly(true);
    }
}
