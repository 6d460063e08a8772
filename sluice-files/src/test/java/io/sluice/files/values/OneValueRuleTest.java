package io.sluice.files.values;

import io.sluice.api.Row;
import io.sluice.core.Sluice;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The JSON file source, {@code from_json} and {@code CAST} read a timestamp or date with one set of rules
 * (sluice-values), as Spark 4.2 does: {@code '2020-01-01T12'} is 2020-01-01 12:00:00 in all three (issue 15).
 */
class OneValueRuleTest {
    @TempDir
    Path tmp;

    private final Sluice sluice = Sluice.builder().build();

    @AfterEach
    void close() {
        sluice.close();
    }

    private Row readAllThreeWays(String text) throws Exception {
        Path in = Files.createDirectories(tmp.resolve("in"));
        String quoted = "\\\"" + text + "\\\"";
        Files.writeString(in.resolve("a.json"), "{\"t\":\"" + text + "\",\"d\":\"" + text + "\",\"s\":\"{\\\"t\\\":"
                + quoted + ",\\\"d\\\":" + quoted + "}\"}\n");
        List<Row> rows = sluice.read().format("json").option("timeZone", "UTC")
                .schema("t timestamp, d date, s string").load(in.toString())
                .selectExpr("t", "from_json(s, 't timestamp, d date').t AS jt", "CAST('" + text + "' AS TIMESTAMP) AS ct",
                        "d", "from_json(s, 't timestamp, d date').d AS jd", "CAST('" + text + "' AS DATE) AS cd")
                .collectAsList();
        assertThat(rows).hasSize(1);
        return rows.get(0);
    }

    @Test
    void aTimestampWithoutMinutesIsTheSameInTheFileSourceFromJsonAndCast() throws Exception {
        Instant noon = Instant.parse("2020-01-01T12:00:00Z");
        Row r = readAllThreeWays("2020-01-01T12");
        assertThat(List.of(r.get(0), r.get(1), r.get(2))).containsExactly(noon, noon, noon);
        assertThat(List.of(r.get(3), r.get(4), r.get(5))).containsOnly(java.time.LocalDate.of(2020, 1, 1));
    }

    @Test
    void partialFormsAndZonesAreTheSameInAllThree() throws Exception {
        for (String[] c : new String[][] {
                {"2020-01-01 12:3", "2020-01-01T12:03:00Z"},
                {"2020-01-01T12:30:15.123456789", "2020-01-01T12:30:15.123456Z"},
                {"2020-01-01 12:00:00 Europe/Paris", "2020-01-01T11:00:00Z"},
                {"2020-01-01T12:00:00+1:00", "2020-01-01T11:00:00Z"},
                {"2020-1-2", "2020-01-02T00:00:00Z"}}) {
            Row r = readAllThreeWays(c[0]);
            Instant want = Instant.parse(c[1]);
            assertThat(java.util.Arrays.asList(r.get(0), r.get(1), r.get(2))).as(c[0]).containsExactly(want, want, want);
            Files.delete(tmp.resolve("in/a.json"));
        }
    }
}
