package io.sluice.spark;

import io.sluice.api.Row;
import io.sluice.api.types.StructType;
import io.sluice.core.Sluice;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Spark's value rules against Sluice's (sluice-values, through the expressions and the JSON file source): a corpus
 * of strings and JSON records goes through Spark 4.2 and through Sluice, and every entry must give the same answer.
 * The disagreements are printed, one per line, before the assertion.
 */
class ValueRulesDifferentialTest {
    private static SparkSession spark;
    private static Sluice sluice;

    @TempDir
    Path dir;

    @BeforeAll
    static void start() {
        spark = SharedSpark.session(Map.of("spark.sql.ansi.enabled", "false"));
        // The same session time zone as Spark's above, whatever the JVM's zone (sluice-spark's tests set their own
        // JVM arguments).
        sluice = Sluice.builder().config("spark.sql.session.timeZone", "UTC").build();
    }

    @AfterAll
    static void stop() {
        if (sluice != null) {
            sluice.close();
        }
    }

    /**
     * Timestamps and dates as users write them: partial forms, zones, offsets, fractions, junk. A time without a
     * date ({@code 12:00:00}, {@code T12:00:00}) is left out: Spark places it on the current day, Sluice refuses it
     * on purpose (the answer would depend on the day the data is read), see {@link #aTimeWithoutADate}.
     */
    static final List<String> DATETIMES = List.of(
            "2020-01-01T12", "2020-01-01 12:3", "2020-01-01 12:30:45", "2020-01-01T12:30:45.123456789",
            "2020-01-01T12:30:45Z", "2020-01-01T12:30:45.5+01:00", "2020-01-01T12:30:45-0800", "2020-01-01 12:00:00 UTC",
            "2020-01-01 12:00:00 Europe/Paris", "2020-01-01T12:00:00+1:00", "2020-01-01T12:00:00GMT+01:00",
            "2020-01-01T12:00:00 PST", "2020-01-01T12:00+01:00", "2020-01-01T12:00Z", "2020-01-01T12Z",
            "2020", "2020-06", "2020-6-7", "2020-06-07 ", " 2020-06-07T01:02:03 ", "2020-02-30", "2021-02-29",
            "2020-13-01", "2020-01-01T24:00:00", "2020-01-01T23:59:60", "+2020-01-01", "-0001-01-01", "12020-01-01",
            "20200101", "2020/01/01", "01/02/2020", "2020-01-01T", "2020-01-01 T12",
            "2020-01-01T12:00:00.", "2020-01-01X", "now", "", "2020-01-01T12:00:00.123456+05:45",
            "Jan 2, 2020 3:04 PM", "2020-01-01 12:00:00.000000001");
    static final List<String> PATTERNS = List.of("yyyy-MM-dd HH:mm:ss", "dd/MM/yyyy", "yyyy-MM-dd'T'HH:mm:ss.SSSXXX",
            "MMM d, yyyy h:mm a", "yyyyMMdd", "yyyy-MM-dd'T'HH");

    static final String JSON_SCHEMA = "b boolean, i int, l bigint, db double, dec decimal(10,2), s string, "
            + "ts timestamp, d date, arr array<int>, m map<string,int>, st struct<x: int, y: string>";
    /** JSON records: every type given good values, values of the wrong JSON type and edge cases. */
    static final List<String> JSON = new ArrayList<>(List.of(
            "{\"b\":true,\"i\":1,\"l\":2,\"db\":1.5,\"dec\":12.345,\"s\":\"x\",\"ts\":\"2020-01-01T12\",\"d\":\"2020-01-01\","
                    + "\"arr\":[1,2],\"m\":{\"k\":1},\"st\":{\"x\":1,\"y\":\"z\"}}",
            "{\"b\":\"true\",\"i\":\"1\",\"l\":1.5,\"db\":\"NaN\",\"dec\":\"12.3\",\"s\":12.50,\"ts\":1577880000,"
                    + "\"d\":18262,\"arr\":[1,\"x\",3],\"m\":{\"k\":\"v\"},\"st\":{\"x\":\"1\"}}",
            "{\"i\":2147483648,\"l\":9223372036854775808,\"db\":\"Infinity\",\"dec\":123456789.1,\"s\":{\"a\":[1, 2]}}",
            "{\"i\":-0,\"db\":1e400,\"dec\":-0.005,\"s\":true,\"ts\":\"2020-01-01 12:3\",\"d\":\"2020-1-2T99\"}",
            "{\"ts\":\"2020-01-01T12:00:00 Europe/Paris\",\"d\":\"2020-02-30\",\"arr\":null,\"m\":null,\"st\":null}",
            "{\"ts\":\"garbage\",\"d\":\"\",\"s\":null,\"st\":[1],\"arr\":{\"x\":1}}",
            "{\"b\":1,\"i\":1.0,\"db\":\"1.5\",\"dec\":\"abc\",\"s\":[1,\"a\"],\"ts\":\"\",\"arr\":[null,1]}",
            "{\"st\":{\"x\":1,\"y\":2},\"m\":{\"a\":1,\"b\":null},\"dec\":1E+2,\"ts\":\"2020-01-01T12:00:00GMT\"}",
            "[{\"i\":1}]", "{\"i\":1", "not json", "{}", "{\"I\":5,\"i\":6}"));

    @Test
    void sparkAndSluiceGiveTheSameAnswerForEveryEntry() throws Exception {
        List<String> disagreements = new ArrayList<>();

        // CAST to timestamp/date and to_timestamp/to_date with patterns, over a text file of the corpus.
        Path texts = write("texts", DATETIMES);
        List<String> exprs = new ArrayList<>(List.of("value", "CAST(value AS TIMESTAMP) AS cast_ts",
                "CAST(value AS DATE) AS cast_date"));
        for (int k = 0; k < PATTERNS.size(); k++) {
            String literal = "'" + PATTERNS.get(k).replace("'", "\\'") + "'";
            exprs.add("to_timestamp(value, " + literal + ") AS ts_" + k);
            exprs.add("to_date(value, " + literal + ") AS date_" + k);
        }
        compare("expressions", texts, "text", null, exprs, disagreements);

        // The JSON file source, from_json for each type and to_json of the result, over a file of JSON records.
        List<String> jsonLines = new ArrayList<>(JSON);
        for (String t : DATETIMES) {
            jsonLines.add("{\"ts\":\"" + t + "\",\"d\":\"" + t + "\"}");
        }
        Path json = write("json", jsonLines);
        compare("json source", json, "json", JSON_SCHEMA, List.of("*"), disagreements);
        compare("from_json", json, "text", null, List.of("value", "from_json(value, '" + JSON_SCHEMA + "') AS r"),
                disagreements);
        compare("to_json", json, "text", null, List.of("value",
                "to_json(from_json(value, '" + JSON_SCHEMA + "')) AS j"), disagreements);

        // A timestampFormat and dateFormat: the pattern, then (with the fallback on) the default rules.
        List<String> patterned = new ArrayList<>();
        for (String t : List.of("01/02/2020 13:45", "2020-01-02T13:45", "1/2/2020 1:45", "01/02/2020", "junk")) {
            patterned.add("{\"ts\":\"" + t + "\",\"d\":\"" + t + "\"}");
        }
        Path withPattern = write("patterned", patterned);
        for (String fallback : new String[] {null, "true", "false"}) {
            String opts = "map('timestampFormat', 'dd/MM/yyyy HH:mm', 'dateFormat', 'dd/MM/yyyy'"
                    + (fallback == null ? "" : ", 'enableDateTimeParsingFallback', '" + fallback + "'") + ")";
            compare("from_json with patterns, fallback " + fallback, withPattern, "text", null, List.of("value",
                    "from_json(value, 'ts timestamp, d date', " + opts + ") AS r"), disagreements);
            Map<String, String> sourceOptions = new LinkedHashMap<>(Map.of("timestampFormat", "dd/MM/yyyy HH:mm",
                    "dateFormat", "dd/MM/yyyy"));
            if (fallback != null) {
                sourceOptions.put("enableDateTimeParsingFallback", fallback);
            }
            compare("json source with patterns, fallback " + fallback, withPattern, "json", "ts timestamp, d date",
                    sourceOptions, List.of("*"), disagreements);
        }

        disagreements.forEach(System.out::println);
        assertThat(disagreements).as("entries where Sluice and Spark 4.2 disagree").isEmpty();
    }

    /**
     * A session time zone other than UTC (Spark's runtime {@code spark.sql.session.timeZone}, Sluice's config): the
     * expressions and the JSON file source without a {@code timeZone} option read and write in it.
     */
    @Test
    void anotherSessionTimeZone() throws Exception {
        List<String> disagreements = new ArrayList<>();
        Path texts = write("zoned", List.of("2020-01-01 12:00", "2020-07-01T12:00:00", "2020-03-08 02:30",
                "2020-01-01T12:00:00Z", "2020-01-01"));
        Path json = write("json", List.of("{\"ts\":\"2020-01-01 12:00\",\"d\":\"2020-07-01\"}",
                "{\"ts\":\"2020-03-08 02:30\",\"d\":\"2020-03-08\"}"));
        String zone = "America/Los_Angeles";
        spark.conf().set("spark.sql.session.timeZone", zone);
        try (Sluice la = Sluice.builder().config("spark.sql.session.timeZone", zone).build()) {
            compare("expressions in " + zone, la, texts, "text", null, Map.of(), List.of("value",
                    "CAST(value AS TIMESTAMP) AS ts", "CAST(CAST(value AS TIMESTAMP) AS STRING) AS s",
                    "CAST(CAST(value AS TIMESTAMP) AS DATE) AS d", "CAST(CAST(value AS DATE) AS TIMESTAMP) AS m",
                    "to_timestamp(value, 'yyyy-MM-dd HH:mm') AS p", "to_json(struct(CAST(value AS TIMESTAMP) AS t)) AS j",
                    "from_json(to_json(struct(value AS ts)), 'ts timestamp') AS r"), disagreements);
            compare("json source in " + zone, la, json, "json", "ts timestamp, d date", Map.of(), List.of("*"),
                    disagreements);
        } finally {
            spark.conf().set("spark.sql.session.timeZone", "UTC");
        }
        disagreements.forEach(System.out::println);
        assertThat(disagreements).as("entries where Sluice and Spark 4.2 disagree").isEmpty();
    }

    /** The one deliberate difference: Spark reads a time alone as today's, Sluice gives null. */
    @Test
    void aTimeWithoutADate() throws Exception {
        Path texts = write("times", List.of("12:00:00", "T12:00:00"));
        String[] exprs = {"CAST(value AS TIMESTAMP) IS NULL", "CAST(value AS DATE) IS NULL"};
        assertThat(spark.read().text(texts.toString()).selectExpr(exprs).collectAsList())
                .map(r -> List.of(r.getBoolean(0), r.getBoolean(1))).containsOnly(List.of(false, true));
        assertThat(sluice.read().format("text").load(texts.toString()).selectExpr(exprs).collectAsList())
                .containsOnly(Row.of(true, true));
    }

    private Path write(String name, List<String> lines) throws IOException {
        Path folder = Files.createDirectories(dir.resolve(name));
        Files.write(folder.resolve("part-0." + (name.equals("json") ? "json" : "txt")), lines);
        return folder;
    }

    /** Reads {@code folder} in both, projects {@code exprs}, and notes every row that differs. */
    private static void compare(String what, Path folder, String format, String schema, List<String> exprs,
                                List<String> out) throws Exception {
        compare(what, folder, format, schema, Map.of(), exprs, out);
    }

    private static void compare(String what, Path folder, String format, String schema, Map<String, String> options,
                                List<String> exprs, List<String> out) throws Exception {
        Map<String, String> utc = new LinkedHashMap<>(Map.of("timeZone", "UTC"));
        utc.putAll(options);
        compare(what, sluice, folder, format, schema, utc, exprs, out);
    }

    /** As above, on {@code engine} (in its session time zone), with only the given reader options. */
    private static void compare(String what, Sluice engine, Path folder, String format, String schema,
                                Map<String, String> options, List<String> exprs, List<String> out) throws Exception {
        var sparkReader = spark.read().format(format).options(options);
        var sluiceReader = engine.read().format(format).options(options);
        if (schema != null) {
            sparkReader = sparkReader.schema(schema);
            sluiceReader = sluiceReader.schema(schema);
        }
        var sparkFrame = sparkReader.load(folder.toString()).selectExpr(exprs.toArray(String[]::new));
        var sluiceFrame = sluiceReader.load(folder.toString()).selectExpr(exprs.toArray(String[]::new));
        StructType sparkSchema = StructType.fromDDL(sparkFrame.schema().toDDL());
        List<Row> expected = SparkRows.toSluice(sparkFrame.collectAsList(), sparkSchema);
        List<Row> actual = sluiceFrame.collectAsList();
        if (expected.size() != actual.size()) {
            out.add(what + ": Spark read " + expected.size() + " rows, Sluice " + actual.size());
            return;
        }
        for (int i = 0; i < expected.size(); i++) {
            Row e = expected.get(i);
            Row a = actual.get(i);
            for (int c = 0; c < e.size(); c++) {
                if (!java.util.Objects.equals(e.get(c), a.get(c))) {
                    out.add(what + " row " + i + " " + exprs.get(Math.min(c, exprs.size() - 1)) + " col " + c
                            + ": Spark " + e.get(c) + " | Sluice " + a.get(c) + "   [input " + e.get(0) + "]");
                }
            }
        }
    }
}
