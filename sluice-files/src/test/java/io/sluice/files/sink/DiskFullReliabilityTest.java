package io.sluice.files.sink;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A full disk while the sink writes a data file: the error names the file. {@code /dev/full} is Linux's real
 * device that answers every write with ENOSPC, the kernel's "No space left on device".
 */
class DiskFullReliabilityTest {
    private static final Path DEV_FULL = Path.of("/dev/full");

    @Test
    void aWriteOnAFullDiskNamesTheFile() throws IOException {
        assumeTrue(Files.isWritable(DEV_FULL), "needs Linux's /dev/full");
        Path named = Path.of("/out/.sluice-staging/q/part-00000-x-c000.json");
        try (FileChannel full = FileChannel.open(DEV_FULL, StandardOpenOption.WRITE)) {
            FileSink.Counting out = new FileSink.Counting(Channels.newOutputStream(full), named);
            assertThatThrownBy(() -> out.write(new byte[]{'{', '}'}, 0, 2))
                    .isInstanceOf(IOException.class)
                    .hasMessage("Cannot write the file sink's output file " + named + ": No space left on device");
            assertThatThrownBy(() -> out.write('x'))
                    .hasMessage("Cannot write the file sink's output file " + named + ": No space left on device");
            assertThat(out.count).isZero();
        }
    }

    @Test
    void anErrorThatNamesTheFileAlreadyIsKept() {
        Path p = Path.of("/out/a.json");
        IOException named = new java.nio.file.FileSystemException(p.toString(), null, "Disk quota exceeded");
        assertThat(FileSink.Counting.naming(p, named)).isSameAs(named);
    }
}
