package io.sluice.core.sources;

import io.sluice.core.ManualClock;
import io.sluice.api.InvalidOptionException;
import io.sluice.api.Offset;
import io.sluice.api.Options;
import io.sluice.api.ReadLimit;
import io.sluice.api.Row;
import io.sluice.api.source.MicroBatchStream;
import io.sluice.api.types.DataType;
import io.sluice.api.types.StructField;
import io.sluice.api.types.StructType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class MemoryStreamTest {
    private static final StructType SCHEMA = StructType.of(
            StructField.of("id", DataType.longType()), StructField.of("name", DataType.stringType()));
    private final MemorySourceProvider provider = new MemorySourceProvider();

    @TempDir
    Path dir;

    private MicroBatchStream open(MemoryStream input) {
        return StreamDriver.create(provider, Map.of("name", input.name()), dir, new ManualClock(0));
    }

    @Test
    void eachAddDataIsOneBlockAndOneOffset() {
        MemoryStream input = MemoryStream.create(SCHEMA);
        assertThat(input.name()).matches("memory-stream-\\d+");
        assertThat(MemoryStream.create(SCHEMA).name()).isNotEqualTo(input.name());
        assertThat(provider.resolveSchema(Options.of(Map.of("name", input.name())), Optional.empty()))
                .isEqualTo(SCHEMA);

        MicroBatchStream s = open(input);
        Offset start = s.initialOffset();
        assertThat(start.json()).isEqualTo("0");
        Offset nothing = s.latestOffset(start, ReadLimit.allAvailable());
        assertThat(nothing == null || nothing.json().equals("0")).isTrue();

        assertThat(input.addData(Row.of(1L, "a"), Row.of(2L, "b")).json()).isEqualTo("1");
        assertThat(input.addData(List.of(Row.of(3L, "c"))).json()).isEqualTo("2");
        Offset two = s.latestOffset(start, ReadLimit.allAvailable());
        assertThat(two.json()).isEqualTo("2");

        // one partition per block
        assertThat(StreamDriver.readPartitions(s, start, two)).containsExactly(
                List.of(Row.of(1L, "a"), Row.of(2L, "b")), List.of(Row.of(3L, "c")));
        assertThat(StreamDriver.read(s, s.deserializeOffset("1"), two)).containsExactly(Row.of(3L, "c"));
        // replay while not committed
        assertThat(StreamDriver.read(s, start, two)).hasSize(3);
        // rows carry the stream's schema
        assertThat(StreamDriver.read(s, start, two).get(0).<String>getAs("name")).isEqualTo("a");
        assertThat(s.description()).isEqualTo("MemoryStream[id,name]");
    }

    @Test
    void commitDiscardsBlocksAndAReplayOfThemFailsClearly() {
        MemoryStream input = MemoryStream.create(SCHEMA);
        MicroBatchStream s = open(input);
        input.addData(Row.of(1L, "a"));
        input.addData(Row.of(2L, "b"));
        input.addData(Row.of(3L, "c"));
        s.commit(s.deserializeOffset("1"));

        assertThat(StreamDriver.read(s, s.deserializeOffset("1"), s.deserializeOffset("3")))
                .containsExactly(Row.of(2L, "b"), Row.of(3L, "c"));
        assertThatThrownBy(() -> s.planPartitions(s.deserializeOffset("0"), s.deserializeOffset("2")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining(input.name())
                .hasMessageContaining("discarded by commit");
        assertThatThrownBy(() -> s.planPartitions(s.deserializeOffset("3"), s.deserializeOffset("5")))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("has only 3 blocks");

        s.commit(s.deserializeOffset("3"));
        assertThat(input.currentOffset().json()).isEqualTo("3");
        assertThat(input.addData(Row.of(4L, "d")).json()).isEqualTo("4");
        assertThat(StreamDriver.read(s, s.deserializeOffset("3"), s.latestOffset(s.deserializeOffset("3"),
                ReadLimit.allAvailable()))).containsExactly(Row.of(4L, "d"));
    }

    @Test
    void unknownOrMissingNameIsAClearError() {
        assertThatThrownBy(() -> provider.resolveSchema(Options.of(Map.of("name", "x")), Optional.empty()))
                .isInstanceOfSatisfying(InvalidOptionException.class, e -> {
                    assertThat(e.getMessage()).isEqualTo(
                            "No MemoryStream named 'x' exists in this JVM; create one with MemoryStream.create(schema)");
                    assertThat(e.option()).isEqualTo("name");
                });
        assertThatThrownBy(() -> provider.resolveSchema(Options.empty(), Optional.empty()))
                .isInstanceOf(InvalidOptionException.class).hasMessageContaining("option(\"name\", ...)");

        MemoryStream gone = MemoryStream.create(SCHEMA);
        gone.unregister();
        assertThatThrownBy(() -> provider.resolveSchema(Options.of(Map.of("name", gone.name())), Optional.empty()))
                .isInstanceOf(InvalidOptionException.class).hasMessageContaining(gone.name());
    }

    @Test
    void theSchemaIsTheStreams() {
        MemoryStream input = MemoryStream.create(SCHEMA);
        StructType other = StructType.of(StructField.of("id", DataType.longType()));
        assertThatThrownBy(() -> provider.resolveSchema(Options.of(Map.of("name", input.name())), Optional.of(other)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(input.name());
        assertThatThrownBy(() -> input.addData(Row.of(1L)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("has 1 values");
    }

    @Test
    void addDataIsThreadSafe() throws Exception {
        MemoryStream input = MemoryStream.create(SCHEMA);
        MicroBatchStream s = open(input);
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                long base = t * 1000L;
                futures.add(pool.submit(() -> {
                    for (int i = 0; i < 250; i++) {
                        input.addData(Row.of(base + i, "t"));
                    }
                }));
            }
            for (Future<?> f : futures) {
                f.get();
            }
        } finally {
            pool.shutdown();
        }
        Offset end = s.latestOffset(s.initialOffset(), ReadLimit.allAvailable());
        assertThat(end.json()).isEqualTo("1000");
        List<Row> rows = StreamDriver.read(s, s.initialOffset(), end);
        assertThat(rows).hasSize(1000);
        assertThat(rows.stream().map(r -> r.getLong(0)).distinct().count()).isEqualTo(1000);
    }
}
