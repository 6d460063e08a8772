package io.sluice.core.checkpoint;

import io.sluice.core.CorruptCheckpointException;
import io.sluice.core.storage.MemoryStorage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The file operations the state store uses, on the local disk and on an object store. */
class FolderTest {

    @TempDir
    Path tmp;

    private final MemoryStorage store = MemoryStorage.fresh();
    private final AtomicInteger checks = new AtomicInteger();

    private Folder stored() {
        return Folder.stored(store, store.uri("chk/state/0/1/"), checks::incrementAndGet);
    }

    private static String readAll(Folder folder, String name) throws IOException {
        try (InputStream in = folder.open(name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private static void write(Folder folder, String name, String content) throws IOException {
        folder.replace(name, out -> out.write(content.getBytes(StandardCharsets.UTF_8)));
    }

    private static void failingWrite(Folder folder, String name) {
        assertThatThrownBy(() -> folder.replace(name, out -> {
            out.write("half".getBytes(StandardCharsets.UTF_8));
            throw new IOException("disk full");
        })).isInstanceOf(IOException.class).hasMessage("disk full");
    }

    @Test
    void aLocalFolderReplacesFilesWholeAndStreamsThem() throws IOException {
        Path dir = tmp.resolve("state/0/1");
        Folder folder = Folder.local(dir);
        assertThat(folder.names()).isEmpty(); // no folder yet
        folder.create();

        write(folder, "1.delta", "first");
        write(folder, "1.delta", "again"); // a re-run replaces its file
        failingWrite(folder, "1.delta"); // keeps the old one, and leaves no temp file

        assertThat(Files.readString(dir.resolve("1.delta"))).isEqualTo("again");
        assertThat(readAll(folder, "1.delta")).isEqualTo("again");
        assertThat(folder.size("1.delta")).isEqualTo(5);
        assertThat(folder.names()).containsExactly("1.delta");
        assertThatThrownBy(() -> folder.open("2.delta")).isInstanceOf(NoSuchFileException.class)
                .hasMessage(dir.resolve("2.delta").toString());
        assertThatThrownBy(() -> folder.size("2.delta")).isInstanceOf(NoSuchFileException.class)
                .hasMessage(dir.resolve("2.delta").toString());

        folder.delete("1.delta");
        folder.delete("1.delta"); // nothing to delete: no failure
        assertThat(folder.names()).isEmpty();
    }

    @Test
    void aLocalFolderMustExistToBeWritten() {
        Folder folder = Folder.local(tmp.resolve("none"));

        assertThatThrownBy(() -> write(folder, "1.delta", "x")).isInstanceOf(NoSuchFileException.class);
        assertThat(tmp.resolve("none")).doesNotExist();
    }

    @Test
    void aStoredFolderWritesEachFileAsOneObjectAfterTheCheck() throws IOException {
        Folder folder = stored();
        folder.create(); // no folders on an object store: writes nothing, checks nothing
        assertThat(store.writes()).isZero();

        write(folder, "1.delta", "first");
        write(folder, "1.delta", "again");
        long writes = store.writes();
        failingWrite(folder, "1.delta"); // aborted: the old object stays

        assertThat(store.writes()).isEqualTo(writes);
        assertThat(store.get("chk/state/0/1/1.delta")).asString(StandardCharsets.UTF_8).isEqualTo("again");
        store.put("chk/state/0/1/sub/2.delta", new byte[1]); // not directly in the folder
        assertThat(readAll(folder, "1.delta")).isEqualTo("again");
        assertThat(folder.size("1.delta")).isEqualTo(5);
        assertThat(folder.names()).containsExactly("1.delta");
        String missing = store.uri("chk/state/0/1/2.delta");
        assertThatThrownBy(() -> folder.open("2.delta")).isInstanceOf(NoSuchFileException.class)
                .hasMessage(missing);
        assertThatThrownBy(() -> folder.size("2.delta")).isInstanceOf(NoSuchFileException.class)
                .hasMessage(missing);
        assertThat(checks).hasValue(3); // one per write, reads need none

        folder.delete("1.delta");
        assertThat(checks).hasValue(4);
        assertThat(store.keys()).containsExactly("chk/state/0/1/sub/2.delta");
    }

    @Test
    void aFailedCheckStopsAStoredWriteOrDeleteBeforeItReachesTheStore() throws IOException {
        store.put("chk/state/0/1/1.delta", new byte[]{7});
        long writes = store.writes();
        Folder folder = Folder.stored(store, store.uri("chk/state/0/1"), () -> {
            throw new IllegalStateException("lease lost");
        });

        assertThatThrownBy(() -> write(folder, "2.delta", "x")).hasMessage("lease lost");
        assertThatThrownBy(() -> folder.delete("1.delta")).hasMessage("lease lost");
        assertThat(store.writes()).isEqualTo(writes);
        assertThat(store.keys()).containsExactly("chk/state/0/1/1.delta");
        assertThat(readAll(folder, "1.delta")).isEqualTo("\7");
    }

    @Test
    void aFolderWithoutItsOwnCheckOnTheLeaseGuardedStorageIsCheckedOncePerWriteOrDelete() throws IOException {
        // How the state store writes on an object store: through the checkpoint's state storage.
        Folder folder = Folder.stored(new LeaseGuardedStorage(store, checks::incrementAndGet),
                store.uri("chk/state/0/1"));

        write(folder, "1.delta", "x");
        assertThat(readAll(folder, "1.delta")).isEqualTo("x");
        assertThat(folder.size("1.delta")).isEqualTo(1);
        assertThat(folder.names()).containsExactly("1.delta");
        assertThat(checks).hasValue(1);
        folder.delete("1.delta");

        assertThat(checks).hasValue(2);
        assertThat(store.writes()).isEqualTo(1);
        assertThat(store.keys()).isEmpty();
    }

    @Test
    void corruptAndMissingFilesAreNamedAsTheFolderShowsThem() {
        Path dir = tmp.resolve("state/0/1");
        Folder local = Folder.local(dir);
        Folder stored = stored();
        String file = dir.resolve("3.delta").toString();
        String uri = store.uri("chk/state/0/1/3.delta");

        CorruptCheckpointException bad = local.badFile("3.delta", "it is truncated", "Start again.", null);
        assertThat(bad).hasMessage("Checkpoint file " + file + " is corrupt or incomplete (it is truncated). "
                + "Start again.");
        assertThat(bad.location()).isEqualTo(file);
        assertThat(bad.problem()).contains("it is truncated");
        CorruptCheckpointException badStored = stored.badFile("3.delta", "it is truncated", "Start again.", null);
        assertThat(badStored).hasMessage("Checkpoint file " + uri + " is corrupt or incomplete (it is truncated). "
                + "Start again.");
        assertThat(badStored.location()).isEqualTo(uri);

        CorruptCheckpointException missing = local.missing("3.delta", "It is gone.");
        assertThat(missing).hasMessage("It is gone.");
        assertThat(missing.location()).isEqualTo(file);
        assertThat(missing.problem()).isEmpty();
        assertThat(stored.missing("3.delta", "It is gone.").location()).isEqualTo(uri);
    }
}
