package io.sluice.core.storage;

import io.sluice.api.io.Storage;
import io.sluice.api.io.Storages;
import io.sluice.api.io.StoredObject;
import io.sluice.api.io.VersionChangedException;
import io.sluice.api.io.WholeObjectOutput;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** What {@link Storage} promises, checked on the local disk and on the in-memory object store. */
class StorageContractTest {

    @TempDir
    Path tmp;

    private String root(String kind) {
        return kind.equals("local") ? tmp.toString() + "/" : MemoryStorage.fresh().uri("");
    }

    private Storage storage(String root) throws Exception {
        return Storages.of(root, Map.of());
    }

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @ParameterizedTest
    @ValueSource(strings = {"local", "mem"})
    void createExclusiveFirstWriterWinsAndKeepsItsContent(String kind) throws Exception {
        String root = root(kind);
        Storage s = storage(root);
        String uri = root + "a/0";
        assertThat(s.createExclusive(uri, b("one"))).isTrue();
        assertThat(s.createExclusive(uri, b("two"))).isFalse();
        assertThat(s.readAll(uri, 100)).isEqualTo(b("one"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"local", "mem"})
    void racingExclusiveCreatesHaveExactlyOneWinner(String kind) throws Exception {
        String root = root(kind);
        Storage s = storage(root);
        ExecutorService pool = Executors.newFixedThreadPool(4, r -> new Thread(r, "race"));
        try {
            CountDownLatch go = new CountDownLatch(1);
            AtomicInteger wins = new AtomicInteger();
            List<Future<?>> fs = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                int n = i;
                fs.add(pool.submit(() -> {
                    go.await();
                    if (s.createExclusive(root + "x/7", b("w" + n))) {
                        wins.incrementAndGet();
                    }
                    return null;
                }));
            }
            go.countDown();
            for (Future<?> f : fs) {
                f.get(10, TimeUnit.SECONDS);
            }
            assertThat(wins.get()).isEqualTo(1);
        } finally {
            pool.shutdownNow();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"local", "mem"})
    void replaceIfVersionIsACompareAndSet(String kind) throws Exception {
        String root = root(kind);
        Storage s = storage(root);
        String uri = root + "lease";
        s.createExclusive(uri, b("v1"));
        String tag = s.status(uri).orElseThrow().versionTag();
        Optional<String> next = s.replaceIfVersion(uri, b("v2"), tag);
        assertThat(next).isPresent().isNotEqualTo(Optional.of(tag));
        assertThat(s.replaceIfVersion(uri, b("v3"), tag)).isEmpty();
        assertThat(s.readAll(uri, 100)).isEqualTo(b("v2"));
        assertThat(s.replaceIfVersion(root + "missing", b("x"), tag)).isEmpty();
        assertThat(s.status(root + "missing")).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"local", "mem"})
    void listsFlatInKeyOrderAfterStartAfterWithoutDirectoryMarkers(String kind) throws Exception {
        String root = root(kind);
        Storage s = storage(root);
        for (String k : List.of("p/b", "p/a", "p/c/d", "p/c/a", "q/z", "pz")) {
            s.createExclusive(root + k, b(k));
        }
        if (kind.equals("mem")) {
            MemoryStorage.bucket(root.substring(6, root.length() - 1)).put("p/c/", new byte[0]);
        }
        assertThat(s.list(root + "p/").stream().map(StoredObject::uri))
                .containsExactly(root + "p/a", root + "p/b", root + "p/c/a", root + "p/c/d");
        List<String> after = new ArrayList<>();
        s.list(root + "p/", root + "p/b", o -> after.add(o.uri()));
        assertThat(after).containsExactly(root + "p/c/a", root + "p/c/d");
        List<String> first = new ArrayList<>();
        s.list(root + "p", null, o -> {
            first.add(o.name());
            return first.size() < 2;
        });
        assertThat(first).containsExactly("a", "b");
        assertThat(s.list(root + "nothing/")).isEmpty();
        StoredObject a = s.list(root + "p/a").get(0);
        assertThat(a.size()).isEqualTo(3);
        assertThat(s.status(root + "p/c")).isEmpty(); // a folder or prefix is not an object
    }

    @ParameterizedTest
    @ValueSource(strings = {"local", "mem"})
    void readsArePinnedToTheVersionSeen(String kind) throws Exception {
        String root = root(kind);
        Storage s = storage(root);
        String uri = root + "f.json";
        s.createExclusive(uri, b("0123456789"));
        String tag = s.status(uri).orElseThrow().versionTag();
        try (InputStream in = s.open(uri, 2, 3, tag)) {
            assertThat(in.readAllBytes()).isEqualTo(b("234"));
        }
        try (InputStream in = s.open(uri, 8, 100, null)) {
            assertThat(in.readAllBytes()).isEqualTo(b("89"));
        }
        try (WholeObjectOutput out = s.create(uri, true)) {
            out.write(b("replaced in place"));
        }
        assertThatThrownBy(() -> s.open(uri, tag)).isInstanceOf(VersionChangedException.class)
                .hasMessageContaining(uri + " was modified after it was listed");
        assertThatThrownBy(() -> s.open(root + "gone", null)).isInstanceOf(NoSuchFileException.class);
    }

    @ParameterizedTest
    @ValueSource(strings = {"local", "mem"})
    void outputIsVisibleOnlyAtCloseAndAbortPublishesNothing(String kind) throws Exception {
        String root = root(kind);
        Storage s = storage(root);
        String uri = root + "out/part-0";
        WholeObjectOutput out = s.create(uri, false);
        out.write(b("half"));
        assertThat(s.status(uri)).isEmpty();
        assertThat(s.list(root + "out/")).isEmpty();
        out.write(b(" and whole"));
        out.close();
        assertThat(s.readAll(uri, 100)).isEqualTo(b("half and whole"));

        WholeObjectOutput second = s.create(uri, false);
        second.write(b("x"));
        assertThatThrownBy(second::close).isInstanceOf(FileAlreadyExistsException.class);
        assertThat(s.readAll(uri, 100)).isEqualTo(b("half and whole"));

        WholeObjectOutput aborted = s.create(root + "out/part-1", true);
        aborted.write(b("lost"));
        aborted.abort();
        aborted.close();
        assertThat(s.status(root + "out/part-1")).isEmpty();
        assertThat(s.list(root + "out/")).hasSize(1);
    }

    @ParameterizedTest
    @ValueSource(strings = {"local", "mem"})
    void copyThenDelete(String kind) throws Exception {
        String root = root(kind);
        Storage s = storage(root);
        s.createExclusive(root + "in/a", b("A"));
        s.copy(root + "in/a", root + "archive/in/a");
        assertThat(s.readAll(root + "archive/in/a", 10)).isEqualTo(b("A"));
        assertThat(s.delete(root + "in/a")).isTrue();
        assertThat(s.delete(root + "in/a")).isFalse();
        assertThatThrownBy(() -> s.copy(root + "in/a", root + "x")).isInstanceOf(NoSuchFileException.class);
    }

    @ParameterizedTest
    @ValueSource(strings = {"local", "mem"})
    void probeAcceptsAStoreThatHonoursConditionalWrites(String kind) throws Exception {
        String root = root(kind);
        Storage s = storage(root);
        assertThat(s.probeConditionalWrites(root + "chk/")).isEmpty();
        assertThat(s.list(root)).isEmpty(); // the probe is deleted
    }

    @Test
    void probeRefusesAStoreThatIgnoresConditionalWrites() throws Exception {
        MemoryStorage m = MemoryStorage.fresh().ignoreConditionalWrites(true);
        assertThat(m.probeConditionalWrites(m.uri("chk/")))
                .hasValueSatisfying(why -> assertThat(why).contains("overwrote it (If-None-Match: * is ignored)"));
        assertThat(m.keys()).isEmpty();
    }

    @Test
    void aSchemeWithoutProviderNamesTheModuleToAdd() {
        assertThatThrownBy(() -> Storages.of("s3a://lake/chk", Map.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("the scheme 's3a' of s3a://lake/chk has no storage on the class path: add the module "
                        + "sluice-s3 (its jar, or its plugin jar for the sluice CLI)");
        assertThatThrownBy(() -> Storages.check("checkpointLocation", "gs://x/y", null))
                .hasMessageStartingWith("Invalid value 'gs://x/y' for option 'checkpointLocation': the scheme 'gs'");
        Storages.check("checkpointLocation", "mem://x/y", Thread.currentThread().getContextClassLoader());
    }

    @Test
    void plainPathsAndFileUrisAreTheLocalDisk() throws Exception {
        assertThat(Storages.of(tmp.toString(), Map.of())).isSameAs(Storages.local());
        assertThat(Storages.of("file:" + tmp, Map.of()).localPath("file:" + tmp + "/a")).contains(tmp.resolve("a"));
        Files.writeString(tmp.resolve("a"), "x");
        assertThat(Storages.local().status("file://" + tmp + "/a")).isPresent();
    }
}
