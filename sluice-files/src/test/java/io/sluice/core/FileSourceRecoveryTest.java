package io.sluice.core;

import io.sluice.api.Row;
import io.sluice.files.source.TestProviders;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The engine's recovery with the file source (in this package for the recording sink): a batch that failed after
 * its offsets were logged is re-run with exactly the files it had, even when new files arrived meanwhile.
 */
class FileSourceRecoveryTest {
    static final long T = 1_700_000_000_000L;

    @TempDir
    Path tmp;
    private final String name = "t-" + UUID.randomUUID();
    private final RecordingSink.State sink = RecordingSink.state(name);
    private Sluice sluice = Sluice.builder().parallelism(2).build().registerSource(TestProviders.json())
            .registerSink(new RecordingSink());

    @AfterEach
    void tearDown() {
        sluice.close();
        RecordingSink.reset(name);
    }

    private void write(Path dir, String file, long mtime, String json) throws Exception {
        Path p = dir.resolve(file);
        Files.writeString(p, json + "\n");
        Files.setLastModifiedTime(p, FileTime.fromMillis(mtime));
    }

    private StreamingQuery start(Path in, Path chk) {
        return sluice.readStream().format("json").schema("id long").option("maxFilesPerTrigger", 2)
                .load(in.toString()).writeStream().format("recording").option("name", name)
                .option("checkpointLocation", chk.toString()).trigger(Trigger.availableNow()).start();
    }

    @Test
    void aFailedBatchIsReRunWithExactlyItsLoggedFiles() throws Exception {
        Path in = Files.createDirectories(tmp.resolve("in"));
        Path chk = tmp.resolve("chk");
        write(in, "a.json", T + 2, "{\"id\":1}");
        write(in, "b.json", T + 3, "{\"id\":2}");
        sink.failBatch = 0;
        StreamingQuery q = start(in, chk);
        assertThatThrownBy(q::awaitTermination).isInstanceOf(StreamingQueryException.class);
        assertThat(Files.readString(chk.resolve("offsets/0"))).endsWith("\n{\"logOffset\":0}");
        assertThat(chk.resolve("commits/0")).doesNotExist();

        // An older file arrives: were batch 0 planned again, it would take it.
        write(in, "0.json", T, "{\"id\":0}");
        sink.failBatch = -1;
        StreamingQuery again = start(in, chk);
        again.awaitTermination();
        assertThat(sink.committed).isEqualTo(Map.of(0L, List.of(Row.of(1L), Row.of(2L)), 1L, List.of(Row.of(0L))));
        assertThat(sink.begun).containsExactly(0L, 0L, 1L);
    }
}
