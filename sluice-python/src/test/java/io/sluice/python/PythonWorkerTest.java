package io.sluice.python;

import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Protocol 1 at the level of one worker: hello, requests, Python errors, a dead worker, the traceback's tail. */
class PythonWorkerTest {
    @Test
    void aWorkerAnswersRequestsAndReportsPythonErrorsAsExceptionsAndStaysUsable() {
        try (PythonWorker w = PythonWorker.start("t")) {
            assertThatThrownBy(() -> w.call("nope", Map.of())).isInstanceOf(PythonSourceException.class)
                    .hasMessage("Python data source 't' failed in nope: ValueError: unknown request 'nope' "
                            + "(protocol 1)");
            Map<String, Object> loaded = w.call("load", Map.of("file",
                    PythonSourceTest.py("counter_source.py").toString(), "module", "counter_source"));
            assertThat(loaded).isEqualTo(Map.of("sources", java.util.List.of(
                    Map.of("className", "CounterSource", "name", "counter"))));
            assertThat(w.alive()).isTrue();
        }
    }

    @Test
    void aDeadWorkerFailsTheNextCallNamingItsPidAndExitCode() throws Exception {
        PythonWorker w = PythonWorker.start("t");
        ProcessHandle h = ProcessHandle.of(w.pid()).orElseThrow();
        h.destroyForcibly();
        h.onExit().get(10, TimeUnit.SECONDS);
        assertThatThrownBy(() -> w.call("load", Map.of("file", "x.py")))
                .isInstanceOf(PythonSourceException.class)
                .hasMessage("Python data source 't': its Python worker (pid " + w.pid() + ") died during load with "
                        + "exit code 137");
        w.close();
    }

    @Test
    void theTracebackTailKeepsTheUsersFramesOnly() {
        String tb = """
                Traceback (most recent call last):
                  File "/tmp/x/worker/sluice_worker.py", line 250, in main
                    send_json(b"A", {"result": handler(req)})
                                               ^^^^^^^^^^^^
                  File "/tmp/x/worker/sluice_worker.py", line 180, in op_read
                    return {"rows": self._send_rows(self.reader.read(partition))}
                  File "/home/me/src.py", line 12, in read
                    return helper(p)
                           ^^^^^^^^^
                  File "/home/me/src.py", line 3, in helper
                    raise ValueError("bad")
                ValueError: bad
                """;
        assertThat(PythonWorker.lastLines(tb)).isEqualTo("\n"
                + "  File \"/home/me/src.py\", line 12, in read\n"
                + "    return helper(p)\n"
                + "  File \"/home/me/src.py\", line 3, in helper\n"
                + "    raise ValueError(\"bad\")");
    }
}
