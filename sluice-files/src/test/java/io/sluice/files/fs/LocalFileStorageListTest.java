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
}
