package io.sluice.files.fs;

import io.sluice.api.io.VersionChangedException;
import io.sluice.core.storage.MemoryStorage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * {@link ObjectFileStorage#readAhead}: the next files of a reader are fetched while it reads the current one,
 * each once, and every open gives what it would give without read-ahead: the same bytes, the same failures.
 */
class ObjectReadAheadTest {

    private final MemoryStorage store = MemoryStorage.fresh();
    private final FileStorage fs = ObjectFileStorage.forPath("path", store.uri("in/"), Map.of());

    @AfterEach
    void close() {
        ObjectFileStorage.closeQuietly(fs);
    }

    private String key(int i) {
        return String.format("in/f%03d.json", i);
    }

    private byte[] content(int i) {
        return ("{\"id\":" + i + "}\n").getBytes(StandardCharsets.UTF_8);
    }

    /** Lists the prefix (as the source does: the listing records each object's version tag) and the files. */
    private List<FileStorage.FileToRead> listed() throws IOException {
        List<FileStorage.FileToRead> files = new ArrayList<>();
        fs.walk(fs.path(store.uri("in")), n -> true, f -> files.add(new FileStorage.FileToRead(f.path(), f.size())));
        return files;
    }

    private byte[] read(FileStorage.FileToRead f) throws IOException {
        try (InputStream in = fs.open(f.path())) {
            return in.readAllBytes();
        }
    }

    @Test
    void theNextEightFilesAreFetchedWhileOneIsReadEachOnceWithTheSameBytes() throws IOException {
        for (int i = 0; i < 20; i++) {
            store.put(key(i), content(i));
        }
        List<FileStorage.FileToRead> files = listed();
        try (FileStorage.ReadAhead ahead = fs.readAhead(files)) {
            // The first file is the reader's to stream; files 1 to 8 are fetched at once, not file 9.
            await().until(() -> store.openCalls(key(8)) == 1);
            assertThat(store.openCalls(key(0))).isZero();
            assertThat(store.openCalls(key(9))).isZero();
            assertThat(read(files.get(0))).isEqualTo(content(0)); // streamed
            assertThat(read(files.get(1))).isEqualTo(content(1)); // fetched: the window moves on to file 9
            await().until(() -> store.openCalls(key(9)) == 1);
            assertThat(store.openCalls(key(10))).isZero();
            for (int i = 2; i < 20; i++) {
                assertThat(read(files.get(i))).as(key(i)).isEqualTo(content(i));
            }
            for (int i = 0; i < 20; i++) {
                assertThat(store.openCalls(key(i))).as(key(i)).isEqualTo(1);
            }
        }
    }

    @Test
    void aFileReplacedOrDeletedSinceTheListingFailsItsOpenAsWithoutReadAhead() throws IOException {
        for (int i = 0; i < 4; i++) {
            store.put(key(i), content(i));
        }
        List<FileStorage.FileToRead> files = listed();
        store.put(key(2), content(22)); // a new version: reads are pinned to the listed one
        store.delete(store.uri(key(3)));
        try (FileStorage.ReadAhead ahead = fs.readAhead(files)) {
            await().until(() -> store.openCalls(key(3)) == 1);
            assertThat(read(files.get(0))).isEqualTo(content(0));
            assertThat(read(files.get(1))).isEqualTo(content(1));
            assertThatThrownBy(() -> read(files.get(2))).isInstanceOf(VersionChangedException.class)
                    .hasMessageContaining(store.uri(key(2)));
            assertThatThrownBy(() -> read(files.get(3))).isInstanceOf(NoSuchFileException.class)
                    .hasMessageContaining(store.uri(key(3)));
        }
    }

    @Test
    void aFileBiggerThanTheBudgetIsStreamedWhenOpenedAndTheNextOneFetched() throws IOException {
        store.put(key(0), content(0));
        byte[] big = new byte[(int) ObjectReadAhead.BYTES + 1];
        store.put(key(1), big);
        store.put(key(2), content(2));
        List<FileStorage.FileToRead> files = listed();
        try (FileStorage.ReadAhead ahead = fs.readAhead(files)) {
            await().until(() -> store.openCalls(key(2)) == 1);
            assertThat(store.openCalls(key(1))).isZero();
            assertThat(read(files.get(0))).isEqualTo(content(0));
            assertThat(read(files.get(1))).isEqualTo(big);
            assertThat(read(files.get(2))).isEqualTo(content(2));
            assertThat(store.openCalls(key(1))).isEqualTo(1);
            assertThat(store.openCalls(key(2))).isEqualTo(1);
        }
    }

    @Test
    void afterCloseAnOpenReadsTheFileItself() throws IOException {
        for (int i = 0; i < 3; i++) {
            store.put(key(i), content(i));
        }
        List<FileStorage.FileToRead> files = listed();
        FileStorage.ReadAhead ahead = fs.readAhead(files);
        await().until(() -> store.openCalls(key(2)) == 1);
        ahead.close();
        ahead.close(); // idempotent
        assertThat(read(files.get(2))).isEqualTo(content(2));
        assertThat(store.openCalls(key(2))).isEqualTo(2); // the fetched copy was dropped
    }
}
