package io.sluice.python;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** Runs the Python unit tests of the pyspark stand-in and the row encoding (test_*.py) on the real python3. */
class PythonPackageTest {
    @Test
    void pythonUnitTestsPass() throws Exception {
        Path home = PythonRuntime.home();
        ProcessBuilder pb = new ProcessBuilder(PythonRuntime.python(), "-B", "-m", "unittest", "discover", "-v",
                "-s", PythonSourceTest.py("test_pyspark_shim.py").getParent().toString(), "-p", "test_*.py")
                .redirectErrorStream(true);
        pb.environment().put("PYTHONPATH", home.resolve("lib") + java.io.File.pathSeparator + home.resolve("worker"));
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(out).contains("Ran 16 tests").endsWith("OK\n");
        assertThat(p.exitValue()).as(out).isZero();
    }
}
