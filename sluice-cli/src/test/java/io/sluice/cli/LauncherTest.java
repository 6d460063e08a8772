package io.sluice.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * bin/sluice passes the terminal's width to the JVM as {@code -Dsluice.columns}: run in a pseudo-terminal of 120
 * columns ({@code script}, util-linux), with a stand-in {@code java} that prints its arguments and a stand-in
 * {@code mvn} that builds nothing (and {@code SLUICE_CDS=off}, so that the repository's archive is left alone). Its
 * class data sharing archive is tested on a copy of the launcher in a folder laid out as the repository.
 */
class LauncherTest {
    private static final Path LAUNCHER = Path.of("..", "bin", "sluice").toAbsolutePath().normalize();
    /** The launcher's compiler thresholds, before SLUICE_JAVA_OPTS. */
    private static final List<String> JIT = List.of("-XX:Tier4InvocationThreshold=50000",
            "-XX:Tier4MinInvocationThreshold=6000", "-XX:Tier4CompileThreshold=150000",
            "-XX:Tier4BackEdgeThreshold=400000");

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
        env.put("SLUICE_CDS", "off");
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
        assertThat(args).containsExactlyElementsOf(concat(JIT, List.of("-Dsluice.columns=120", "-jar",
                LAUNCHER.getParent().getParent().resolve("sluice-cli/target/sluice.jar").toString(), "run",
                "--plain")));
    }

    @Test
    void outsideATerminalNoWidthIsPassed() throws Exception {
        List<String> args = javaArgs(List.of(LAUNCHER.toString(), "checkpoint", "show", "x"));
        assertThat(args).containsExactlyElementsOf(concat(JIT, List.of("-jar",
                LAUNCHER.getParent().getParent().resolve("sluice-cli/target/sluice.jar").toString(), "checkpoint",
                "show", "x")));
    }

    @Test
    void theClassDataSharingArchiveIsWrittenOncePerJarAndUsed() throws Exception {
        Path repo = tmp.resolve("repo");
        Path launcher = Files.createDirectories(repo.resolve("bin")).resolve("sluice");
        Files.copy(LAUNCHER, launcher);
        Path target = Files.createDirectories(repo.resolve("sluice-cli/target"));
        Path jar = Files.writeString(target.resolve("sluice.jar"), "jar");
        Files.setLastModifiedTime(jar, FileTime.fromMillis(System.currentTimeMillis() - 60_000));
        // A new build: the jar newer than the archive's stamp.
        Path stamp = target.resolve("sluice.jsa.java");
        Runnable newBuild = () -> {
            try {
                Files.setLastModifiedTime(stamp, FileTime.fromMillis(System.currentTimeMillis() - 3_600_000));
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        };
        Files.writeString(target.resolve("sluice-kafka-broker.jar"), "broker");
        Path jsa = target.resolve("sluice.jsa");
        Path trainings = tmp.resolve("trainings.txt");
        // A stand-in java: a training run (-XX:ArchiveClassesAtExit=F) writes F and is counted; with FAIL_TRAINING
        // set it writes nothing and fails. Any other run prints its arguments.
        Path java = script("java", "for a in \"$@\"; do case $a in -XX:ArchiveClassesAtExit=*)\n"
                + "  echo \"$*\" >> " + trainings + "; [[ -n ${FAIL_TRAINING:-} ]] && exit 1\n"
                + "  echo archive > \"${a#-XX:ArchiveClassesAtExit=}\"; exit 0;; esac; done\n"
                + "printf '%s\\n' \"$@\" > " + tmp.resolve("java-args.txt"));
        List<String> withArchive = concat(List.of("-XX:SharedArchiveFile=" + jsa, "-Xlog:cds=off",
                "-Xlog:cds+dynamic=off"), JIT, List.of("-jar", jar.toString(), "run", "--plain"));

        assertThat(launch(launcher, java, Map.of())).containsExactlyElementsOf(withArchive);
        assertThat(Files.readString(jsa)).isEqualTo("archive\n");
        assertThat(Files.readString(stamp).strip()).isEqualTo(java.toRealPath().toString());
        assertThat(Files.readAllLines(trainings)).hasSize(1);
        String training = Files.readAllLines(trainings).get(0);
        assertThat(training).matches("-XX:ArchiveClassesAtExit=" + Pattern.quote(jsa.toString())
                + "\\.\\d+\\.tmp -Xlog:cds=off -Xlog:cds\\+dynamic=off -jar " + Pattern.quote(jar.toString())
                + " run --source rate-micro-batch --source-option rowsPerBatch=1 --sink noop --checkpoint \\S+"
                + " --trigger availableNow");

        // Used again without a new training, until the jar changes.
        assertThat(launch(launcher, java, Map.of())).containsExactlyElementsOf(withArchive);
        assertThat(Files.readAllLines(trainings)).hasSize(1);
        newBuild.run();
        assertThat(launch(launcher, java, Map.of())).containsExactlyElementsOf(withArchive);
        assertThat(Files.readAllLines(trainings)).hasSize(2);

        // A training that fails leaves no archive, and is not retried until the jar changes again.
        newBuild.run();
        List<String> without = concat(JIT, List.of("-jar", jar.toString(), "run", "--plain"));
        assertThat(launch(launcher, java, Map.of("FAIL_TRAINING", "1"))).containsExactlyElementsOf(without);
        assertThat(jsa).doesNotExist();
        assertThat(launch(launcher, java, Map.of("FAIL_TRAINING", "1"))).containsExactlyElementsOf(without);
        assertThat(Files.readAllLines(trainings)).hasSize(3);

        // SLUICE_CDS=off: no training, no archive.
        newBuild.run();
        assertThat(launch(launcher, java, Map.of("SLUICE_CDS", "off"))).containsExactlyElementsOf(without);
        assertThat(Files.readAllLines(trainings)).hasSize(3);
    }

    /** {@code launcher run --plain} with the stand-in java and extra environment: the arguments java was given. */
    private List<String> launch(Path launcher, Path java, Map<String, String> extraEnv) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(launcher.toString(), "run", "--plain").redirectErrorStream(true)
                .redirectOutput(tmp.resolve("output.txt").toFile());
        pb.environment().put("JAVA", java.toString());
        pb.environment().put("MVN", script("mvn", "exit 0").toString());
        pb.environment().remove("SLUICE_CDS");
        pb.environment().putAll(extraEnv);
        Process p = pb.start();
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(Files.readString(tmp.resolve("output.txt"))).isZero();
        return Files.readAllLines(tmp.resolve("java-args.txt"));
    }

    @SafeVarargs
    private static List<String> concat(List<String>... parts) {
        return java.util.Arrays.stream(parts).flatMap(List::stream).toList();
    }
}
