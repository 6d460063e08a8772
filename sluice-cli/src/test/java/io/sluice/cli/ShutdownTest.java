package io.sluice.cli;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A real {@code sluice run} process whose source is stuck gets SIGTERM and exits within the documented bound
 * (twice the stop grace period, docs/cli.md "Ctrl-C"), whether the source honours interrupts or not.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class ShutdownTest {
    /** The documented bound, plus room for a slow JVM exit on a loaded machine. */
    private static final Duration BOUND = Duration.ofSeconds(2 * RunCommand.STOP_GRACE_SECONDS + 10);

    @TempDir
    Path tmp;
    private final List<Process> children = new ArrayList<>();

    @AfterEach
    void killLeftovers() {
        children.forEach(Process::destroyForcibly);
    }

    private Process sluiceRun(String... sourceOptions) throws IOException {
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> cmd = new ArrayList<>(List.of(java, "-Xmx128m", "-XX:TieredStopAtLevel=1", "-cp",
                System.getProperty("java.class.path"), Main.class.getName(), "run", "--source", "stuck-test",
                "--sink", "noop", "--plain", "--checkpoint", tmp.resolve("chk").toString()));
        for (String o : sourceOptions) {
            cmd.addAll(List.of("--source-option", o));
        }
        Process p = new ProcessBuilder(cmd).redirectOutput(tmp.resolve("out").toFile())
                .redirectError(tmp.resolve("err").toFile()).start();
        children.add(p);
        await().atMost(Duration.ofSeconds(60)).until(() -> Files.exists(tmp.resolve("err"))
                && Files.readString(tmp.resolve("err")).contains("stuck-test: latestOffset blocked"));
        return p;
    }

    private int terminate(Process p) throws Exception {
        long t0 = System.nanoTime();
        p.destroy(); // SIGTERM
        assertThat(p.waitFor(BOUND.toMillis(), TimeUnit.MILLISECONDS))
                .as("exited within %s; stderr: %s", BOUND, Files.readString(tmp.resolve("err"))).isTrue();
        long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
        assertThat(ms).isGreaterThanOrEqualTo(RunCommand.STOP_GRACE_SECONDS * 1000); // it waited for a boundary
        return p.exitValue();
    }

    @Test
    void aSourceBlockedInAnInterruptibleWaitIsInterruptedAndTheCommandSaysStopped() throws Exception {
        Process p = sluiceRun("interruptible=true");

        // 143 from the JVM's SIGTERM exit, or 130 when the command's own exit wins the race once the hook is done.
        assertThat(terminate(p)).isIn(143, 130);
        assertThat(Files.readString(tmp.resolve("out"))).endsWith("stopped: 0 batches, 0 rows\n");
        assertThat(Files.readString(tmp.resolve("err"))).doesNotContain("did not stop within");
    }

    @Test
    void aSourceThatIgnoresInterruptsStillLetsTheCommandExitWithItsMessage() throws Exception {
        Process p = sluiceRun();

        assertThat(terminate(p)).isEqualTo(143);
        assertThat(Files.readString(tmp.resolve("err"))).contains("sluice: the query did not stop within 10 s (its "
                + "source or sink ignores interrupts); exiting anyway: the batch in flight, if any, is re-run at the "
                + "next start\n");
        assertThat(Files.readString(tmp.resolve("out"))).doesNotContain("stopped:");
    }
}
