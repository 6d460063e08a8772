package io.sluice.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * bin/sluice passes the terminal's width to the JVM as {@code -Dsluice.columns}: run in a pseudo-terminal of 120
 * columns ({@code script}, util-linux), with a stand-in {@code java} that prints its arguments and a stand-in
 * {@code mvn} that builds nothing.
 */
class LauncherTest {
    private static final Path LAUNCHER = Path.of("..", "bin", "sluice").toAbsolutePath().normalize();

    @TempDir
    Path tmp;

    private Path script(String name, String body) throws IOException {
        Path p = tmp.resolve(name);
        Files.writeString(p, "#!/usr/bin/env bash\n" + body + "\n");
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
        return p;
    }

    /** The arguments the launcher gave java, one per line, from {@code command} run with the stand-ins. */
    private List<String> javaArgs(List<String> command) throws Exception {
        Path args = tmp.resolve("java-args.txt");
        Path java = script("java", "printf '%s\\n' \"$@\" > " + args);
        Path mvn = script("mvn", "exit 0");
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(tmp.resolve("output.txt").toFile());
        Map<String, String> env = pb.environment();
        env.put("JAVA", java.toString());
        env.put("MVN", mvn.toString());
        // What an interactive bash leaves to its children: COLUMNS is a shell variable, not exported.
        env.remove("COLUMNS");
        env.put("TERM", "xterm");
        Process p = pb.start();
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(Files.readString(tmp.resolve("output.txt"))).isZero();
        return Files.readAllLines(args);
    }

    @Test
    void inATerminalTheWidthIsPassedOn() throws Exception {
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/script")), "needs script (util-linux)");
        List<String> args = javaArgs(List.of("/usr/bin/script", "-q", "-e", "-c",
                "stty cols 120 rows 40; " + LAUNCHER + " run --plain", "/dev/null"));
        assertThat(args).containsExactly("-Dsluice.columns=120", "-jar",
                LAUNCHER.getParent().getParent().resolve("sluice-cli/target/sluice.jar").toString(), "run", "--plain");
    }

    @Test
    void outsideATerminalNoWidthIsPassed() throws Exception {
        List<String> args = javaArgs(List.of(LAUNCHER.toString(), "checkpoint", "show", "x"));
        assertThat(args).containsExactly("-jar",
                LAUNCHER.getParent().getParent().resolve("sluice-cli/target/sluice.jar").toString(), "checkpoint",
                "show", "x");
    }
}
