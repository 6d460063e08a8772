package io.sluice.files.source;

import io.sluice.api.SluiceClock;
import io.sluice.core.Sluice;
import io.sluice.core.sinks.MemorySink;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;

/**
 * What the file source's end-to-end tests share: an input folder {@code in}, a checkpoint folder {@code chk}, a
 * memory table name of the test's own and a {@link Sluice} ({@link #newSluice}), closed after each test with its
 * table cleared.
 */
abstract class FileQueryFixture {
    /** A modification time the tests stamp files with. */
    static final long T = 1_700_000_000_000L;

    @TempDir
    Path tmp;
    Path in;
    Path chk;
    String table;
    Sluice sluice;

    @BeforeEach
    void createFolders() throws IOException {
        in = Files.createDirectories(tmp.resolve("in"));
        chk = tmp.resolve("chk");
        table = "t_" + UUID.randomUUID().toString().replace('-', '_');
        sluice = newSluice(SluiceClock.system());
    }

    /** The engine a test runs on; called once before each test (and again by tests that restart on a clock). */
    abstract Sluice newSluice(SluiceClock clock);

    @AfterEach
    void closeSluice() {
        sluice.close();
        MemorySink.clear(table);
    }
}
