package io.sluice.files.format;

import io.sluice.api.types.StructType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

import static io.sluice.files.format.FormatFixture.gzip;
import static io.sluice.files.format.FormatFixture.opts;
import static io.sluice.files.format.FormatFixture.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SchemaInferenceTest {
    @TempDir
    Path dir;

    private List<Path> jsonFiles() throws IOException {
        return List.of(
                write(dir, "1.json", "{\"id\": 1, \"name\": \"a\", \"tags\": [\"x\"], \"nested\": {\"k\": 1}, \"n\": 5}\n"),
                write(dir, "2.json", "{\"id\": 2.5, \"when\": \"2026-10-04T00:00:00Z\", \"nested\": {\"j\": true}, "
                        + "\"empty\": {}, \"nothing\": null, \"blank\": \"\", \"flag\": true, \"n\": 6.5}\n\n"),
                gzip(dir, "3.json.gz", "{\"id\": \"3\", \"big\": 12345678901234567890, \"arr\": [1, 2.5]}\n"
                        + "[{\"late\": [], \"n\": 7}]\n"));
    }

    @Test
    void jsonUnionsFieldsSortedByNameAndWidensTypes() throws IOException {
        assertThat(FileFormats.infer("json", opts(), jsonFiles())).isEqualTo(StructType.fromDDL(
                "arr array<double>, big decimal(20,0), blank string, flag boolean, id string, late array<string>, "
                        + "n double, name string, nested struct<j: boolean, k: bigint>, nothing string, "
                        + "tags array<string>, `when` string"));
    }

    @Test
    void jsonOptionsThatChangeInference() throws IOException {
        assertThat(FileFormats.infer("json", opts("inferTimestamp", "true", "dropFieldIfAllNull", "true",
                "prefersDecimal", "true"), jsonFiles())).isEqualTo(StructType.fromDDL(
                // a string that reads as a number is a decimal with prefersDecimal; bigint and decimal(2,1) widen
                // to decimal(21,1)
                "arr array<decimal(21,1)>, big decimal(20,0), flag boolean, id decimal(21,1), "
                        + "n decimal(21,1), name string, nested struct<j: boolean, k: bigint>, "
                        + "tags array<string>, `when` timestamp"));
        assertThat(FileFormats.infer("json", opts("primitivesAsString", "true"),
                List.of(write(dir, "p.json", "{\"a\": 1, \"b\": true, \"c\": {\"d\": 1.5}}\n"))))
                .isEqualTo(StructType.fromDDL("a string, b string, c struct<d: string>"));
    }

    @Test
    void jsonMalformedRecordsFollowTheParseMode() throws IOException {
        List<Path> files = List.of(write(dir, "m.json", "{\"a\": 1}\n{\"a\": \n5\n"));
        assertThat(FileFormats.infer("json", opts(), files))
                .isEqualTo(StructType.fromDDL("_corrupt_record string, a bigint"));
        assertThat(FileFormats.infer("json", opts("columnNameOfCorruptRecord", "zz"), files))
                .isEqualTo(StructType.fromDDL("a bigint, zz string"));
        assertThat(FileFormats.infer("json", opts("mode", "DROPMALFORMED"), files))
                .isEqualTo(StructType.fromDDL("a bigint"));
        assertThatThrownBy(() -> FileFormats.infer("json", opts("mode", "FAILFAST"), files))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("Malformed records are detected in schema inference. Parse Mode: FAILFAST. "
                        + "Reason: Unexpected end-of-input");
        List<Path> scalar = List.of(write(dir, "s.json", "{\"a\": 1}\n5\n"));
        assertThatThrownBy(() -> FileFormats.infer("json", opts("mode", "FAILFAST"), scalar))
                .hasMessage("Malformed records are detected in schema inference. Parse Mode: FAILFAST. Reason: Failed "
                        + "to infer a common schema. Struct types are expected, but `BIGINT` was found.");
    }

    @Test
    void jsonMultiLineAndNoFiles() throws IOException {
        assertThat(FileFormats.infer("json", opts("multiLine", "true"),
                List.of(write(dir, "ml.json", "[\n{\"b\": 1},\n{\"a\": \"x\"}\n]"))))
                .isEqualTo(StructType.fromDDL("a string, b bigint"));
        assertThat(FileFormats.infer("json", opts(), List.of())).isEqualTo(StructType.empty());
    }

    @Test
    void csvTypesWithHeaderAndInferSchema() throws IOException {
        List<Path> files = List.of(
                write(dir, "1.csv", "i,l,d,b,t,dt,s,mix,e,big,dtts\n"
                        + "1,3000000000,1.5,true,2026-10-04T00:00:00Z,2026-10-04,x,1,,12345678901234567890,2026-10-04\n"),
                write(dir, "2.csv", "i,l,d,b,t,dt,s,mix,e,big,dtts\n"
                        + "2,4,2,FALSE,2026-10-04 01:00:00,2026-10-05,7,1.5,,1,2026-10-04 10:00:00\n"));
        assertThat(FileFormats.infer("csv", opts("header", "true", "inferSchema", "true"), files))
                .isEqualTo(StructType.fromDDL("i int, l bigint, d double, b boolean, t timestamp, dt date, s string, "
                        + "mix double, e string, big decimal(20,0), dtts timestamp"));
        assertThat(FileFormats.infer("csv", opts("header", "true"), files))
                .isEqualTo(StructType.fromDDL("i string, l string, d string, b string, t string, dt string, s string, "
                        + "mix string, e string, big string, dtts string"));
    }

    @Test
    void csvNamesWithoutHeaderAndSafeHeaderNames() throws IOException {
        assertThat(FileFormats.infer("csv", opts("inferSchema", "true"),
                List.of(write(dir, "n.csv", "\n1,a\n2,b,extra\n"))))
                .isEqualTo(StructType.fromDDL("_c0 int, _c1 string"));
        assertThat(FileFormats.infer("csv", opts("header", "true"),
                List.of(write(dir, "h.csv", "a,,A,b,a\n"))))
                .isEqualTo(StructType.fromDDL("a0 string, _c1 string, A2 string, b string, a4 string"));
        assertThat(FileFormats.infer("csv", opts("header", "true", "multiLine", "true", "inferSchema", "true"),
                List.of(write(dir, "m.csv", "x,\"y\ny\"\n1,\"a\nb\"\n"))))
                .isEqualTo(StructType.fromDDL("x int, `y\ny` string"));
        assertThat(FileFormats.infer("csv", opts(), List.of(write(dir, "empty.csv", "")))).isEqualTo(StructType.empty());
    }

    @Test
    void textInfersItsFixedSchema() {
        assertThat(FileFormats.infer("text", opts(), List.of())).isEqualTo(StructType.fromDDL("value string"));
    }
}
