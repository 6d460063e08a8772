package io.sluice.core;

import io.sluice.api.OptionDef;
import io.sluice.api.OptionSet;
import io.sluice.api.Options;
import io.sluice.api.source.MicroBatchStream;
import io.sluice.api.source.SourceProvider;
import io.sluice.api.source.StreamContext;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The engine's storage settings ({@code fs.*}, {@code spark.hadoop.fs.*}) reach a source that declares the option
 * prefix {@code fs.}, under its own options; any other source gets its options as given.
 */
class EngineStorageConfTest {

    private static SourceProvider source(OptionSet options) {
        return new SourceProvider() {
            @Override
            public String shortName() {
                return "t";
            }

            @Override
            public OptionSet options() {
                return options;
            }

            @Override
            public MicroBatchStream createStream(StreamContext context) {
                throw new UnsupportedOperationException();
            }
        };
    }

    private static final Map<String, String> ENGINE = new LinkedHashMap<>();

    static {
        ENGINE.put("fs.s3a.endpoint", "http://engine:1");
        ENGINE.put("spark.hadoop.fs.s3a.path.style.access", "true");
        ENGINE.put("spark.hadoop.fs.s3a.access.key", "engine-key");
        ENGINE.put("fs.s3a.connection.ssl.enabled", "false");
        ENGINE.put("spark.hadoop.fs.s3a.connection.ssl.enabled", "true"); // later wins, as for the checkpoint
        ENGINE.put("sluice.options.unknown", "warn");
        ENGINE.put("spark.hadoop.mapreduce.x", "y");
    }

    @Test
    void aSourceDeclaringFsGetsTheEngineSettingsUnderItsOwnOptions() {
        SourceProvider files = source(OptionSet.of(OptionDef.string("path", "p")).withPrefixes("fs.", "spark.hadoop."));
        Options given = Options.of(Map.of("path", "s3a://b/in", "FS.S3A.ENDPOINT", "http://mine:2",
                "spark.hadoop.fs.s3a.access.key", "my-key"));
        Options out = DataStreamReader.withEngineStorageConf(files, given, ENGINE);
        assertThat(out.asMap()).containsOnlyKeys("path", "FS.S3A.ENDPOINT", "spark.hadoop.fs.s3a.access.key",
                "fs.s3a.path.style.access", "fs.s3a.connection.ssl.enabled");
        assertThat(out.get("fs.s3a.endpoint")).contains("http://mine:2");
        assertThat(out.get("spark.hadoop.fs.s3a.access.key")).contains("my-key");
        assertThat(out.get("fs.s3a.path.style.access")).contains("true");
        assertThat(out.get("fs.s3a.connection.ssl.enabled")).contains("true");
    }

    @Test
    void anyOtherSourceGetsItsOptionsAsGiven() {
        Options given = Options.of(Map.of("kafka.bootstrap.servers", "h:9092"));
        assertThat(DataStreamReader.withEngineStorageConf(source(OptionSet.of(OptionDef.string("a", "a"))
                .withPrefixes("kafka.")), given, ENGINE)).isSameAs(given);
        assertThat(DataStreamReader.withEngineStorageConf(source(OptionSet.undeclared()), given, ENGINE))
                .isSameAs(given);
    }
}
