package io.sluice.api.io;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DurableFilesTest {

    private static final String TEMP_NAME =
            "\\.%s\\.[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\\.tmp";

    @TempDir
    Path dir;

    @Test
    void createNewWritesTheContentAndLeavesNoTempFile() throws IOException {
        Path target = dir.resolve("3");
        DurableFiles.createNew(target, bytes("v1\n{}"));

        assertThat(Files.readString(target)).isEqualTo("v1\n{}");
        assertThat(names()).containsExactly("3");
    }

    @Test
    void createNewStreamsLargeContent() throws IOException {
        Path target = dir.resolve("big");
        DurableFiles.createNew(target, out -> {
            for (int i = 0; i < 100_000; i++) {
                out.write(bytes(i + "\n"));
            }
        });

        try (Stream<String> lines = Files.lines(target)) {
            assertThat(lines.count()).isEqualTo(100_000);
        }
        assertThat(names()).containsExactly("big");
    }

    @Test
    void createNewRefusesAnExistingTargetAndLeavesItAsItWas() throws IOException {
        Path target = dir.resolve("3");
        DurableFiles.createNew(target, bytes("first"));

        assertThatThrownBy(() -> DurableFiles.createNew(target, bytes("second")))
                .isInstanceOf(FileAlreadyExistsException.class)
                .hasMessage(target + ": the file already exists and is never overwritten");
        assertThat(Files.readString(target)).isEqualTo("first");
        assertThat(names()).containsExactly("3");
    }

    @Test
    void createNewRefusesATargetThatAppearsWhileTheContentIsWritten() throws IOException {
        Path target = dir.resolve("3");
        assertThatThrownBy(() -> DurableFiles.createNew(target, out -> {
            out.write(bytes("mine"));
            Files.writeString(target, "theirs"); // another writer wins the race
        })).isInstanceOf(FileAlreadyExistsException.class);

        assertThat(Files.readString(target)).isEqualTo("theirs");
        assertThat(names()).containsExactly("3");
    }

    @Test
    void aWriteThatFailsMidwayLeavesNoTargetAndNoTempFile() {
        Path target = dir.resolve("3");
        DurableFiles.Writer halfThenFail = out -> {
            out.write(bytes("v1\n{\"half"));
            out.flush();
            throw new IOException("disk on fire");
        };
        assertThatThrownBy(() -> DurableFiles.createNew(target, halfThenFail)).hasMessage("disk on fire");
        assertThat(names()).isEmpty();

        DurableFiles.Writer uncheckedFailure = out -> {
            out.write(bytes("v1"));
            throw new IllegalStateException("bug in a serializer");
        };
        assertThatThrownBy(() -> DurableFiles.createNew(target, uncheckedFailure)).hasMessage("bug in a serializer");
        assertThatThrownBy(() -> DurableFiles.replace(target, uncheckedFailure)).hasMessage("bug in a serializer");
        assertThat(names()).isEmpty();
    }

    @Test
    void aReplaceThatFailsMidwayKeepsTheOldContentAndLeavesNoTempFile() throws IOException {
        Path target = dir.resolve("state");
        DurableFiles.replace(target, bytes("old"));

        assertThatThrownBy(() -> DurableFiles.replace(target, out -> {
            out.write(bytes("ne"));
            throw new IOException("disk full");
        })).hasMessage("disk full");

        assertThat(Files.readString(target)).isEqualTo("old");
        assertThat(names()).containsExactly("state");
    }

    @Test
    void replaceCreatesAndOverwrites() throws IOException {
        Path target = dir.resolve("state");
        DurableFiles.replace(target, bytes("old"));
        assertThat(Files.readString(target)).isEqualTo("old");

        DurableFiles.replace(target, out -> out.write(bytes("new")));
        assertThat(Files.readString(target)).isEqualTo("new");
        assertThat(names()).containsExactly("state");
    }

    @Test
    void replaceThroughTheChannelCanWriteTheHeaderLast() throws IOException {
        Path target = dir.resolve("snapshot");
        DurableFiles.replaceWithChannel(target, ch -> {
            ch.position(4);
            ch.write(ByteBuffer.wrap(bytes("body")));
            ch.write(ByteBuffer.wrap(bytes("HEAD")), 0);
        });

        assertThat(Files.readString(target)).isEqualTo("HEADbody");
        assertThat(names()).containsExactly("snapshot");
    }

    @Test
    void aFolderListingDuringTheWriteNeverShowsTheTarget() throws IOException {
        Path target = dir.resolve("7");
        List<String> seenMidway = new ArrayList<>();
        DurableFiles.createNew(target, out -> {
            out.write(bytes("v1\n"));
            out.flush();
            seenMidway.addAll(names());
            out.write(bytes("{\"rest\":1}"));
        });

        assertThat(seenMidway).singleElement().asString().matches(TEMP_NAME.formatted("7"));
        assertThat(names()).containsExactly("7");
        assertThat(Files.readString(target)).isEqualTo("v1\n{\"rest\":1}");
    }

    @Test
    void aReaderDuringReplacesSeesOnlyWholeContents() throws Exception {
        Path target = dir.resolve("state");
        String a = "a".repeat(100_000);
        String b = "b".repeat(100_000);
        DurableFiles.replace(target, bytes(a));
        AtomicBoolean done = new AtomicBoolean();
        List<String> torn = new ArrayList<>();
        Thread reader = new Thread(() -> {
            while (!done.get()) {
                try {
                    String s = Files.readString(target);
                    if (!s.equals(a) && !s.equals(b)) {
                        torn.add(s.length() + " chars");
                    }
                } catch (NoSuchFileException e) {
                    torn.add("missing");
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        }, "durable-files-test-reader");
        reader.start();
        try {
            for (int i = 0; i < 40; i++) {
                DurableFiles.replace(target, bytes(i % 2 == 0 ? b : a));
            }
        } finally {
            done.set(true);
            reader.join();
        }

        assertThat(torn).isEmpty();
        assertThat(names()).containsExactly("state");
    }

    @Test
    void theTempNameIsAHiddenUuidSiblingThatIsNeverNumeric() {
        Path tmp = DurableFiles.tempSibling(dir.resolve("12"));

        assertThat(tmp.getParent()).isEqualTo(dir);
        assertThat(tmp.getFileName().toString()).matches(TEMP_NAME.formatted("12"));
    }

    @Test
    void createDirectoriesMakesNestedFoldersAndAcceptsExistingOnes() throws IOException {
        Path nested = dir.resolve("a/b/c");
        DurableFiles.createDirectories(nested);
        DurableFiles.createDirectories(nested);

        assertThat(nested).isDirectory();
    }

    @Test
    void createDirectoriesRefusesAFileInTheWay() throws IOException {
        Files.writeString(dir.resolve("a"), "x");

        assertThatThrownBy(() -> DurableFiles.createDirectories(dir.resolve("a/b")))
                .isInstanceOf(IOException.class);
    }

    @Test
    void fsyncFolderNeverThrows() {
        DurableFiles.fsyncFolder(dir);
        DurableFiles.fsyncFolder(dir.resolve("missing"));
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
