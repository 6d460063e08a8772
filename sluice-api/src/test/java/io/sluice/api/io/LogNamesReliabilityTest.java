package io.sluice.api.io;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Issue 14: log file names are read exactly as Spark writes them; a log file that is not one is refused. */
class LogNamesReliabilityTest {
    @TempDir
    Path tmp;

    @Test
    void batchNamesAreExactlyLongToString() {
        assertThat(MetadataLogFiles.batchId("0")).hasValue(0);
        assertThat(MetadataLogFiles.batchId("5")).hasValue(5);
        assertThat(MetadataLogFiles.batchId("9223372036854775807")).hasValue(Long.MAX_VALUE);
        for (String name : List.of("0005", "04", "00", "+5", "-1", " 5", "5 ", "5.tmp", "", "9223372036854775808",
                "1e3", "٥", ".5.crc", "5.compact")) {
            assertThat(MetadataLogFiles.batchId(name)).as("'" + name + "'").isEqualTo(OptionalLong.empty());
        }
        assertThat(MetadataLogFiles.compactId("9.compact")).hasValue(9);
        assertThat(MetadataLogFiles.compactId("09.compact")).isEmpty();
        assertThat(MetadataLogFiles.compactId(".compact")).isEmpty();
        assertThat(MetadataLogFiles.idWithSuffix("12.hot", ".hot")).hasValue(12);
    }

    @Test
    void onlyLookalikesAreUnexpected() {
        for (String name : List.of("0005", "04", "+5", " 5", "5.tmp", "notes.txt")) {
            assertThat(MetadataLogFiles.isUnexpected(name)).as(name).isTrue();
        }
        for (String name : List.of("5", "9.compact", ".5.crc", ".5.0f3a.tmp")) {
            assertThat(MetadataLogFiles.isUnexpected(name)).as(name).isFalse();
        }
        assertThat(MetadataLogFiles.isUnexpected("3.hot", ".hot", "cleanSource")).isFalse();
        assertThat(MetadataLogFiles.isUnexpected("cleanSource", ".hot", "cleanSource")).isFalse();
        assertThat(MetadataLogFiles.isUnexpected("03.hot", ".hot")).isTrue();
    }

    @Test
    void readAllRefusesWhatIsNoLogFile() throws Exception {
        Path file = Files.writeString(tmp.resolve("0"), "v1\n{}");
        assertThat(MetadataLogFiles.readAll(file, 100)).asString().isEqualTo("v1\n{}");
        assertThatThrownBy(() -> MetadataLogFiles.readAll(file, 4))
                .isInstanceOf(MetadataLogFiles.NotALogFileException.class)
                .hasMessage(file + " cannot be a log file: it is 5 bytes, more than a log file can be (at most 4)");
        Path dir = Files.createDirectory(tmp.resolve("1"));
        assertThatThrownBy(() -> MetadataLogFiles.readAll(dir, 100))
                .isInstanceOf(MetadataLogFiles.NotALogFileException.class)
                .hasMessage(dir + " cannot be a log file: it is a folder, not a regular file");
        Path zero = Path.of("/dev/zero");
        if (Files.exists(zero)) {
            Path link = Files.createSymbolicLink(tmp.resolve("2"), zero);
            assertThatThrownBy(() -> MetadataLogFiles.readAll(link, 100))
                    .isInstanceOf(MetadataLogFiles.NotALogFileException.class)
                    .hasMessage(link + " cannot be a log file: it is a device, pipe or socket, not a regular file");
            assertThatThrownBy(() -> MetadataLogFiles.checkRegularFile(link))
                    .isInstanceOf(MetadataLogFiles.NotALogFileException.class);
        }
        assertThatThrownBy(() -> MetadataLogFiles.readAll(tmp.resolve("3"), 100))
                .isInstanceOf(java.nio.file.NoSuchFileException.class);
    }
}
