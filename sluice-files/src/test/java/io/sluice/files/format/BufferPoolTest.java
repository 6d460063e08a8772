package io.sluice.files.format;

import io.sluice.api.Row;
import io.sluice.api.types.StructType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.StringReader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static io.sluice.files.format.FormatFixture.readAll;
import static io.sluice.files.format.FormatFixture.opts;
import static io.sluice.files.format.FormatFixture.write;
import static org.assertj.core.api.Assertions.assertThat;

/** The line readers' buffers go from one file to the next: nothing of a previous file may show through. */
class BufferPoolTest {
    @TempDir
    Path dir;

    @Test
    void aReusedBufferShowsNothingOfThePreviousFile() throws Exception {
        String longName = "x".repeat(300 * 1024); // longer than the standard buffer: that one grows and is dropped
        List<Path> files = List.of(
                write(dir, "a.json", "{\"id\": 1, \"name\": \"aaaaaaaaaaaaaaaa\"}\n{\"id\": 2, \"name\": \"bbbbbbbbbbbbbb\"}\n"),
                write(dir, "b.json", "{\"id\": 3, \"name\": \"" + longName + "\"}\n"),
                write(dir, "c.json", "{\"id\": 4}"),
                write(dir, "d.json", ""),
                write(dir, "e.json", "{\"id\": 5, \"name\": \"e\"}"));
        FileFormatReader json = FileFormats.reader("json", opts(), StructType.fromDDL("id bigint, name string"));
        List<String> seen = new ArrayList<>();
        for (Path f : files) {
            for (Row r : readAll(json, f)) {
                String name = r.getString(1);
                seen.add(r.get(0) + ":" + (name != null && name.length() > 20 ? "long" + name.length() : name));
            }
        }
        assertThat(seen).containsExactly("1:aaaaaaaaaaaaaaaa", "2:bbbbbbbbbbbbbb", "3:long" + longName.length(),
                "4:null", "5:e");

        FileFormatReader csv = FileFormats.reader("csv", opts(), StructType.fromDDL("id bigint, name string"));
        List<String> csvSeen = new ArrayList<>();
        for (Path f : List.of(write(dir, "a.csv", "1,aaaaaaaaaaaa\n2,bbbbbbbbbbbbbbbb\n"),
                write(dir, "b.csv", "3," + longName + "\n"), write(dir, "c.csv", "4"), write(dir, "d.csv", "5,e"))) {
            for (Row r : readAll(csv, f)) {
                String name = r.getString(1);
                csvSeen.add(r.get(0) + ":" + (name != null && name.length() > 20 ? "long" + name.length() : name));
            }
        }
        assertThat(csvSeen).containsExactly("1:aaaaaaaaaaaa", "2:bbbbbbbbbbbbbbbb", "3:long" + longName.length(),
                "4:null", "5:e");
    }

    @Test
    void closingTwiceGivesTheBufferBackOnce() throws Exception {
        BufferPool pool = new BufferPool();
        ByteLineReader bytes = new ByteLineReader(new ByteArrayInputStream(new byte[0]), null, false, pool);
        bytes.close();
        bytes.close();
        CharLineReader chars = new CharLineReader(new StringReader(""), null, pool);
        chars.close();
        chars.close();
        assertThat(pool.bytes()).isNotSameAs(pool.bytes());
        assertThat(pool.chars()).isNotSameAs(pool.chars());
    }

    @Test
    void onlyStandardSizeBuffersAreKept() {
        BufferPool pool = new BufferPool();
        byte[] grown = new byte[BufferPool.BYTES * 2];
        pool.give(grown);
        assertThat(pool.bytes()).hasSize(BufferPool.BYTES).isNotSameAs(grown);
        byte[] standard = pool.bytes();
        pool.give(standard);
        assertThat(pool.bytes()).isSameAs(standard);
    }
}
