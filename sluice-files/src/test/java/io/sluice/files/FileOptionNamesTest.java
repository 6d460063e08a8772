package io.sluice.files;

import io.sluice.api.InvalidOptionException;
import io.sluice.core.Sluice;
import io.sluice.core.StreamFrame;
import io.sluice.core.StreamingQuery;
import io.sluice.core.Trigger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The file source's and sink's declared options through the engine's name check (the providers as found). */
class FileOptionNamesTest {
    @TempDir
    Path tmp;
    private final Sluice sluice = Sluice.builder().config("sluice.options.unknown", "error").build();

    @AfterEach
    void close() {
        sluice.close();
    }

    @Test
    void aMisspeltFileSourceOptionFailsAtLoad() {
        assertThatThrownBy(() -> sluice.readStream().format("json").schema("a int")
                .option("maxFilesPerTriger", 10).load(tmp.toString()))
                .isInstanceOf(InvalidOptionException.class)
                .hasMessage("Unknown option 'maxFilesPerTriger' for source 'json': did you mean 'maxFilesPerTrigger'?");
        // The format's reading options are the source's too.
        assertThatThrownBy(() -> sluice.readStream().format("csv").schema("a int").option("heder", true)
                .load(tmp.toString()))
                .hasMessage("Unknown option 'heder' for source 'csv': did you mean 'header'?");
        assertThatThrownBy(() -> sluice.readStream().format("text").option("whole_text", true).load(tmp.toString()))
                .hasMessage("Unknown option 'whole_text' for source 'text': did you mean 'wholetext'?");
    }

    @Test
    void everyDeclaredOptionPassesTheNameCheck() {
        // Under sluice.options.unknown=error: the source's options, the format's, an alias, in any case.
        StreamFrame f = sluice.readStream().format("csv").schema("a int").option("MAXFILESPERTRIGGER", 1)
                .option("header", true).option("delimiter", ";").option("charset", "UTF-8").option("mode", "FAILFAST")
                .load(tmp.toString());
        assertThat(f.schema().toDDL()).isEqualTo("a INT");
    }

    @Test
    void aMisspeltFileSinkOrEngineOptionFailsAtStart() throws Exception {
        Files.writeString(tmp.resolve("a.json"), "{\"a\":1}\n");
        StreamFrame f = sluice.readStream().format("json").schema("a int").load(tmp.toString());
        Path out = tmp.resolve("out");
        assertThatThrownBy(() -> f.writeStream().format("json").option("checkpointLocaton", tmp.resolve("c").toString())
                .start(out.toString()))
                .isInstanceOf(InvalidOptionException.class)
                .hasMessage("Unknown option 'checkpointLocaton' for sink 'json': did you mean 'checkpointLocation'?");
        assertThatThrownBy(() -> f.writeStream().format("csv").option("delimeter", ";").start(out.toString()))
                .hasMessage("Unknown option 'delimeter' for sink 'csv': did you mean 'delimiter'?");
        // A csv option on the json sink is not declared there.
        assertThatThrownBy(() -> f.writeStream().format("json").option("quoteAll", true).start(out.toString()))
                .hasMessageStartingWith("Unknown option 'quoteAll' for sink 'json' (sluice.options.unknown=error): "
                        + "the declared options are path, partitionBy, compression, codec,");
        StreamingQuery q = f.writeStream().format("json").option("ignoreNullFields", false)
                .option("checkpointLocation", tmp.resolve("c").toString()).option("minBatchesToRetain", 5)
                .trigger(Trigger.availableNow()).start(out.toString());
        q.awaitTermination();
        assertThat(Files.exists(out.resolve("_spark_metadata/0"))).isTrue();
    }
}
