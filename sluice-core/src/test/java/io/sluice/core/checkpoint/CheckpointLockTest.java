package io.sluice.core.checkpoint;

import io.sluice.core.CheckpointException;
import io.sluice.core.CheckpointLockedException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

@Timeout(value = 60, unit = TimeUnit.SECONDS) // a child that never answers must not hang the build
class CheckpointLockTest {

    private static final String INSTANT = "\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}Z";

    @TempDir
    Path dir;

    /** Children started by the test, with the file their stderr goes to. */
    private final Map<Process, Path> children = new LinkedHashMap<>();

    @AfterEach
    void killChildren() throws IOException {
        for (Map.Entry<Process, Path> child : children.entrySet()) {
            child.getKey().destroyForcibly();
            Files.deleteIfExists(child.getValue());
        }
    }

    @Test
    void aSecondQueryInThisJvmFailsAtOnce() {
        try (Checkpoint first = Checkpoint.open(dir)) {
            assertThat(first.path()).isEqualTo(dir);
            assertThatThrownBy(() -> Checkpoint.open(dir))
                    .isInstanceOf(CheckpointLockedException.class)
                    .satisfies(e -> assertThat(((CheckpointException) e).path()).isEqualTo(dir))
                    .message().matches(Pattern.quote("Checkpoint " + dir + " is in use by another running query in"
                            + " this JVM (lock file " + dir.resolve(".lock") + " held by pid "
                            + ProcessHandle.current().pid() + " since ") + INSTANT
                            + Pattern.quote("). Stop that query first, or use a different checkpointLocation."));
            // Another spelling of the same folder is the same checkpoint.
            assertThatThrownBy(() -> Checkpoint.open(dir.resolve("sub/..")))
                    .isInstanceOf(CheckpointLockedException.class);
        }
    }

    @Test
    void closeReleasesTheLock() {
        Checkpoint first = Checkpoint.open(dir);
        first.close();
        first.close(); // idempotent

        try (Checkpoint second = Checkpoint.open(dir)) {
            assertThat(second.path()).isEqualTo(dir);
        }
    }

    @Test
    void aFailedAttemptInThisJvmDoesNotDropTheHoldersLock() throws IOException, InterruptedException {
        try (Checkpoint first = Checkpoint.open(dir)) {
            assertThat(first.path()).isEqualTo(dir);
            assertThatThrownBy(() -> Checkpoint.open(dir)).isInstanceOf(CheckpointLockedException.class);

            // If the failed attempt had opened and closed its own channel on .lock, POSIX would have dropped the
            // holder's lock, and another process could now take it.
            Process child = start("try");
            String line = firstLine(child);
            assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
            assertThat(line).matches(Pattern.quote("BUSY Checkpoint " + dir + " is in use by another running query"
                    + " (lock file " + dir.resolve(".lock") + " held by pid " + ProcessHandle.current().pid()
                    + " since ") + INSTANT + Pattern.quote("). Stop that query first, or use a different"
                    + " checkpointLocation."));
        }
    }

    @Test
    void anotherProcessHoldingTheCheckpointIsRefusedUntilItIsKilled() throws IOException, InterruptedException {
        Process holder = start("hold");
        assertThat(firstLine(holder)).isEqualTo("LOCKED");

        assertThatThrownBy(() -> Checkpoint.open(dir))
                .isInstanceOf(CheckpointLockedException.class)
                .message().matches(Pattern.quote("Checkpoint " + dir + " is in use by another running query (lock"
                        + " file " + dir.resolve(".lock") + " held by pid " + holder.pid() + " since ") + INSTANT
                        + Pattern.quote("). Stop that query first, or use a different checkpointLocation."));

        // kill -9: no shutdown hook, no close(); the OS must release the lock.
        holder.destroyForcibly();
        assertThat(holder.waitFor(30, TimeUnit.SECONDS)).isTrue();

        try (Checkpoint cp = Checkpoint.open(dir)) {
            assertThat(cp.queryId()).isNotEmpty();
        }
    }

    @Test
    void aProcessThatClosedNormallyLeavesTheCheckpointFree() throws IOException, InterruptedException {
        Process holder = start("hold");
        assertThat(firstLine(holder)).isEqualTo("LOCKED");
        holder.getOutputStream().close(); // the child's stdin: it closes its checkpoint and exits
        assertThat(holder.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(holder.exitValue()).isZero();

        try (Checkpoint cp = Checkpoint.open(dir)) {
            assertThat(cp.path()).isEqualTo(dir);
        }
    }

    private Process start(String mode) throws IOException {
        String java = ProcessHandle.current().info().command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        Path stderr = Files.createTempFile("lock-child", ".err");
        Process p = new ProcessBuilder(java, "-Xshare:auto", "-XX:TieredStopAtLevel=1", "-Xmx64m",
                "-cp", System.getProperty("java.class.path"),
                LockHolderMain.class.getName(), mode, dir.toString())
                .redirectError(stderr.toFile())
                .start();
        children.put(p, stderr);
        return p;
    }

    /** Blocks until the child prints its first line (no sleeping, no polling). */
    private String firstLine(Process p) throws IOException {
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        String line = out.readLine();
        if (line == null) {
            String err = Files.readString(children.get(p));
            throw new AssertionError("The child JVM printed nothing; its stderr:\n" + err);
        }
        return line;
    }
}
