package io.sluice.files.sink;

import io.sluice.api.InvalidOptionException;
import io.sluice.api.Options;
import io.sluice.api.Row;
import io.sluice.api.sink.BatchWriter;
import io.sluice.api.sink.PartitionWriter;
import io.sluice.api.sink.Sink;
import io.sluice.api.types.StructType;
import io.sluice.core.ManualClock;
import io.sluice.core.storage.MemoryStorage;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The file sink with {@code path} on an object store (the in-memory one): whole files, exclusive manifest. */
class StoredFileSinkTest {

    private static final StructType SCHEMA = StructType.fromDDL("id long, name string");
    private final ManualClock clock = new ManualClock(1_700_000_000_000L);
    private final MemoryStorage store = MemoryStorage.fresh();
    private final String out = store.uri("lake/out");

    private Sink sink(String... pairs) {
        Map<String, String> m = new java.util.LinkedHashMap<>();
        m.put("path", out);
        for (int i = 0; i < pairs.length; i += 2) {
            m.put(pairs[i], pairs[i + 1]);
        }
        return SinkHarness.sink("json", Options.of(m), SCHEMA, clock);
    }

    private String text(String key) {
        return new String(store.get(key), StandardCharsets.UTF_8);
    }

    private Set<String> dataKeys() {
        return store.keys().stream().filter(k -> k.startsWith("lake/out/part-")).collect(Collectors.toSet());
    }

    @Test
    void writesWholeDataFilesAndTheManifestEntryOnTheStore() throws Exception {
        try (Sink s = sink()) {
            SinkHarness.batch(s, 0, List.of(List.of(Row.of(1L, "a"), Row.of(2L, "b")), List.of(Row.of(3L, "c"))));
        }
        assertThat(dataKeys()).hasSize(2);
        String manifest = text("lake/out/_spark_metadata/0");
        assertThat(manifest).startsWith("v1\n{\"path\":\"" + out + "/part-0000");
        assertThat(manifest.lines().skip(1)).hasSize(2).allSatisfy(l -> assertThat(l)
                .contains(",\"isDir\":false,\"modificationTime\":1700000000000,\"blockReplication\":1,"
                        + "\"blockSize\":33554432,\"action\":\"add\"}"));
        String all = dataKeys().stream().sorted().map(this::text).collect(Collectors.joining());
        assertThat(all).isEqualTo("{\"id\":1,\"name\":\"a\"}\n{\"id\":2,\"name\":\"b\"}\n{\"id\":3,\"name\":\"c\"}\n");
    }

    @Test
    void aDataFileIsNotVisibleBeforeItIsFinished() throws Exception {
        try (Sink s = sink()) {
            BatchWriter w = s.beginBatch(0);
            PartitionWriter p = w.partitionWriter(0);
            p.write(Row.of(1L, "a"));
            assertThat(store.keys()).isEmpty();
            Object result = p.commit();
            assertThat(dataKeys()).hasSize(1);
            assertThat(store.keys()).noneMatch(k -> k.contains("_spark_metadata"));
            w.commit(List.of(result));
            assertThat(store.keys()).contains("lake/out/_spark_metadata/0");
        }
    }

    @Test
    void twoSinksRacingOnOneBatchIdExactlyOneCommitsIt() throws Exception {
        try (Sink first = sink(); Sink second = sink()) {
            BatchWriter a = first.beginBatch(0);
            BatchWriter b = second.beginBatch(0);
            List<Object> ra = SinkHarness.writePartitions(a, List.of(List.of(Row.of(1L, "first"))));
            List<Object> rb = SinkHarness.writePartitions(b, List.of(List.of(Row.of(2L, "second"))));
            a.commit(ra);
            assertThatThrownBy(() -> b.commit(rb)).isInstanceOf(IllegalStateException.class)
                    .hasMessage(out + "/_spark_metadata/0 already exists: another query committed batch 0 into "
                            + out + " first (the manifest entry is created only if absent, so exactly one writer "
                            + "commits a batch). Two queries must not write one folder: give each query its own path.");
        }
        assertThat(dataKeys()).hasSize(1);
        assertThat(text(dataKeys().iterator().next())).isEqualTo("{\"id\":1,\"name\":\"first\"}\n");
        assertThat(text("lake/out/_spark_metadata/0").lines().skip(1)).hasSize(1);
    }

    @Test
    void aBatchTheManifestHoldsIsSkippedOnARerun() throws Exception {
        try (Sink s = sink()) {
            SinkHarness.batch(s, 0, List.of(List.of(Row.of(1L, "a"))));
        }
        long writes = store.writes();
        try (Sink again = sink()) {
            SinkHarness.batch(again, 0, List.of(List.of(Row.of(1L, "a"))));
            assertThat(store.writes()).isEqualTo(writes);
            SinkHarness.batch(again, 1, List.of(List.of(Row.of(2L, "b"))));
        }
        assertThat(store.keys()).contains("lake/out/_spark_metadata/1");
        assertThat(dataKeys()).hasSize(2);
    }

    @Test
    void everyCompactIntervalBatchesACompactFileHoldsEveryEntry() throws Exception {
        try (Sink s = sink("compactInterval", "2")) {
            SinkHarness.batch(s, 0, List.of(List.of(Row.of(1L, "a"))));
            SinkHarness.batch(s, 1, List.of(List.of(Row.of(2L, "b"))));
            SinkHarness.batch(s, 2, List.of(List.of(Row.of(3L, "c"))));
        }
        assertThat(store.keys().stream().filter(k -> k.contains("_spark_metadata")))
                .containsExactly("lake/out/_spark_metadata/0", "lake/out/_spark_metadata/1.compact",
                        "lake/out/_spark_metadata/2");
        assertThat(text("lake/out/_spark_metadata/1.compact").lines().skip(1)).hasSize(2);
        // A new run keeps the interval and continues after the compact file.
        try (Sink again = sink("compactInterval", "2")) {
            SinkHarness.batch(again, 3, List.of(List.of(Row.of(4L, "d"))));
        }
        assertThat(text("lake/out/_spark_metadata/3.compact").lines().skip(1)).hasSize(4);
    }

    @Test
    void aPathOnAStoreWithoutItsModuleNamesTheModule() {
        assertThatThrownBy(() -> new JsonSinkProvider().validate(Options.of(Map.of("path", "s3a://lake/out"))))
                .isInstanceOf(InvalidOptionException.class)
                .hasMessage("Invalid value 's3a://lake/out' for option 'path': the scheme 's3a' of s3a://lake/out "
                        + "has no storage on the class path: add the module sluice-s3 (its jar, or its plugin jar "
                        + "for the sluice CLI)");
    }
}
