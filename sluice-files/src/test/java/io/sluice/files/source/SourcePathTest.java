package io.sluice.files.source;

import io.sluice.files.fs.FileStatus;
import io.sluice.files.fs.FileStorage;
import io.sluice.api.types.DataType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Paths and globs, listing, hidden names, partition folders, URIs, hashing. */
class SourcePathTest {
    static final FileStorage FS = FileStorage.local();

    @TempDir
    Path tmp;

    private List<String> list(String pattern) throws Exception {
        List<String> out = new ArrayList<>();
        SourcePath.parse(pattern, FS).list(FS, s -> out.add(tmp.relativize(s.path()).toString()));
        out.sort(null);
        return out;
    }

    @Test
    void globsMatchOneComponentEachAndMatchedFoldersAreWalked() throws Exception {
        for (String f : new String[]{"a1/x/f.json", "a2/x/g.json", "a2/y/h.json", "b1/x/i.json", "a3/x/sub/j.json",
                "a1/x/_tmp/k.json", "a1/x/.l.json", "c/{x}.json"}) {
            TestFiles.write(tmp, f, "", 0);
        }
        assertThat(list(tmp + "/a?/x")).containsExactly("a1/x/f.json", "a2/x/g.json", "a3/x/sub/j.json");
        assertThat(list(tmp + "/a[12]/*/*.json")).containsExactly("a1/x/f.json", "a2/x/g.json", "a2/y/h.json");
        assertThat(list(tmp + "/{a1,b1}/x")).containsExactly("a1/x/f.json", "b1/x/i.json");
        assertThat(list(tmp + "/a[^1]/x")).containsExactly("a2/x/g.json", "a3/x/sub/j.json");
        assertThat(list(tmp + "/nothing*/x")).isEmpty();
        assertThat(list(tmp + "/a1/x/f.json")).containsExactly("a1/x/f.json");
        assertThat(list(tmp + "/gone")).isEmpty();
        SourcePath p = SourcePath.parse(tmp + "/a?/x/*.json", FS);
        assertThat(p.isGlob()).isTrue();
        assertThat(p.base()).isEqualTo(tmp);
    }

    @Test
    void hiddenNames() {
        assertThat(SourcePath.isHidden(".x")).isTrue();
        assertThat(SourcePath.isHidden("_x")).isTrue();
        assertThat(SourcePath.isHidden("_spark_metadata")).isTrue();
        assertThat(SourcePath.isHidden("_k=v")).isFalse();
        assertThat(SourcePath.isHidden("a.json._COPYING_")).isTrue();
        assertThat(SourcePath.isHidden("a_b.json")).isFalse();
    }

    @Test
    void partitionFoldersAreReadBelowTheBaseAndUnescaped() {
        SourcePath p = SourcePath.parse(tmp + "/in", FS);
        assertThat(p.partitionsOf(tmp.resolve("in/a=1/plain/b=x%3Ay%25/f.json")))
                .isEqualTo(Map.of("a", "1", "b", "x:y%"));
        assertThat(p.partitionsOf(tmp.resolve("in/f.json"))).isEmpty();
        assertThat(p.partitionsOf(tmp.resolve("k=v/f.json"))).isEmpty(); // outside the base
        assertThatThrownBy(() -> p.partitionsOf(tmp.resolve("in/a=1/A=2/f.json")))
                .hasMessageStartingWith("Partition column 'A' appears twice in the path of");
        assertThatThrownBy(() -> p.partitionsOf(tmp.resolve("in/=1/f.json")))
                .hasMessageStartingWith("Empty partition column name in '=1'");
    }

    @Test
    void partitionValuesCastToTheColumnType() {
        assertThat(Partitions.cast("42", DataType.longType(), "c", "f", ZoneOffset.UTC)).isEqualTo(42L);
        assertThat(Partitions.cast("7", DataType.shortType(), "c", "f", ZoneOffset.UTC)).isEqualTo((short) 7);
        assertThat(Partitions.cast("1.5", DataType.doubleType(), "c", "f", ZoneOffset.UTC)).isEqualTo(1.5);
        assertThat(Partitions.cast("TRUE", DataType.booleanType(), "c", "f", ZoneOffset.UTC)).isEqualTo(true);
        assertThat(Partitions.cast("3.14159", DataType.fromDDL("decimal(5,2)"), "c", "f", ZoneOffset.UTC))
                .isEqualTo(new BigDecimal("3.14"));
        assertThat(Partitions.cast("2026-10-04 10:00:00", DataType.timestampType(), "c", "f", ZoneOffset.UTC))
                .isEqualTo(Instant.parse("2026-10-04T10:00:00Z"));
        assertThat(Partitions.cast("2026-10-04 10:00:00", DataType.timestampType(), "c", "f",
                ZoneId.of("America/Los_Angeles"))).isEqualTo(Instant.parse("2026-10-04T17:00:00Z"));
        assertThat(Partitions.cast("__HIVE_DEFAULT_PARTITION__", DataType.intType(), "c", "f", ZoneOffset.UTC)).isNull();
        assertThatThrownBy(() -> Partitions.cast("maybe", DataType.booleanType(), "c", "file:///f", ZoneOffset.UTC))
                .hasMessage("Partition value 'maybe' of column 'c' in file:///f cannot be cast to boolean");
        assertThatThrownBy(() -> Partitions.cast("12345", DataType.fromDDL("decimal(5,2)"), "c", "f", ZoneOffset.UTC))
                .hasMessage("Partition value '12345' of column 'c' in f cannot be cast to decimal(5,2)");
        assertThat(Partitions.infer(List.of("1", "2"))).isEqualTo(DataType.intType());
        assertThat(Partitions.infer(List.of("1", "9999999999"))).isEqualTo(DataType.longType());
        assertThat(Partitions.infer(List.of("1", "2.5"))).isEqualTo(DataType.doubleType());
        assertThat(Partitions.infer(List.of("2026-01-01"))).isEqualTo(DataType.dateType());
        assertThat(Partitions.infer(List.of("a", "1"))).isEqualTo(DataType.stringType());
    }

    @Test
    void urisAreSparksAndReadBack() {
        Path p = tmp.resolve("a b%#?.json");
        String uri = FS.uri(p);
        assertThat(uri).isEqualTo("file://" + tmp + "/a%20b%25%23%3F.json");
        assertThat(FS.path(uri)).isEqualTo(p);
        assertThat(FS.path("file:" + tmp + "/x.json")).isEqualTo(tmp.resolve("x.json"));
        assertThat(FS.uri(tmp.resolve("é.json"))).isEqualTo("file://" + tmp + "/é.json");
        assertThat(FS.display(tmp)).isEqualTo("file:" + tmp);
    }

    @Test
    void theStorageMovesWithoutReplacing() throws Exception {
        Path a = TestFiles.write(tmp, "a", "1", 0);
        Path b = TestFiles.write(tmp, "b", "2", 0);
        assertThatThrownBy(() -> FS.move(a, b)).isInstanceOf(java.nio.file.FileAlreadyExistsException.class);
        FS.move(a, tmp.resolve("deep/er/a"));
        assertThat(tmp.resolve("deep/er/a")).hasContent("1");
        assertThat(FS.status(tmp.resolve("deep"))).get().extracting(FileStatus::directory).isEqualTo(true);
        assertThat(FS.delete(b)).isTrue();
        assertThat(FS.delete(b)).isFalse();
    }

    @Test
    void hashesAreMurmur3x64of128() {
        // Guava's Hashing.murmur3_128() of the same bytes, read as two little-endian longs.
        assertThat(PathHash.of("hello")).isEqualTo(new PathHash(0xcbd8a7b341bd9b02L, 0x5b1e906a48ae1d19L));
        assertThat(PathHash.of("The quick brown fox jumps over the lazy dog"))
                .isEqualTo(new PathHash(0xe34bbc7bbc071b6cL, 0x7a433ca9c49a9347L));
    }

    @Test
    void theHashIndexGrowsAndReplaces() {
        HashIndex idx = new HashIndex();
        for (int i = 0; i < 10_000; i++) {
            PathHash k = PathHash.of("f" + i);
            idx.put(k.h1(), k.h2(), i, i * 2L);
        }
        PathHash k = PathHash.of("f77");
        idx.put(k.h1(), k.h2(), 1, 2);
        assertThat(idx.size()).isEqualTo(10_000);
        assertThat(idx.timestampAt(idx.find(k.h1(), k.h2()))).isEqualTo(1);
        PathHash none = PathHash.of("nope");
        assertThat(idx.find(none.h1(), none.h2())).isEqualTo(-1);
        long[][] sorted = idx.sorted();
        for (int i = 1; i < sorted[0].length; i++) {
            assertThat(PathHash.compare(sorted[0][i - 1], sorted[1][i - 1], sorted[0][i], sorted[1][i]))
                    .isNegative();
        }
    }
}
