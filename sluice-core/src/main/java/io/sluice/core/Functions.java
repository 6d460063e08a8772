package io.sluice.core;

import io.sluice.api.types.DataType;
import io.sluice.api.types.MapType;
import io.sluice.api.types.StructType;
import io.sluice.core.expr.Expr;
import io.sluice.core.expr.Literals;
import io.sluice.core.expr.SqlParser;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Builds {@link Column}s, the twin of Spark's {@code org.apache.spark.sql.functions}. Each method mirrors the SQL
 * function of the same name in {@code selectExpr}/{@code where} text; docs/transformations.md lists argument and
 * result types. Nothing here looks at a frame: names and types are checked when the column is used.
 */
public final class Functions {
    private Functions() {
    }

    /**
     * A column by name: {@code "amount"}, a nested field {@code "data.amount"}, a name with dots in backquotes
     * {@code "`a.b`"}, or {@code "*"} / {@code "data.*"} (in {@code select} only). Case-insensitive, as Spark.
     */
    public static Column col(String name) {
        return new Column(SqlParser.parseColumnName(name));
    }

    /** Same as {@link #col(String)}. */
    public static Column column(String name) {
        return col(name);
    }

    /**
     * A constant: {@code Integer} (int), {@code Long} (bigint), {@code Short}, {@code Byte}, {@code Float},
     * {@code Double}, {@code BigDecimal} (decimal of its precision and scale), {@code String}, {@code Boolean},
     * {@code LocalDate} (date), {@code Instant} (timestamp), {@code byte[]} (binary), null (NULL), or a
     * {@link Column}, returned as it is.
     *
     * @throws IllegalArgumentException for a value of another class
     */
    public static Column lit(Object value) {
        if (value instanceof Column c) {
            return c;
        }
        return new Column(literal(value));
    }

    private static Expr.Literal literal(Object value) {
        return Literals.of(value);
    }

    /**
     * A column from SQL expression text, as Spark's {@code expr}: {@code expr("amount * 2")},
     * {@code expr("CAST(value AS STRING)")}. An alias is allowed ({@code expr("amount * 2 AS doubled")}).
     *
     * @throws ParseException when the text does not parse (names are resolved later, when the column is used)
     */
    public static Column expr(String sql) {
        return new Column(SqlParser.parseNamedExpression(sql));
    }

    /** {@code NOT e}. */
    public static Column not(Column e) {
        return e.not();
    }

    // ---------------------------------------------------------------------------------------------------------
    // JSON

    /**
     * Parses a JSON string column into a struct of {@code schema}, as Spark's {@code from_json}. A JSON null or
     * empty string gives NULL; malformed JSON gives a struct whose fields are all NULL (Spark's PERMISSIVE mode);
     * a field of the wrong JSON type is NULL and the other fields are kept.
     */
    public static Column fromJson(Column json, StructType schema) {
        return fromJson(json, schema, Map.of());
    }

    /**
     * {@link #fromJson(Column, StructType)} with options: {@code mode} (PERMISSIVE or FAILFAST),
     * {@code timestampFormat}, {@code dateFormat}, {@code allowComments}, {@code allowUnquotedFieldNames},
     * {@code allowSingleQuotes}, {@code allowNumericLeadingZeros}, {@code allowNonNumericNumbers},
     * {@code allowBackslashEscapingAnyCharacter}, {@code allowUnquotedControlChars}.
     */
    public static Column fromJson(Column json, StructType schema, Map<String, String> options) {
        return fromJson(json, schema.toDDL(), options);
    }

    /**
     * {@code from_json} with the schema in DDL: {@code "seq long, account string"}, {@code "struct<a: int>"},
     * {@code "array<struct<a: int>>"} or {@code "map<string, int>"}.
     */
    public static Column fromJson(Column json, String ddlSchema) {
        return fromJson(json, ddlSchema, Map.of());
    }

    public static Column fromJson(Column json, String ddlSchema, Map<String, String> options) {
        List<Expr> args = new ArrayList<>(List.of(json.expr(), literal(Objects.requireNonNull(ddlSchema, "schema"))));
        if (!options.isEmpty()) {
            args.add(optionsLiteral(options));
        }
        return call("from_json", args);
    }

    /**
     * Spark's {@code struct}: one struct column of the given columns, each field named after its column, field or
     * alias ({@code struct(col("a"), col("b").as("c"))}: fields {@code a} and {@code c}), else {@code colN}
     * (1-based). {@code struct(col("*"))} is a struct of every input column, {@code struct(col("data.*"))} of a
     * struct's fields. The struct itself is never null.
     */
    public static Column struct(Column... cols) {
        return call("struct", cols);
    }

    /** {@link #struct(Column...)} of the named columns: {@code struct("*")}, {@code struct("id", "name")}. */
    public static Column struct(String colName, String... colNames) {
        List<Expr> args = new ArrayList<>();
        args.add(col(colName).expr());
        for (String n : colNames) {
            args.add(col(n).expr());
        }
        return call("struct", args);
    }

    /**
     * A struct, array or map column as JSON text, as Spark's {@code to_json}: null fields are left out,
     * timestamps are written {@code 2026-10-02T00:00:00.000Z}, dates {@code 2026-10-02}.
     */
    public static Column toJson(Column value) {
        return toJson(value, Map.of());
    }

    /** {@link #toJson(Column)} with options: {@code timestampFormat}, {@code dateFormat}, {@code ignoreNullFields}. */
    public static Column toJson(Column value, Map<String, String> options) {
        List<Expr> args = new ArrayList<>(List.of(value.expr()));
        if (!options.isEmpty()) {
            args.add(optionsLiteral(options));
        }
        return call("to_json", args);
    }

    private static Expr optionsLiteral(Map<String, String> options) {
        Map<String, String> copy = new LinkedHashMap<>(options);
        return new Expr.Literal(copy, MapType.of(DataType.stringType(), DataType.stringType()), "map(...)", null);
    }

    // ---------------------------------------------------------------------------------------------------------
    // Null handling, strings, numbers, time

    /** The first non-null argument; the arguments are brought to a common type. */
    public static Column coalesce(Column... columns) {
        return call("coalesce", columns);
    }

    /** The arguments as strings, joined; NULL when any is NULL. */
    public static Column concat(Column... columns) {
        return call("concat", columns);
    }

    /** The non-null arguments as strings, joined with {@code separator}. */
    public static Column concatWs(String separator, Column... columns) {
        List<Expr> args = new ArrayList<>();
        args.add(literal(separator));
        Arrays.stream(columns).map(Column::expr).forEach(args::add);
        return call("concat_ws", args);
    }

    public static Column lower(Column e) {
        return call("lower", e);
    }

    public static Column upper(Column e) {
        return call("upper", e);
    }

    /** Characters (code points) of a string, bytes of a binary value. */
    public static Column length(Column e) {
        return call("length", e);
    }

    /** Spaces removed at both ends (only U+0020, as Spark). */
    public static Column trim(Column e) {
        return call("trim", e);
    }

    /**
     * {@code len} characters from 1-based position {@code pos}, as Spark's {@code substring}: 0 counts as 1, a
     * negative position counts from the end.
     */
    public static Column substring(Column str, int pos, int len) {
        return call("substring", List.of(str.expr(), literal(pos), literal(len)));
    }

    public static Column abs(Column e) {
        return call("abs", e);
    }

    /** Rounded half up to 0 decimal places. */
    public static Column round(Column e) {
        return call("round", e);
    }

    /** Rounded half up to {@code scale} decimal places (negative: tens, hundreds...). */
    public static Column round(Column e, int scale) {
        return call("round", List.of(e.expr(), literal(scale)));
    }

    /** A string parsed as a timestamp the way CAST does (ISO forms such as {@code 2026-10-02T10:15:30Z}); else NULL. */
    public static Column toTimestamp(Column e) {
        return call("to_timestamp", e);
    }

    /** A string parsed with a Spark datetime pattern such as {@code "yyyy-MM-dd HH:mm:ss"}; NULL when it does not match. */
    public static Column toTimestamp(Column e, String format) {
        return call("to_timestamp", List.of(e.expr(), literal(format)));
    }

    public static Column toDate(Column e) {
        return call("to_date", e);
    }

    public static Column toDate(Column e, String format) {
        return call("to_date", List.of(e.expr(), literal(format)));
    }

    /**
     * The time now, from the Sluice instance's clock, read each time a row is evaluated (Spark fixes it once per
     * batch; see docs/transformations.md).
     */
    public static Column currentTimestamp() {
        return call("current_timestamp", List.of());
    }

    /** Today's date in the session time zone ({@code Sluice.sessionTimeZone()}), from the Sluice instance's clock. */
    public static Column currentDate() {
        return call("current_date", List.of());
    }

    // ---------------------------------------------------------------------------------------------------------
    // Avro (the functions come from the sluice-avro module; without it a call fails when the column is used)

    /**
     * Decodes a binary column holding one Avro datum each (no container file header) with the writer schema
     * {@code jsonFormatSchema}, as spark-avro's {@code from_avro}: the result type is the schema's SQL type, and a
     * body that does not match it fails the query (mode FAILFAST). Needs the module {@code sluice-avro}
     * (docs/avro-functions.md); without it, using the column fails with Spark's "Cannot call the FROM_AVRO SQL
     * function because the Avro data source is not loaded" and the module to add.
     */
    public static Column fromAvro(Column data, String jsonFormatSchema) {
        return fromAvro(data, jsonFormatSchema, Map.of());
    }

    /**
     * {@link #fromAvro(Column, String)} with options: {@code mode} (FAILFAST or PERMISSIVE), {@code avroSchema}
     * (a reader schema), {@code wireFormat} and {@code schemaId} (a schema registry's framing), as listed in
     * docs/avro-functions.md.
     */
    public static Column fromAvro(Column data, String jsonFormatSchema, Map<String, String> options) {
        List<Expr> args = new ArrayList<>(List.of(data.expr(),
                literal(Objects.requireNonNull(jsonFormatSchema, "jsonFormatSchema"))));
        if (!options.isEmpty()) {
            args.add(optionsLiteral(options));
        }
        return call("from_avro", args);
    }

    /**
     * Encodes a column as one binary Avro datum per value, as spark-avro's {@code to_avro}, with the Avro schema
     * spark-avro derives from the column's type. Needs the module {@code sluice-avro}, as {@link #fromAvro}.
     */
    public static Column toAvro(Column data) {
        return call("to_avro", data);
    }

    /** {@link #toAvro(Column)} written with the Avro schema {@code jsonFormatSchema}. */
    public static Column toAvro(Column data, String jsonFormatSchema) {
        return toAvro(data, jsonFormatSchema, Map.of());
    }

    /**
     * {@link #toAvro(Column, String)} with options (beyond Spark, whose to_avro has none): {@code wireFormat} and
     * {@code schemaId}, a schema registry's framing before each datum (docs/avro-functions.md).
     */
    public static Column toAvro(Column data, String jsonFormatSchema, Map<String, String> options) {
        List<Expr> args = new ArrayList<>(List.of(data.expr(),
                literal(Objects.requireNonNull(jsonFormatSchema, "jsonFormatSchema"))));
        if (!options.isEmpty()) {
            args.add(optionsLiteral(options));
        }
        return call("to_avro", args);
    }

    /**
     * A call of the SQL function {@code name} (built-in or contributed by a module), as Spark's
     * {@code call_function}: {@code callFunction("upper", col("name"))} is {@code expr("upper(name)")}.
     */
    public static Column callFunction(String name, Column... args) {
        return call(Objects.requireNonNull(name, "name"), args);
    }

    // ---------------------------------------------------------------- aggregates and windows (docs/stateful.md)

    /**
     * {@code count(col)}: the rows of a group where the column is not null; {@code count("*")} counts every row
     * (named {@code count(1)}, as Spark names it).
     */
    public static Column count(String column) {
        return "*".equals(column) ? count(lit(1)) : count(col(column));
    }

    /** {@code count(e)}: the rows of a group where {@code e} is not null (every row for a literal). */
    public static Column count(Column e) {
        return call("count", e);
    }

    /**
     * Spark's {@code count_distinct}: refused on a stream, as Spark refuses distinct aggregations there (the
     * aggregation fails with Spark's message).
     */
    public static Column countDistinct(Column e, Column... more) {
        Column[] all = new Column[more.length + 1];
        all[0] = e;
        System.arraycopy(more, 0, all, 1, more.length);
        return call("count_distinct", all);
    }

    /** {@code sum(col)}: bigint for integral columns, double for floating ones, decimal(p + 10, s) for decimals. */
    public static Column sum(String column) {
        return sum(col(column));
    }

    public static Column sum(Column e) {
        return call("sum", e);
    }

    /** {@code avg(col)}: double, or decimal(p + 4, s + 4) for decimals; null for a group of nulls only. */
    public static Column avg(String column) {
        return avg(col(column));
    }

    public static Column avg(Column e) {
        return call("avg", e);
    }

    /** {@code min(col)}: the least non-null value of the group (strings in code point order, as Spark). */
    public static Column min(String column) {
        return min(col(column));
    }

    public static Column min(Column e) {
        return call("min", e);
    }

    /** {@code max(col)}: the greatest non-null value of the group. */
    public static Column max(String column) {
        return max(col(column));
    }

    public static Column max(Column e) {
        return call("max", e);
    }

    /** {@code first(col)}: the value of the first row of the group in arrival order (nulls included, as Spark). */
    public static Column first(String column) {
        return first(col(column));
    }

    public static Column first(Column e) {
        return call("first", e);
    }

    /** {@code last(col)}: the value of the last row of the group in arrival order. */
    public static Column last(String column) {
        return last(col(column));
    }

    public static Column last(Column e) {
        return call("last", e);
    }

    /**
     * A tumbling event-time window as a grouping key, as Spark's {@code window(timeColumn, windowDuration)}: a
     * struct {@code window} of {@code start} and {@code end} (timestamps), windows aligned on the epoch.
     */
    public static Column window(Column timeColumn, String windowDuration) {
        return call("window", timeColumn, lit(windowDuration));
    }

    /** A sliding window: each row falls into every window of length {@code windowDuration} that holds it. */
    public static Column window(Column timeColumn, String windowDuration, String slideDuration) {
        return call("window", timeColumn, lit(windowDuration), lit(slideDuration));
    }

    /**
     * A session window as a grouping key, as Spark's {@code session_window(timeColumn, gapDuration)}: a row opens
     * {@code [ts, ts + gap)}, and the overlapping sessions of a group merge; a struct {@code session_window} of
     * {@code start} and {@code end}. Append and complete modes (Spark refuses update).
     */
    public static Column sessionWindow(Column timeColumn, String gapDuration) {
        return call("session_window", timeColumn, lit(gapDuration));
    }

    /** A sliding window whose starts are offset from the epoch by {@code startTime}. */
    public static Column window(Column timeColumn, String windowDuration, String slideDuration, String startTime) {
        return call("window", timeColumn, lit(windowDuration), lit(slideDuration), lit(startTime));
    }

    private static Column call(String name, Column... args) {
        return call(name, Arrays.stream(args).map(Column::expr).toList());
    }

    private static Column call(String name, List<Expr> args) {
        return new Column(new Expr.Call(name, args, null));
    }
}
