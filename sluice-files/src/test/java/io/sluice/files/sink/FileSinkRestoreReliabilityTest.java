package io.sluice.files.sink;

import io.sluice.api.Row;
import io.sluice.api.sink.BatchInfo;
import io.sluice.api.sink.BatchWriter;
import io.sluice.api.sink.Sink;
import io.sluice.api.types.StructType;
import io.sluice.core.Backups;
import io.sluice.core.ManualClock;
import io.sluice.core.Sluice;
import io.sluice.core.StreamingQuery;
import io.sluice.core.StreamingQueryException;
import io.sluice.core.Trigger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Reliability (issue 14, item 1): a checkpoint restored from an older copy than the sink's output re-plans a batch
 * id the manifest already holds, over other input. The sink recorded what each batch was written for, so the query
 * fails with both plans and the two ways out, instead of skipping the batch and marking its files read; a re-run
 * after a crash (the same logged batch) is still skipped once.
 */
class FileSinkRestoreReliabilityTest {
    private static final long T0 = 1_790_899_200_000L;

    @TempDir
    Path tmp;
    private final ManualClock clock = new ManualClock(T0);

    private Path in() {
        return tmp.resolve("in");
    }

    private Path out() {
        return tmp.resolve("out");
    }

    private Path chk() {
        return tmp.resolve("chk");
    }

    private void input(String name, long id) throws IOException {
        Files.createDirectories(in());
        Files.writeString(in().resolve(name), "{\"id\":" + id + "}\n");
    }

    /** One availableNow run of json files into the json sink; returns the query (terminated). */
    private StreamingQuery run() throws Exception {
        try (Sluice sluice = Sluice.builder().clock(clock).build()) {
            StreamingQuery q = sluice.readStream().format("json").schema("id long").load(in().toString())
                    .writeStream().format("json").option("checkpointLocation", chk().toString())
                    .trigger(Trigger.availableNow()).start(out().toString());
            try {
                q.awaitTermination();
            } finally {
                q.stop();
            }
            return q;
        }
    }

    private List<String> rows() throws IOException {
        List<String> rows = new ArrayList<>();
        for (SinkFileStatus f : FileSinkManifest.allFiles(out())) {
            rows.addAll(Files.readAllLines(f.localPath()));
        }
        return rows;
    }

    private String queryId() throws IOException {
        String metadata = Files.readString(chk().resolve("metadata"));
        return metadata.substring(metadata.indexOf(":\"") + 2, metadata.lastIndexOf('"'));
    }

    @Test
    void aRestoredOlderCheckpointFailsWithBothPlansAndTheWaysOutInsteadOfSkippingTheBatch() throws Exception {
        input("a.json", 1);
        run();
        Backups.copy(chk(), tmp.resolve("backup-chk"));
        clock.advance(60_000);
        input("b.json", 2);
        run();
        assertThat(rows()).containsExactly("{\"id\":1}", "{\"id\":2}");

        Backups.restore(tmp.resolve("backup-chk"), chk());
        clock.advance(60_000);
        input("c.json", 3);
        String id = queryId();

        assertThatThrownBy(this::run).isInstanceOf(StreamingQueryException.class)
                .cause().isInstanceOf(IllegalStateException.class)
                .hasMessage("Batch 1 of query " + id + " is already in the file sink's output " + out() + ", written "
                        + "for another plan of that batch: offsets [{\"logOffset\":1}] planned at "
                        + Instant.ofEpochMilli(T0 + 60_000) + "; this run's checkpoint plans batch 1 as offsets "
                        + "[{\"logOffset\":1}] planned at " + Instant.ofEpochMilli(T0 + 120_000) + ". The checkpoint "
                        + "was restored from an older copy than the sink's output, so skipping the batch would lose "
                        + "its rows and mark them read. Either (a) start over with a fresh checkpoint and a new output "
                        + "folder (path), or (b) restore the sink's output to the same point as the checkpoint (e.g. "
                        + "restore both from the same backup), then restart.");
        // Nothing was skipped or marked read: batch 1 is not committed and the manifest is as it was.
        assertThat(chk().resolve("commits/1")).doesNotExist();
        assertThat(rows()).containsExactly("{\"id\":1}", "{\"id\":2}");
        // ... and the query fails the same way at every start until one of the ways out is taken.
        assertThatThrownBy(this::run).isInstanceOf(StreamingQueryException.class)
                .cause().hasMessageStartingWith("Batch 1 of query " + id + " is already in the file sink's output");
    }

    @Test
    void restoringTheOutputFromTheSameBackupAsTheCheckpointIsTheWayOut() throws Exception {
        input("a.json", 1);
        run();
        Backups.copy(chk(), tmp.resolve("backup-chk"));
        Backups.copy(out(), tmp.resolve("backup-out"));
        clock.advance(60_000);
        input("b.json", 2);
        run();

        Backups.restore(tmp.resolve("backup-chk"), chk());
        Backups.restore(tmp.resolve("backup-out"), out());
        clock.advance(60_000);
        input("c.json", 3);
        run();

        assertThat(rows()).containsExactlyInAnyOrder("{\"id\":1}", "{\"id\":2}", "{\"id\":3}");
        assertThat(chk().resolve("commits/1")).exists();
    }

    @Test
    void aBatchIdOlderThanTheRecordsKeptFailsToo() throws Exception {
        try (Sink sink = SinkHarness.sink("json", SinkHarness.options(out(), "minBatchesToRetain", "2"),
                StructType.fromDDL("id long"), clock)) {
            for (long id = 0; id < 4; id++) {
                BatchWriter w = sink.beginBatch(new BatchInfo(SinkHarness.QUERY_ID, id, T0 + id, List.of("{\"n\":"
                        + id + "}")));
                w.commit(SinkHarness.writePartitions(w, List.of(List.of(Row.of(id)))));
            }
            BatchInfo replanned = new BatchInfo(SinkHarness.QUERY_ID, 1, T0 + 99, List.of("{\"n\":1}"));

            assertThatThrownBy(() -> sink.beginBatch(replanned)).isInstanceOf(IllegalStateException.class)
                    .hasMessage(replanned.rangeConflict("the file sink's output " + out(), "a range no longer "
                            + "recorded (the sink keeps the ranges of its last 2 batches, and the manifest holds "
                            + "batches up to 3)", replanned.range(), "a new output folder (path)"));
            // The newest batch with its own identity is still a crash re-run: skipped.
            BatchWriter rerun = sink.beginBatch(new BatchInfo(SinkHarness.QUERY_ID, 3, T0 + 3, List.of("{\"n\":3}")));
            rerun.commit(SinkHarness.writePartitions(rerun, List.of(List.of(Row.of(3L)))));
            assertThat(rows()).containsExactly("{\"id\":0}", "{\"id\":1}", "{\"id\":2}", "{\"id\":3}");
        }
    }

    @Test
    void aReRunOfTheSameLoggedBatchAfterACrashIsStillSkippedOnce() throws Exception {
        input("a.json", 1);
        run();
        clock.advance(60_000);
        input("b.json", 2);
        run();
        // A crash after _spark_metadata/1 but before commits/1: the engine re-runs batch 1 with its logged range.
        Files.delete(chk().resolve("commits/1"));
        clock.advance(60_000);

        StreamingQuery q = run();

        assertThat(q.exception()).isEmpty();
        assertThat(chk().resolve("commits/1")).exists();
        assertThat(rows()).containsExactly("{\"id\":1}", "{\"id\":2}");
        assertThat(FileSinkManifest.latestBatchId(out())).hasValue(1);
    }
}
