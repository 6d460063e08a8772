package io.sluice.files.source;

import io.sluice.api.InvalidOptionException;
import io.sluice.api.Durations;
import io.sluice.api.Options;
import io.sluice.api.types.StructType;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Every option's default, accepted values and exact error, checked at load() as Spark checks them. */
class FileSourceOptionsTest {
    static final StructType SCHEMA = StructType.fromDDL("id long, name string");

    @TempDir
    Path tmp;
    Path in;

    @BeforeEach
    void setUp() throws Exception {
        in = Files.createDirectories(tmp.resolve("in"));
    }

    private Map<String, String> opts(String... kv) {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("path", in.toString());
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        return m;
    }

    private StructType load(Map<String, String> options) {
        return TestProviders.json().resolveSchema(Options.of(options), Optional.of(SCHEMA));
    }

    private void refused(Map<String, String> options, String option, String message) {
        assertThatThrownBy(() -> load(options)).isInstanceOf(InvalidOptionException.class).hasMessage(message)
                .extracting(e -> ((InvalidOptionException) e).option()).isEqualTo(option);
    }

    @Test
    void defaultsAreSparks() {
        FileSourceOptions o = FileSourceOptions.parse(Options.of(opts()));
        assertThat(o.maxFilesPerTrigger()).isEmpty();
        assertThat(o.maxBytesPerTrigger()).isEmpty();
        assertThat(o.latestFirst()).isFalse();
        assertThat(o.maxFileAgeMs()).isEqualTo(7L * 24 * 3600 * 1000);
        assertThat(o.fileNameOnly()).isFalse();
        assertThat(o.maxCachedFiles()).isEqualTo(10_000);
        assertThat(o.discardCachedInputRatio()).isEqualTo(0.2f);
        assertThat(o.cleanSource()).isEqualTo(FileSourceOptions.CleanSource.OFF);
        assertThat(o.inferSchema()).isFalse();
        assertThat(o.failOnFileChange()).isFalse();
        assertThat(o.effectiveMaxFileAgeMs()).isEqualTo(o.maxFileAgeMs());
    }

    @Test
    void keysAreCaseInsensitiveAndValuesParseAsSparkParsesThem() {
        FileSourceOptions o = FileSourceOptions.parse(Options.of(opts("MAXFILESPERTRIGGER", "5", "latestfirst",
                "TRUE", "maxFileAge", "90m", "maxcachedfiles", "0", "discardCachedInputRatio", "1",
                "cleansource", "Delete", "fileNameOnly", "False")));
        assertThat(o.maxFilesPerTrigger()).contains(5);
        assertThat(o.latestFirst()).isTrue();
        assertThat(o.maxFileAgeMs()).isEqualTo(90L * 60 * 1000);
        assertThat(o.effectiveMaxFileAgeMs()).isEqualTo(Long.MAX_VALUE); // latestFirst with a cap
        assertThat(o.maxCachedFiles()).isZero();
        assertThat(o.discardCachedInputRatio()).isEqualTo(1f);
        assertThat(o.cleanSource()).isEqualTo(FileSourceOptions.CleanSource.DELETE);
        FileSourceOptions bytes = FileSourceOptions.parse(Options.of(opts("maxBytesPerTrigger", "1048576")));
        assertThat(bytes.maxBytesPerTrigger()).contains(1_048_576L);
    }

    @Test
    void maxFilesPerTrigger() {
        for (String bad : new String[]{"0", "-1", "x", "1.5", "3000000000"}) {
            refused(opts("maxFilesPerTrigger", bad), "maxFilesPerTrigger",
                    "Invalid value '" + bad + "' for option 'maxFilesPerTrigger', must be a positive integer");
        }
    }

    @Test
    void maxBytesPerTrigger() {
        for (String bad : new String[]{"0", "-5", "10m", "1e6"}) {
            refused(opts("maxBytesPerTrigger", bad), "maxBytesPerTrigger",
                    "Invalid value '" + bad + "' for option 'maxBytesPerTrigger', must be a positive integer");
        }
        refused(opts("maxFilesPerTrigger", "1", "maxBytesPerTrigger", "100"), "maxBytesPerTrigger",
                "Options 'maxFilesPerTrigger' and 'maxBytesPerTrigger' can't be both set at the same time");
    }

    @Test
    void booleans() {
        for (String key : new String[]{"latestFirst", "fileNameOnly", "inferSchema", "failOnFileChange"}) {
            refused(opts(key, "yes"), key, "Invalid value 'yes' for option '" + key + "', must be 'true' or 'false'");
        }
    }

    @Test
    void maxFileAge() {
        refused(opts("maxFileAge", "soon"), "maxFileAge", Durations.TIME_STRING_ERROR
                + "\nFailed to parse time string: soon");
        refused(opts("maxFileAge", "7w"), "maxFileAge", Durations.TIME_STRING_ERROR + "\nInvalid suffix: \"w\"");
        refused(opts("maxFileAge", "-1d"), "maxFileAge", "Invalid value '-1d' for option 'maxFileAge': a "
                + "non-negative duration is accepted");
    }

    @Test
    void maxCachedFilesAndDiscardCachedInputRatio() {
        refused(opts("maxCachedFiles", "-1"), "maxCachedFiles", "Invalid value '-1' for option 'maxCachedFiles', "
                + "must be an integer greater than or equal to 0");
        for (String bad : new String[]{"1.5", "-0.1", "NaN", "half"}) {
            refused(opts("discardCachedInputRatio", bad), "discardCachedInputRatio", "Invalid value '" + bad
                    + "' for option 'discardCachedInputRatio', must be a positive float between 0 and 1");
        }
    }

    @Test
    void cleanSourceAndSourceArchiveDir() {
        refused(opts("cleanSource", "move"), "cleanSource",
                "Invalid mode for clean source option move. Must be one of ARCHIVE,DELETE,OFF");
        refused(opts("cleanSource", "archive"), "sourceArchiveDir",
                "Archive mode must be used with 'sourceArchiveDir' option.");
        String matches = "Base archive path cannot be set to the path where archived path can possibly match with "
                + "source pattern. Ensure the base archive path doesn't match with source pattern in depth, where "
                + "the depth is minimum of depth on both paths.";
        // Under the source folder: archived files would be listed again.
        refused(opts("cleanSource", "archive", "sourceArchiveDir", in.resolve("archive").toString()),
                "sourceArchiveDir", matches);
        refused(opts("cleanSource", "archive", "sourceArchiveDir", in.toString()), "sourceArchiveDir", matches);
        // Spark's examples: source /hello?/spark/* refuses /hello1/spark/archive/dir and /hello1/spark.
        Map<String, String> glob = opts("cleanSource", "archive");
        glob.put("path", tmp + "/hello?/spark/*");
        glob.put("sourceArchiveDir", tmp + "/hello1/spark/archive/dir");
        refused(glob, "sourceArchiveDir", matches);
        glob.put("sourceArchiveDir", tmp + "/hello1/spark");
        refused(glob, "sourceArchiveDir", matches);
        glob.put("sourceArchiveDir", tmp + "/hello1/other/archive");
        assertThat(load(glob)).isEqualTo(SCHEMA);
        glob.put("sourceArchiveDir", tmp + "/archive/*");
        refused(glob, "sourceArchiveDir", matches);
        assertThat(load(opts("cleanSource", "archive", "sourceArchiveDir", tmp.resolve("archive").toString())))
                .isEqualTo(SCHEMA);
        assertThat(load(opts("cleanSource", "off", "sourceArchiveDir", in.toString()))).isEqualTo(SCHEMA);
    }

    @Test
    void modifiedBeforeAndAfterAreRefusedInAStream() {
        for (String key : new String[]{"modifiedBefore", "modifiedAfter"}) {
            refused(opts(key, "2026-01-01T00:00:00"), key, "option '" + key + "' is not allowed in file stream "
                    + "sources: a stream keeps finding files that appear after it started, so a fixed "
                    + "modification-time window would drop them silently; use maxFileAge to skip old files");
        }
    }

    @Test
    void path() {
        Map<String, String> none = opts();
        none.remove("path");
        refused(none, "path", "'path' is not specified");
        refused(opts("path", tmp + "/nope"), "path", "[PATH_NOT_FOUND] Path does not exist: file:" + tmp + "/nope.");
        refused(opts("path", in + "," + tmp), "path", "Invalid value '" + in + "," + tmp + "' for option 'path': a "
                + "file source reads one path, a directory or a glob, not a comma-separated list of paths. Use a "
                + "glob such as /data/{a,b} or start one query per path");
        // A glob need not match anything yet; a comma inside {..} is the glob's.
        assertThat(load(opts("path", tmp + "/later/*"))).isEqualTo(SCHEMA);
        assertThat(load(opts("path", tmp + "/{in,out}"))).isEqualTo(SCHEMA);
        assertThat(load(opts("path", "file://" + in))).isEqualTo(SCHEMA);
    }

    @Test
    void aSchemaIsRequiredExceptForText() {
        assertThatThrownBy(() -> TestProviders.json().resolveSchema(Options.of(opts()), Optional.empty()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Schema must be specified when creating a streaming source DataFrame. If some files "
                        + "already exist in the directory, then depending on the file format you may be able to "
                        + "create a static DataFrame on that directory with 'spark.read.load(directory)' and infer "
                        + "schema from it. (Sluice: call schema(\"col type, ...\"), or set option inferSchema=true "
                        + "to infer it from the files present at start, which is unsafe across restarts.)");
        assertThat(TestProviders.text().resolveSchema(Options.of(opts()), Optional.empty()))
                .isEqualTo(StructType.fromDDL("value string"));
    }

    @Test
    void inferenceOnlyWhenAskedFromTheFilesPresentPlusTheirPartitionFolders() {
        TestFiles.write(in, "day=2026-10-04/n=3/a.json", "{\"id\":1,\"name\":\"x\",\"ok\":true}\n", 1000);
        TestFiles.write(in, "day=2026-10-05/n=4/b.json", "{\"id\":2,\"name\":\"y\",\"ok\":false}\n", 2000);
        StructType s = TestProviders.json().resolveSchema(Options.of(opts("inferSchema", "true")), Optional.empty());
        assertThat(s).isEqualTo(StructType.fromDDL("id bigint, name string, ok boolean, day date, n int"));
        // The newest files come first in the sample.
        assertThat(TestFormats.INSTANCE.lastInferred).extracting(p -> p.getFileName().toString())
                .containsExactly("b.json", "a.json");
        Path empty = tmp.resolve("empty");
        assertThatThrownBy(() -> TestProviders.json().resolveSchema(Options.of(opts("path", tmp + "/empty/*",
                "inferSchema", "true")), Optional.empty())).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Unable to infer schema for JSON. It must be specified manually.");
        assertThat(empty).doesNotExist();
    }

    @Test
    void formatOptionsAreTheFormatsToCheck() {
        assertThatThrownBy(() -> load(opts("mode", "PERMISSIVE"))).isInstanceOf(InvalidOptionException.class)
                .hasMessageContaining("'mode'");
    }

    @Test
    void listingModeOptionsAreCheckedNamingOptionValueAndWhatIsAccepted() {
        FileSourceOptions o = FileSourceOptions.parse(Options.of(opts()));
        assertThat(o.useIncrementalListing()).isFalse();
        assertThat(o.useNotifications()).isFalse();
        assertThat(o.queueUrl()).isEmpty();
        assertThat(o.backfillIntervalMs()).isEqualTo(3_600_000L);
        assertThat(FileSourceOptions.parse(Options.of(opts("useIncrementalListing", "TRUE", "backfillInterval",
                "30m"))).backfillIntervalMs()).isEqualTo(1_800_000L);
        refused(opts("useIncrementalListing", "yes"), "useIncrementalListing",
                "Invalid value 'yes' for option 'useIncrementalListing', must be 'true' or 'false'");
        refused(opts("useNotifications", "1"), "useNotifications",
                "Invalid value '1' for option 'useNotifications', must be 'true' or 'false'");
        refused(opts("useNotifications", "true"), "queueUrl", "Option 'queueUrl' is missing: useNotifications=true "
                + "reads S3 event notifications from an SQS queue; give its URL, such as "
                + "https://sqs.us-east-1.amazonaws.com/123456789012/landing-events");
        refused(opts("useNotifications", "true", "queueUrl", " "), "queueUrl", "Option 'queueUrl' is missing: "
                + "useNotifications=true reads S3 event notifications from an SQS queue; give its URL, such as "
                + "https://sqs.us-east-1.amazonaws.com/123456789012/landing-events");
        refused(opts("useNotifications", "true", "queueUrl", "http://q/1/x", "useIncrementalListing", "true"),
                "useIncrementalListing", "Options 'useIncrementalListing' and 'useNotifications' can't be both "
                        + "true: with notifications the source lists only at start and every backfillInterval; set "
                        + "one of them");
        refused(opts("backfillInterval", "0s"), "backfillInterval", "Invalid value '0s' for option "
                + "'backfillInterval': a positive duration such as 30m, 1h or 1d is accepted (the time between two "
                + "full listings)");
        refused(opts("backfillInterval", "-1h"), "backfillInterval", "Invalid value '-1h' for option "
                + "'backfillInterval': a non-negative duration is accepted");
        assertThatThrownBy(() -> load(opts("backfillInterval", "daily"))).isInstanceOf(InvalidOptionException.class)
                .hasMessage(Durations.TIME_STRING_ERROR + "\nFailed to parse time string: daily");
    }
}
