package io.sluice.api.io;

import io.sluice.api.InvalidOptionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class LocalPathsTest {
    private static final Path CWD = Path.of("").toAbsolutePath();

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "/data/in|/data/in",
            "file:/data/in|/data/in",
            "file:///data/in|/data/in",
            "FILE:///data/in|/data/in",
            "file://localhost/data/in|/data/in",
            "file:///data/a%20b/%C3%A9t%C3%A9|/data/a b/été",
            "file:/data/in/*.json|/data/in/*.json",
            "file:///data/{a,b}/x?[0-9]|/data/{a,b}/x?[0-9]",
            "/data/a%20b|/data/a%20b",
            "/data/a:b|/data/a:b"})
    void plainPathsAndFileUrisNameLocalPaths(String value, String expected) {
        assertThat(LocalPaths.of("path", value)).isEqualTo(Path.of(expected));
    }

    @Test
    void relativePathsAreMadeAbsoluteAgainstTheWorkingDirectory() {
        assertThat(LocalPaths.of("path", "data/in")).isEqualTo(CWD.resolve("data/in"));
        assertThat(LocalPaths.of("path", "a:b")).isEqualTo(CWD.resolve("a:b"));
        // A single letter is a Windows drive, not a scheme; on Linux it is a relative folder named C:.
        assertThat(LocalPaths.of("path", "C:/data")).isEqualTo(CWD.resolve("C:/data"));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "s3://bucket/x|s3", "s3a://bucket/x|s3a", "S3A://bucket/x|s3a", "s3n://bucket/x|s3n",
            "hdfs://nn:8020/x|hdfs", "hdfs:/x|hdfs", "gs://bucket/x|gs",
            "abfss://c@a.dfs.core.windows.net/x|abfss", "wasbs://c@a.blob.core.windows.net/x|wasbs",
            "my-store+v2.x://x|my-store+v2.x"})
    void otherSchemesAreRefusedNamingTheOptionTheValueAndTheScheme(String value, String scheme) {
        assertThatThrownBy(() -> LocalPaths.of("checkpointLocation", value))
                .isInstanceOf(InvalidOptionException.class)
                .hasMessage("Invalid value '" + value + "' for option 'checkpointLocation': the scheme '" + scheme
                        + "' is not supported: Sluice reads and writes local paths only; give a plain path "
                        + "(/data/in) or a file: URI (file:/data/in, file:///data/in)")
                .satisfies(e -> {
                    assertThat(((InvalidOptionException) e).option()).isEqualTo("checkpointLocation");
                    assertThat(((InvalidOptionException) e).value()).isEqualTo(value);
                });
        assertThat(LocalPaths.scheme(value)).contains(scheme);
    }

    @Test
    void badFileUrisAreRefused() {
        assertThatThrownBy(() -> LocalPaths.of("path", "file://server/share/x"))
                .hasMessage("Invalid value 'file://server/share/x' for option 'path': a file: URI names a local path "
                        + "and has no host, but this one names the host 'server'; Sluice reads and writes local "
                        + "paths only: give a plain path (/data/in) or a file: URI (file:/data/in, file:///data/in)");
        for (String v : new String[]{"file:", "file:data/in", "file://localhost"}) {
            assertThatThrownBy(() -> LocalPaths.of("path", v))
                    .hasMessage("Invalid value '" + v + "' for option 'path': a file: URI with an absolute path is "
                            + "accepted, such as file:/data/in or file:///data/in");
        }
        for (String blank : new String[]{"", "  "}) {
            assertThatThrownBy(() -> LocalPaths.of("checkpointLocation", blank))
                    .hasMessage("Invalid value '" + blank + "' for option 'checkpointLocation': a path is accepted, "
                            + "not an empty value");
        }
        assertThatThrownBy(() -> LocalPaths.of("path", "file:/data/100%"))
                .hasMessage("Invalid value 'file:/data/100%' for option 'path': in a file: URI '%' starts an escape "
                        + "of two hex digits (%20 for a space, %25 for '%'); give a plain path to use the characters "
                        + "as they are");
        assertThatThrownBy(() -> LocalPaths.of("path", "/data/nul\0"))
                .hasMessageStartingWith("Invalid value '/data/nul\0' for option 'path': a valid local path is "
                        + "accepted (");
    }

    @Test
    void schemeIsEmptyForPlainPathsAndDrives() {
        assertThat(LocalPaths.scheme("/x")).isEmpty();
        assertThat(LocalPaths.scheme("x")).isEmpty();
        assertThat(LocalPaths.scheme("C:/x")).isEmpty();
        assertThat(LocalPaths.scheme("a:b")).isEmpty();
        assertThat(LocalPaths.scheme("file:/x")).contains("file");
    }
}
