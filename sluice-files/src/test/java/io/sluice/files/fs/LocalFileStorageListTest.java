package io.sluice.files.fs;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Listing a local folder: what is skipped and what fails. */
class LocalFileStorageListTest {
    @TempDir
    Path dir;

    @Test
    void aFolderListingSkipsDanglingLinksAndAMissingFolderFails() throws IOException {
        Files.write(dir.resolve("a"), new byte[3]);
        Files.createSymbolicLink(dir.resolve("dangling"), dir.resolve("nowhere"));
        assertThat(FileStorage.local().list(dir)).extracting(FileStatus::name).containsExactly("a");
        assertThatThrownBy(() -> FileStorage.local().list(dir.resolve("missing")))
                .isInstanceOf(NoSuchFileException.class);
        assertThatThrownBy(() -> FileStorage.local().list(dir.resolve("a")))
                .isInstanceOf(NotDirectoryException.class);
    }

    @Test
    void aLargeFolderStatedOnTwoThreadsGivesEveryEntryOnceWithItsSizeAndTime() throws IOException {
        int n = 9_000; // above the two-thread threshold (8,192)
        for (int i = 0; i < n; i++) {
            Path f = Files.write(dir.resolve("f" + i), new byte[i % 7]);
            Files.setLastModifiedTime(f, java.nio.file.attribute.FileTime.fromMillis(1_000_000L + i));
        }
        Files.createDirectory(dir.resolve("sub"));
        Files.createSymbolicLink(dir.resolve("dangling"), dir.resolve("nowhere"));
        java.util.List<FileStatus> listed = FileStorage.local().list(dir);
        assertThat(listed).hasSize(n + 1);
        java.util.Map<String, FileStatus> byName = new java.util.HashMap<>();
        listed.forEach(s -> assertThat(byName.put(s.name(), s)).isNull());
        for (int i = 0; i < n; i++) {
            FileStatus s = byName.get("f" + i);
            assertThat(s.size()).isEqualTo(i % 7);
            assertThat(s.modificationTime()).isEqualTo(1_000_000L + i);
            assertThat(s.directory()).isFalse();
        }
        assertThat(byName.get("sub").directory()).isTrue();
    }
}
