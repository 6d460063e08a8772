package io.sluice.core;

import io.sluice.api.InvalidOptionException;
import io.sluice.api.Options;
import io.sluice.api.sink.Sink;
import io.sluice.api.sink.SinkContext;
import io.sluice.api.sink.SinkProvider;
import io.sluice.api.source.MicroBatchStream;
import io.sluice.api.source.SourceProvider;
import io.sluice.api.source.StreamContext;
import io.sluice.api.types.StructType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A start() that fails leaves no folder it created; checkpointLocation refuses schemes other than file:. */
class StartFailureTest extends EngineTestBase {

    /** A source whose stream cannot be built. */
    private static final class FailingSource implements SourceProvider {
        @Override
        public String shortName() {
            return "failing-source";
        }

        @Override
        public Optional<StructType> fixedSchema(Options options) {
            return Optional.of(ScriptedSource.SCHEMA);
        }

        @Override
        public MicroBatchStream createStream(StreamContext context) {
            throw new IllegalStateException("cannot connect");
        }
    }

    /** A sink whose options pass validate() but which cannot be built. */
    private static final class FailingSink implements SinkProvider {
        @Override
        public String shortName() {
            return "failing-sink";
        }

        @Override
        public Sink createSink(SinkContext context) {
            throw new InvalidOptionException("bucket", "nope", "an existing bucket is accepted");
        }
    }

    private StreamingQuery startFailingSource(Path chk) {
        sluice.registerSource(new FailingSource());
        return sluice.readStream().format("failing-source").load().writeStream().format("recording")
                .option("name", name).option("checkpointLocation", chk.toString()).start();
    }

    @Test
    void aSourceThatCannotBeBuiltLeavesNoCheckpointFolderNorTheParentsStartCreated() {
        Path chk = tmp.resolve("a/b/chk");

        assertThatThrownBy(() -> startFailingSource(chk)).hasMessage("cannot connect");

        assertThat(tmp.resolve("a")).doesNotExist();
        assertThat(tmp).isEmptyDirectory();
    }

    @Test
    void aSinkThatCannotBeBuiltLeavesNoCheckpointFolder() {
        sluice.registerSink(new FailingSink());
        Path chk = tmp.resolve("chk");

        assertThatThrownBy(() -> scripted().load().writeStream().format("failing-sink")
                .option("checkpointLocation", chk.toString()).start())
                .hasMessage("Invalid value 'nope' for option 'bucket': an existing bucket is accepted");

        assertThat(chk).doesNotExist();
    }

    @Test
    void aFolderThatExistedIsKeptWithWhatItHeld() throws Exception {
        Path existing = Files.createDirectories(tmp.resolve("existing"));
        Files.writeString(existing.resolve("notes.txt"), "mine");
        Path chk = existing.resolve("new/chk");

        assertThatThrownBy(() -> startFailingSource(chk)).hasMessage("cannot connect");

        assertThat(existing.resolve("new")).doesNotExist();
        assertThat(existing).isDirectory();
        assertThat(existing.resolve("notes.txt")).hasContent("mine");
    }

    @Test
    void anExistingCheckpointIsKeptWhenStartFails() throws Exception {
        source.add(2);
        StreamingQuery first = recording(scripted().load()).start();
        first.processAllAvailable();
        first.stop();

        assertThatThrownBy(() -> startFailingSource(checkpoint)).hasMessage("cannot connect");

        assertThat(read("commits/0")).isEqualTo("v1\n{\"nextBatchWatermarkMs\":0}");
        assertThat(exists("offsets/0")).isTrue();
    }

    @Test
    void aCheckpointHeldByAnotherQueryIsKept() {
        StreamingQuery first = recording(scripted().load()).start();
        try {
            assertThatThrownBy(() -> recording(scripted().load()).start())
                    .isInstanceOf(CheckpointLockedException.class);
            assertThat(exists("metadata")).isTrue();
            assertThat(first.isActive()).isTrue();
        } finally {
            first.stop();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"s3://bucket/chk", "s3a://bucket/chk", "hdfs://namenode:8020/chk", "hdfs:/chk",
            "gs://bucket/chk", "abfss://container@account.dfs.core.windows.net/chk",
            "wasbs://container@account.blob.core.windows.net/chk", "my-store+v2.x://chk"})
    void aCheckpointLocationWithAnotherSchemeIsRefusedBeforeAnythingIsCreated(String location) {
        String scheme = location.substring(0, location.indexOf(':'));

        assertThatThrownBy(() -> scripted().load().writeStream().format("recording").option("name", name)
                .option("checkpointLocation", location).start())
                .isInstanceOf(InvalidOptionException.class)
                .hasMessage("Invalid value '" + location + "' for option 'checkpointLocation': the scheme '" + scheme
                        + "' of " + location + " has no storage on the class path: " + (scheme.startsWith("s3")
                        ? "add the module sluice-s3 (its jar, or its plugin jar for the sluice CLI)"
                        : "Sluice supports local paths (/data/in, file:/data/in) and, with the module sluice-s3, "
                        + "s3:// and s3a://"));

        assertThat(Path.of(scheme + ":")).doesNotExist(); // what Path.of(location) used to create
        assertThat(sink.begun).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"file:", "file:///"})
    void aCheckpointLocationMayBeAFileUri(String prefix) throws Exception {
        source.add(2);
        Path chk = tmp.resolve("uri chk");
        String location = prefix.equals("file:") ? "file:" + chk : "file://" + chk.toString().replace(" ", "%20");

        StreamingQuery q = scripted().load().writeStream().format("recording").option("name", name)
                .option("checkpointLocation", location).start();
        q.processAllAvailable();
        q.stop();

        assertThat(Files.readString(chk.resolve("commits/0"))).isEqualTo("v1\n{\"nextBatchWatermarkMs\":0}");
        assertThat(sink.allRows()).containsExactlyInAnyOrderElementsOf(rows(1, 2));
    }
}
