package io.sluice.core;

import io.sluice.api.Row;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import java.util.stream.LongStream;

/** Shared set-up: a Sluice with the scripted source and the recording sink, a fresh checkpoint folder per test. */
abstract class EngineTestBase {
    @TempDir
    Path tmp;
    Path checkpoint;
    String name;
    ScriptedSource.State source;
    RecordingSink.State sink;
    Sluice sluice;

    @BeforeEach
    void setUpEngine() {
        checkpoint = tmp.resolve("chk");
        name = "t-" + UUID.randomUUID();
        source = ScriptedSource.state(name);
        sink = RecordingSink.state(name);
        sluice = newSluice(io.sluice.api.SluiceClock.system());
    }

    Sluice newSluice(io.sluice.api.SluiceClock clock) {
        return Sluice.builder().clock(clock).parallelism(2).build()
                .registerSource(new ScriptedSource()).registerSink(new RecordingSink());
    }

    @AfterEach
    void tearDownEngine() {
        sluice.close();
        ScriptedSource.reset(name);
        RecordingSink.reset(name);
    }

    DataStreamReader scripted() {
        return sluice.readStream().format("scripted").option("name", name);
    }

    DataStreamWriter recording(StreamFrame frame) {
        return frame.writeStream().format("recording").option("name", name)
                .option("checkpointLocation", checkpoint.toString());
    }

    /**
     * Waits for {@code release} the way a badly behaved source or reader does: an interrupt is swallowed and the
     * wait goes on, so the call ends only when the test releases it.
     */
    static void awaitIgnoringInterrupts(java.util.concurrent.CountDownLatch release) {
        while (true) {
            try {
                release.await();
                return;
            } catch (InterruptedException ignored) {
                // swallowed on purpose
            }
        }
    }

    static List<Row> rows(long fromInclusive, long toInclusive) {
        return LongStream.rangeClosed(fromInclusive, toInclusive).mapToObj(Row::of).toList();
    }

    String read(String relative) throws IOException {
        return Files.readString(checkpoint.resolve(relative));
    }

    boolean exists(String relative) {
        return Files.exists(checkpoint.resolve(relative));
    }
}
