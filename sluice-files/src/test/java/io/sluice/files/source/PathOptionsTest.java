package io.sluice.files.source;

import io.sluice.api.InvalidOptionException;
import io.sluice.api.Row;
import io.sluice.api.types.StructType;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Files;
import java.nio.file.Path;

import static io.sluice.files.source.TestFiles.json;
import static io.sluice.files.source.TestFiles.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The options about which files are read: path schemes and file: URIs, pathGlobFilter, recursiveFileLookup. */
class PathOptionsTest {
    static final long T = 1_700_000_000_000L;
    static final StructType WITH_DAY = StructType.fromDDL("id long, name string, day string");

    @TempDir
    Path tmp;
    Path in;
    Harness h;

    @BeforeEach
    void setUp() throws Exception {
        in = Files.createDirectories(tmp.resolve("in"));
        h = new Harness(in, Files.createDirectories(tmp.resolve("chk/sources/0")));
    }

    /** A scheme no module on the class path serves (sluice-s3 is not on this module's): the message names it. */
    private static String notSupported(String value, String option) {
        String scheme = value.substring(0, value.indexOf(':'));
        return "Invalid value '" + value + "' for option '" + option + "': the scheme '" + scheme + "' of " + value
                + " has no storage on the class path: " + (scheme.startsWith("s3")
                ? "add the module sluice-s3 (its jar, or its plugin jar for the sluice CLI)"
                : "Sluice supports local paths (/data/in, file:/data/in) and, with the module sluice-s3, s3:// and "
                + "s3a://");
    }

    @ParameterizedTest
    @ValueSource(strings = {"s3://bucket/landing", "s3a://bucket/landing", "hdfs://nn:8020/landing",
            "gs://bucket/landing/*.json", "abfss://c@a.dfs.core.windows.net/landing", "wasbs://c@a/landing",
            "x-y.z+w://landing"})
    void aSourcePathWithAnotherSchemeIsRefusedAtLoad(String value) {
        h.options.put("path", value);
        assertThatThrownBy(h::open).isInstanceOf(InvalidOptionException.class)
                .hasMessage(notSupported(value, "path"))
                .extracting(e -> ((InvalidOptionException) e).option()).isEqualTo("path");
    }

    @ParameterizedTest
    @ValueSource(strings = {"s3a://bucket/archive", "hdfs:/archive"})
    void aSourceArchiveDirWithAnotherSchemeIsRefusedWhetherOrNotItIsUsed(String value) {
        for (String clean : new String[]{"archive", "off"}) {
            h.option("cleanSource", clean).option("sourceArchiveDir", value);
            assertThatThrownBy(h::open).isInstanceOf(InvalidOptionException.class)
                    .hasMessage(notSupported(value, "sourceArchiveDir"));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"file:", "file://", "file://localhost"})
    void fileUrisAreReadIncludingGlobs(String prefix) {
        json(in, "day=1/a.json", T, 1);
        json(in, "day=2/b.json", T + 1, 2);
        json(in, "night=3/c.json", T + 2, 3);
        h.schema = WITH_DAY;
        h.options.put("path", prefix + in + "/day=*");
        h.open();
        assertThat(h.batch()).containsExactly(Row.of(1L, "n1", "1"), Row.of(2L, "n2", "2"));
    }

    @Test
    void aFileUriWithEscapesNamesTheDecodedFolder() throws Exception {
        Path spaced = Files.createDirectories(tmp.resolve("in put"));
        json(spaced, "a.json", T, 7);
        h.options.put("path", "file://" + tmp + "/in%20put");
        h.open();
        assertThat(h.batch()).containsExactly(Row.of(7L, "n7"));
    }

    // ---------------------------------------------------------------- pathGlobFilter

    @Test
    void pathGlobFilterKeepsTheFilesWhoseNameMatchesInEveryFolderAndKeepsPartitionDiscovery() {
        h.schema = WITH_DAY;
        json(in, "day=1/a.json", T, 1);
        write(in, "day=1/b.txt", "{\"id\":2,\"name\":\"n2\"}\n", T + 1);
        json(in, "day=2/c.json", T + 2, 3);
        // A folder's name is never filtered: x.txt/ is walked, and only its .json file is read.
        write(in, "day=2/x.txt/d.txt", "{\"id\":4,\"name\":\"n4\"}\n", T + 3);
        json(in, "day=2/x.txt/e.json", T + 4, 5);
        h.option("pathGlobFilter", "*.json");
        h.open();
        assertThat(h.batch()).containsExactly(Row.of(1L, "n1", "1"), Row.of(3L, "n3", "2"), Row.of(5L, "n5", "2"));

        // Later files are filtered the same way.
        write(in, "day=3/f.txt", "{\"id\":6,\"name\":\"n6\"}\n", T + 5);
        json(in, "day=3/g.json", T + 6, 7);
        assertThat(h.batch()).containsExactly(Row.of(7L, "n7", "3"));
        assertThat(h.batch()).isNull();
    }

    @Test
    void pathGlobFilterTakesHadoopGlobSyntax() {
        json(in, "part-0.json", T, 1);
        json(in, "part-1.jsonl", T + 1, 2);
        json(in, "part-2.csv", T + 2, 3);
        json(in, "other-3.json", T + 3, 4);
        json(in, "part-a.json", T + 4, 5);
        h.option("pathGlobFilter", "part-[^a].{json,jsonl}");
        h.open();
        assertThat(h.batch()).containsExactly(Row.of(1L, "n1"), Row.of(2L, "n2"));
    }

    @Test
    void pathGlobFilterAppliesToASingleFilePath() {
        Path file = json(in, "a.json", T, 1);
        h.options.put("path", file.toString());
        h.option("pathGlobFilter", "*.csv");
        h.open();
        assertThat(h.batch()).isNull();
    }

    @Test
    void aPathGlobFilterThatIsNotAGlobIsRefusedAtLoad() {
        String accepted = "; a glob matched against file names is accepted, such as *.json, part-*.csv or "
                + "*.{json,jsonl}";
        h.option("pathGlobFilter", "[ab");
        assertThatThrownBy(h::open).isInstanceOf(InvalidOptionException.class)
                .hasMessage("Invalid value '[ab' for option 'pathGlobFilter': Illegal file pattern: '[' is not "
                        + "closed by ']'" + accepted)
                .extracting(e -> ((InvalidOptionException) e).option()).isEqualTo("pathGlobFilter");
        h.option("pathGlobFilter", "*.{json,csv");
        assertThatThrownBy(h::open).hasMessage("Invalid value '*.{json,csv' for option 'pathGlobFilter': Illegal "
                + "file pattern: '{' is not closed by '}'" + accepted);
        h.option("pathGlobFilter", "{a,{b}}");
        assertThatThrownBy(h::open).hasMessage("Invalid value '{a,{b}}' for option 'pathGlobFilter': Illegal "
                + "file pattern: '{..}' groups cannot be nested" + accepted);
    }

    // ---------------------------------------------------------------- recursiveFileLookup

    @Test
    void withoutRecursiveFileLookupPartitionFoldersFillColumnsAndMustStayTheSame() {
        h.schema = WITH_DAY;
        json(in, "day=1/a.json", T, 1);
        json(in, "x/y/b.json", T + 1, 2);
        h.open();
        assertThatThrownBy(h::batch).isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("The partition columns changed while the query runs: ");
    }

    @Test
    void recursiveFileLookupReadsEverySubfolderAndTurnsPartitionInferenceOff() {
        h.schema = WITH_DAY;
        json(in, "day=1/a.json", T, 1);
        json(in, "b.json", T + 1, 2);
        json(in, "x/y/c.json", T + 2, 3);
        // With inference off, a column named like a folder key comes from the file's content.
        write(in, "day=2/d.json", "{\"id\":4,\"name\":\"n4\",\"day\":\"from the file\"}\n", T + 3);
        write(in, "day=2/_hidden/e.json", "{\"id\":5,\"name\":\"n5\"}\n", T + 4);
        h.option("recursiveFileLookup", "true");
        h.open();
        assertThat(h.batch()).containsExactly(Row.of(1L, "n1", null), Row.of(2L, "n2", null),
                Row.of(3L, "n3", null), Row.of(4L, "n4", "from the file"));
    }

    @Test
    void recursiveFileLookupAndPathGlobFilterTogether() {
        json(in, "a/b/c/deep.json", T, 1);
        json(in, "a/b/c/deep.csv", T + 1, 2);
        json(in, "k=v/top.json", T + 2, 3);
        h.option("recursiveFileLookup", "TRUE").option("pathGlobFilter", "*.json");
        h.open();
        assertThat(h.batch()).containsExactly(Row.of(1L, "n1"), Row.of(3L, "n3"));
    }

    @Test
    void recursiveFileLookupMustBeABoolean() {
        h.option("recursiveFileLookup", "yes");
        assertThatThrownBy(h::open).isInstanceOf(InvalidOptionException.class)
                .hasMessage("Invalid value 'yes' for option 'recursiveFileLookup', must be 'true' or 'false'");
    }
}
