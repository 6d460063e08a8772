package io.sluice.files.sink;

import io.sluice.api.Durations;
import io.sluice.api.InvalidOptionException;
import io.sluice.api.Options;
import io.sluice.api.SluiceClock;
import io.sluice.api.sink.SinkProvider;
import io.sluice.api.types.StructType;
import io.sluice.core.Sluice;
import io.sluice.core.sources.MemoryStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Every bad option or schema fails before the query starts, with Spark's wording where Spark has one. */
class FileSinkOptionsTest {
    @TempDir
    Path out;

    private void valid(String format, String ddl, String... options) {
        SinkHarness.sink(format, SinkHarness.options(out, options), StructType.fromDDL(ddl), SluiceClock.system());
    }

    private void fails(String format, String ddl, String message, String... options) {
        assertThatThrownBy(() -> valid(format, ddl, options)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage(message);
    }

    @Test
    void pathIsRequired() {
        assertThatThrownBy(() -> new JsonSinkProvider().validate(Options.of(Map.of("compression", "gzip"))))
                .isInstanceOf(InvalidOptionException.class).hasMessage("'path' is not specified");
        assertThatThrownBy(() -> new CsvSinkProvider().validate(Options.of(Map.of("PATH", " "))))
                .isInstanceOf(InvalidOptionException.class).hasMessage("'path' is not specified");
    }

    @Test
    void providersHaveSparksShortNamesAndNeedACheckpoint() {
        assertThat(new JsonSinkProvider().shortName()).isEqualTo("json");
        assertThat(new CsvSinkProvider().shortName()).isEqualTo("csv");
        assertThat(new TextSinkProvider().shortName()).isEqualTo("text");
        assertThat(new JsonSinkProvider().allowsTemporaryCheckpoint()).isFalse();
        MemoryStream input = MemoryStream.create(StructType.fromDDL("v string"));
        try (Sluice sluice = Sluice.local()) {
            assertThatThrownBy(() -> sluice.readStream().format("memory").option("name", input.name()).load()
                    .writeStream().format("text").start(out.toString()))
                    .isInstanceOf(InvalidOptionException.class)
                    .hasMessage("checkpointLocation must be specified with option(\"checkpointLocation\", \"<dir>\") "
                            + "for the 'text' sink, so the query can recover after a restart");
        } finally {
            input.unregister();
        }
    }

    @Test
    void optionValues() {
        fails("json", "v long", "Invalid value 'snappy' for option 'compression': none, uncompressed or gzip is accepted",
                "compression", "snappy");
        fails("json", "v long", Durations.TIME_STRING_ERROR + "\nInvalid suffix: \"x\"", "retention", "7x");
        fails("json", "v long", Durations.TIME_STRING_ERROR + "\nFailed to parse time string: soon", "cleanupDelay", "soon");
        fails("json", "v long", "Invalid value '0' for option 'compactInterval': a positive whole number is accepted",
                "compactInterval", "0");
        fails("json", "v long", "Invalid value 'ten' for option 'compactInterval': a whole number (int) is accepted",
                "compactInterval", "ten");
        fails("json", "v long", "Invalid value 'maybe' for option 'ignoreNullFields': true or false is accepted",
                "ignoreNullFields", "maybe");
        fails("json", "v long", "Invalid value 'Mars/Base' for option 'timeZone': a region ID such as "
                + "'America/Los_Angeles' or an offset such as '+01:00' is accepted", "timeZone", "Mars/Base");
        fails("json", "v long", "requirement failed: 'lineSep' cannot be an empty string.", "lineSep", "");
        fails("json", "v long", "Invalid value 'latin1' for option 'encoding': only UTF-8 is accepted",
                "encoding", "latin1");
        fails("json", "v long", "Invalid value 'yyyy-MM-dd'T' for option 'timestampFormat': a datetime pattern is "
                + "accepted (Pattern ends with an incomplete string literal: uuuu-MM-dd'T)", "timestampFormat",
                "yyyy-MM-dd'T");
        fails("json", "v long", "Invalid value 'ftp://host/x' for option 'path': the scheme 'ftp' of ftp://host/x "
                + "has no storage on the class path: Sluice supports local paths (/data/in, file:/data/in) and, with "
                + "the module sluice-s3, s3:// and s3a://", "path", "ftp://host/x");
        valid("json", "v long", "compression", "GZIP", "retention", "7d", "cleanupDelay", "0", "timeZone",
                "Europe/Paris", "encoding", "utf-8", "dateFormat", "dd/MM/yyyy");
    }

    @Test
    void aPathWithAnotherSchemeIsRefusedByValidateBeforeAnythingIsWritten() {
        for (String path : new String[]{"s3://bucket/out", "s3a://bucket/out", "hdfs://nn:8020/out", "hdfs:/out",
                "gs://bucket/out", "abfss://c@a.dfs.core.windows.net/out", "wasbs://c@a/out"}) {
            String scheme = path.substring(0, path.indexOf(':'));
            for (SinkProvider p : new SinkProvider[]{new JsonSinkProvider(), new CsvSinkProvider(),
                    new TextSinkProvider()}) {
                assertThatThrownBy(() -> p.validate(Options.of(Map.of("path", path))))
                        .isInstanceOf(InvalidOptionException.class)
                        .hasMessage("Invalid value '" + path + "' for option 'path': the scheme '" + scheme
                                + "' of " + path + " has no storage on the class path: " + (scheme.startsWith("s3")
                                ? "add the module sluice-s3 (its jar, or its plugin jar for the sluice CLI)"
                                : "Sluice supports local paths (/data/in, file:/data/in) and, with the module "
                                + "sluice-s3, s3:// and s3a://"));
            }
            assertThat(Path.of(scheme + ":")).doesNotExist();
        }
    }

    @Test
    void csvOptionValues() {
        fails("csv", "v long", "quote cannot be more than one character.", "quote", "''");
        fails("csv", "v long", "escape cannot be more than one character.", "escape", "ab");
        fails("csv", "v long", "Invalid value '::' for option 'sep': one character is accepted, or an escape such as "
                + "\\t or \\u0001", "sep", "::");
        fails("csv", "v long", "Delimiter cannot be empty string", "sep", "");
        fails("csv", "v long", "Invalid value 'no' for option 'header': true or false is accepted", "header", "no");
        valid("csv", "v long", "delimiter", "|", "quote", "", "escape", "\"", "sep", "\\u0001");
    }

    @Test
    void partitionColumnsMustExistBeAtomicAndNotBeAllColumns() {
        fails("json", "id long, name string", "Partition column `nope` not found in schema "
                + "struct<id:bigint,name:string>", "partitionBy", "id,nope");
        fails("json", "id long", "[ALL_PARTITION_COLUMNS_NOT_ALLOWED] Cannot use all columns for partition columns.",
                "partitionBy", "id");
        fails("json", "id long, tags array<int>", "[INVALID_PARTITION_COLUMN_DATA_TYPE] Cannot use \"ARRAY<INT>\" "
                + "for partition column.", "partitionBy", "tags");
        fails("json", "id long, a int, b int", "[COLUMN_ALREADY_EXISTS] The column `a` already exists. Choose another "
                + "name or rename the existing column.", "partitionBy", "a,A");
        fails("json", "id long, a int", "Invalid value 'a,,id' for option 'partitionBy': comma-separated column names "
                + "are accepted", "partitionBy", "a,,id");
        valid("json", "id long, Day string", "partitionBy", " day ");
    }

    @Test
    void formatsRefuseTypesTheyCannotWrite() {
        fails("csv", "id long, arr array<int>", "[UNSUPPORTED_DATA_TYPE_FOR_DATASOURCE] The CSV datasource doesn't "
                + "support the column `arr` of the type \"ARRAY<INT>\".");
        fails("csv", "s struct<a: int>", "[UNSUPPORTED_DATA_TYPE_FOR_DATASOURCE] The CSV datasource doesn't support "
                + "the column `s` of the type \"STRUCT<a: INT>\".");
        fails("text", "a string, b string", "Text data source supports only a single column, and you have 2 columns.");
        fails("text", "v int", "[UNSUPPORTED_DATA_TYPE_FOR_DATASOURCE] The Text datasource doesn't support the column "
                + "`v` of the type \"INT\".");
        valid("text", "v string, day int", "partitionBy", "day");
        valid("csv", "a decimal(10,2), b binary, c date");
    }
}
