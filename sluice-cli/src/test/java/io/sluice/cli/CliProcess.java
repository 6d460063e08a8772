package io.sluice.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs {@code sluice ARGS} in a JVM of its own, as {@code java -jar sluice.jar ARGS} does (on the test classpath, so
 * the test sources are there), capturing stdout and stderr: what a user sees, logging included.
 */
final class CliProcess {
    private CliProcess() {
    }

    static Cli.Result run(Path workDir, String... args) throws IOException, InterruptedException {
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> command = new ArrayList<>(List.of(java, "-cp", System.getProperty("java.class.path"),
                Main.class.getName()));
        command.addAll(List.of(args));
        Path out = Files.createTempFile(workDir, "stdout", ".txt");
        Path err = Files.createTempFile(workDir, "stderr", ".txt");
        Process p = new ProcessBuilder(command).directory(workDir.toFile())
                .redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly().waitFor();
            throw new AssertionError("sluice " + String.join(" ", args) + " did not end within 60 s; stderr: "
                    + Files.readString(err));
        }
        Cli.Result r = new Cli.Result(p.exitValue(), Files.readString(out), Files.readString(err));
        Files.delete(out);
        Files.delete(err);
        return r;
    }
}
