package io.sluice.core;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** CheckpointView: the checkpoint read with the engine's own readers, without its lock, changing nothing. */
class CheckpointViewTest extends EngineTestBase {

    private static final String META = "{\"batchWatermarkMs\":0,\"batchTimestampMs\":1795936513465,\"conf\":"
            + "{\"spark.sql.shuffle.partitions\":\"200\"}}";

    /** Every path under the folder with its size and modification time: what "changed nothing" compares. */
    private static Map<String, String> tree(Path dir) throws IOException {
        Map<String, String> out = new TreeMap<>();
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : (Iterable<Path>) paths::iterator) {
                out.put(dir.relativize(p).toString(), Files.isDirectory(p) ? "dir"
                        : Files.size(p) + "@" + Files.getLastModifiedTime(p).toMillis());
            }
        }
        return out;
    }

    @Test
    void readsARunningQuerysCheckpointWhileItHoldsTheLockAndChangesNothing() throws Exception {
        source.add(3);
        StreamingQuery q = recording(scripted().load()).start();
        q.processAllAvailable();
        Map<String, String> before = tree(checkpoint);

        CheckpointView view = CheckpointView.open(checkpoint);

        assertThat(q.isActive()).isTrue();
        assertThat(tree(checkpoint)).isEqualTo(before);
        assertThat(view.path()).isEqualTo(checkpoint.toAbsolutePath().normalize());
        assertThat(view.queryId()).contains(q.id().toString());
        assertThat(view.metadataProblem()).isEmpty();
        assertThat(view.batches()).hasSize(1);
        CheckpointView.Batch batch = view.batches().get(0);
        assertThat(batch.batchId()).isZero();
        assertThat(batch.committed()).isTrue();
        assertThat(batch.problem()).isNull();
        assertThat(batch.offsets().sources()).containsExactly("3");
        assertThat(batch.offsets().batchWatermarkMs()).isZero();
        assertThat(batch.offsets().conf()).isEmpty();
        assertThat(view.committedBatchIds()).containsExactly(0L);
        assertThat(view.sourceFolders()).containsExactly(
                new CheckpointView.SourceFolder(0, checkpoint.toAbsolutePath().resolve("sources/0")));
        assertThat(view.rerunBatchId()).isEqualTo(OptionalLong.empty());
        q.stop();
    }

    @Test
    void aSparkCheckpointWithOnlyAnOffsetsFolderIsReadWithoutCreatingAnything() throws Exception {
        Path offsets = Files.createDirectories(checkpoint.resolve("offsets"));
        Files.writeString(offsets.resolve("0"), "v1\n" + META + "\n{\"logOffset\":0}\n-");
        Map<String, String> before = tree(checkpoint);

        CheckpointView view = CheckpointView.open(checkpoint);

        assertThat(tree(checkpoint)).isEqualTo(before); // no metadata, commits/, sources/ nor .lock created
        assertThat(view.queryId()).isEmpty();
        assertThat(view.metadataProblem()).isEmpty();
        CheckpointView.Offsets logged = view.batches().get(0).offsets();
        assertThat(logged.batchTimestampMs()).isEqualTo(1795936513465L);
        assertThat(logged.conf()).containsExactly(Map.entry("spark.sql.shuffle.partitions", "200"));
        assertThat(logged.sources()).containsExactly("{\"logOffset\":0}", null);
        assertThat(view.committedBatchIds()).isEmpty();
        assertThat(view.sourceFolders()).isEmpty();
        assertThat(view.rerunBatchId()).isEqualTo(OptionalLong.of(0));
    }

    @Test
    void eachBadFileIsItsBatchsProblemInTheEnginesWordsAndTheOthersAreStillRead() throws Exception {
        Path offsets = Files.createDirectories(checkpoint.resolve("offsets"));
        Files.createDirectories(checkpoint.resolve("commits"));
        Files.writeString(checkpoint.resolve("metadata"), "{\"id\":");
        Files.writeString(offsets.resolve("0"), "v1\n" + META + "\n{\"logOffset\":0}");
        Files.writeString(checkpoint.resolve("commits/0"), "v1\n{\"nextBatchWatermarkMs\":0}");
        Files.writeString(offsets.resolve("1"), "garbage");
        Files.writeString(offsets.resolve("2"), "v2\n" + META + "\n{\"logOffset\":2}");
        Files.writeString(offsets.resolve("3"), "v1\n" + META + "\n{\"logOffset\":");
        Files.createDirectory(offsets.resolve("4"));
        Files.writeString(offsets.resolve("5"), "");

        CheckpointView view = CheckpointView.open(checkpoint);

        assertThat(view.queryId()).isEmpty();
        assertThat(view.metadataProblem()).contains("it is not valid JSON");
        assertThat(view.batches()).extracting(CheckpointView.Batch::batchId, CheckpointView.Batch::committed,
                CheckpointView.Batch::problem).containsExactly(
                org.assertj.core.groups.Tuple.tuple(0L, true, null),
                org.assertj.core.groups.Tuple.tuple(1L, false, "line 1 should be the version \"v1\" but is "
                        + "\"garbage\""),
                org.assertj.core.groups.Tuple.tuple(2L, false, "it was written in format v2; this version reads v1"),
                org.assertj.core.groups.Tuple.tuple(3L, false, "line 3 (the offset of source 0) is not valid JSON"),
                org.assertj.core.groups.Tuple.tuple(4L, false, "it is a folder, not a regular file"),
                org.assertj.core.groups.Tuple.tuple(5L, false, "it is empty"));
        assertThat(view.batch(0).orElseThrow().offsets().sources()).containsExactly("{\"logOffset\":0}");
        assertThat(view.rerunBatchId()).isEqualTo(OptionalLong.of(5));
    }

    @Test
    void notACheckpoint() throws IOException {
        Path missing = tmp.resolve("missing");
        assertThatThrownBy(() -> CheckpointView.open(missing)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("No checkpoint at " + missing + ": no such folder");
        Path file = Files.writeString(tmp.resolve("file"), "x");
        assertThatThrownBy(() -> CheckpointView.open(file)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("No checkpoint at " + file + ": it is not a folder");
        Path empty = Files.createDirectory(tmp.resolve("empty"));
        assertThatThrownBy(() -> CheckpointView.open(empty)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage(empty + " is not a checkpoint: it has no metadata file and no offsets folder");
        try (Stream<Path> left = Files.list(empty)) {
            assertThat(left).isEmpty();
        }
    }

    @Test
    void theRecordsAreImmutable() throws Exception {
        source.add(3);
        StreamingQuery q = recording(scripted().load()).start();
        q.processAllAvailable();
        q.stop();
        CheckpointView view = CheckpointView.open(checkpoint);
        List<String> sources = view.batches().get(0).offsets().sources();
        assertThatThrownBy(() -> sources.add("x")).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> view.batches().clear()).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> view.batches().get(0).offsets().conf().put("k", "v"))
                .isInstanceOf(UnsupportedOperationException.class);
    }
}
