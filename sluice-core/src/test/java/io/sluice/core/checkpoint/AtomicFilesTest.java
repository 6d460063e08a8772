package io.sluice.core.checkpoint;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class AtomicFilesTest {

    @TempDir
    Path dir;

    @Test
    void createNewWritesTheContentAndLeavesNoTempFile() throws IOException {
        Path target = dir.resolve("3");
        AtomicFiles.createNew(target, bytes("v1\n{}"));

        assertThat(Files.readString(target)).isEqualTo("v1\n{}");
        assertThat(names()).containsExactly("3");
    }

    @Test
    void createNewRefusesAnExistingTargetAndLeavesItAsItWas() throws IOException {
        Path target = dir.resolve("3");
        AtomicFiles.createNew(target, bytes("first"));

        assertThatThrownBy(() -> AtomicFiles.createNew(target, bytes("second")))
                .isInstanceOf(FileAlreadyExistsException.class)
                .hasMessage(target + ": the file already exists and is never overwritten");
        assertThat(Files.readString(target)).isEqualTo("first");
        assertThat(names()).containsExactly("3");
    }

    @Test
    void aWriteThatFailsMidwayLeavesNoTargetAndNoTempFile() {
        Path target = dir.resolve("3");
        AtomicFiles.Content halfThenFail = out -> {
            out.write(bytes("v1\n{\"half"));
            out.flush();
            throw new IOException("disk on fire");
        };
        assertThatThrownBy(() -> AtomicFiles.createNew(target, halfThenFail)).hasMessage("disk on fire");
        assertThat(names()).isEmpty();

        AtomicFiles.Content uncheckedFailure = out -> {
            out.write(bytes("v1"));
            throw new IllegalStateException("bug in a serializer");
        };
        assertThatThrownBy(() -> AtomicFiles.createNew(target, uncheckedFailure)).hasMessage("bug in a serializer");
        assertThat(names()).isEmpty();
    }

    @Test
    void aReplaceThatFailsMidwayKeepsTheOldContentAndLeavesNoTempFile() throws IOException {
        Path target = dir.resolve("state");
        AtomicFiles.replace(target, bytes("old"));

        assertThatThrownBy(() -> AtomicFiles.replace(target, out -> {
            out.write(bytes("ne"));
            throw new IOException("disk full");
        })).hasMessage("disk full");

        assertThat(Files.readString(target)).isEqualTo("old");
        assertThat(names()).containsExactly("state");
    }

    @Test
    void replaceOverwrites() throws IOException {
        Path target = dir.resolve("state");
        AtomicFiles.replace(target, bytes("old"));
        AtomicFiles.replace(target, bytes("new"));

        assertThat(Files.readString(target)).isEqualTo("new");
        assertThat(names()).containsExactly("state");
    }

    @Test
    void theTempNameIsAHiddenSiblingThatIsNeverABatchName() {
        Path tmp = AtomicFiles.tempSibling(dir.resolve("12"));

        assertThat(tmp.getParent()).isEqualTo(dir);
        assertThat(tmp.getFileName().toString()).matches("\\.12\\.[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\\.tmp");
        assertThat(BatchLog.batchIdOf(tmp.getFileName().toString())).isNull();
    }

    @Test
    void createDirectoriesMakesNestedFoldersAndAcceptsExistingOnes() throws IOException {
        Path nested = dir.resolve("a/b/c");
        AtomicFiles.createDirectories(nested);
        AtomicFiles.createDirectories(nested);

        assertThat(nested).isDirectory();
    }

    @Test
    void createDirectoriesRefusesAFileInTheWay() throws IOException {
        Files.writeString(dir.resolve("a"), "x");

        assertThatThrownBy(() -> AtomicFiles.createDirectories(dir.resolve("a/b")))
                .isInstanceOf(IOException.class);
    }

    private List<String> names() {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
