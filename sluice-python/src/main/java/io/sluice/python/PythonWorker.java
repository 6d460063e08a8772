package io.sluice.python;

import io.sluice.core.OffsetJson;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.BufferedOutputStream;
import java.io.BufferedReader;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * One {@code python3} worker process running {@code sluice_worker.py}, spoken to over its stdin/stdout pipes in
 * protocol 1 (frames: int32 length, a kind byte, a payload; the kinds are documented in the script). A pump thread
 * reads the worker's frames into a small bounded queue, so a caller waiting for Python can be interrupted (the
 * worker is then killed: a stop is prompt even while Python is inside {@code read()}), and the pipe gives
 * back-pressure while rows are produced faster than the engine takes them. Not thread-safe: one caller at a time.
 */
final class PythonWorker implements AutoCloseable {
    static final int PROTOCOL = 1;
    private static final Logger LOG = LoggerFactory.getLogger(PythonWorker.class);
    /** Workers started in this JVM, for tests. */
    static final java.util.concurrent.atomic.AtomicLong STARTED = new java.util.concurrent.atomic.AtomicLong();
    private static final Frame DEAD = new Frame((byte) 0, new byte[0]);

    record Frame(byte kind, byte[] payload) {
    }

    private final String source;
    private final Process process;
    private final DataOutputStream out;
    private final BlockingQueue<Frame> frames = new ArrayBlockingQueue<>(4);
    private final Deque<String> lastErrLines = new ArrayDeque<>();
    private volatile boolean dead;

    private PythonWorker(String source, Process process) {
        this.source = source;
        this.process = process;
        this.out = new DataOutputStream(new BufferedOutputStream(process.getOutputStream(), 1 << 16));
        Thread pump = new Thread(this::pump, "sluice-python-" + process.pid());
        pump.setDaemon(true);
        pump.start();
        Thread err = new Thread(this::drainErr, "sluice-python-stderr-" + process.pid());
        err.setDaemon(true);
        err.start();
    }

    /**
     * Starts a worker for the named source and checks its hello: protocol 1, Python 3.9 or later, the
     * {@code pyspark} stand-in importable.
     */
    static PythonWorker start(String source) {
        String python = PythonRuntime.python();
        java.nio.file.Path home = PythonRuntime.home();
        ProcessBuilder pb = new ProcessBuilder(python, "-B", home.resolve("worker/sluice_worker.py").toString(),
                home.resolve("lib").toString());
        pb.environment().put("PYTHONUNBUFFERED", "1");
        Process p;
        try {
            p = pb.start();
        } catch (IOException e) {
            throw new PythonSourceException("Python data source '" + source + "': cannot start " + python + ": "
                    + e.getMessage() + ". Python 3.9 or later is needed (no PySpark): install it, or name the "
                    + "command with -Dsluice.python=... or SLUICE_PYTHON", e);
        }
        STARTED.incrementAndGet();
        PythonWorker w = new PythonWorker(source, p);
        Map<String, Object> hello = w.expect((byte) 'H', "start");
        Object err = hello.get("error");
        if (err != null) {
            w.kill();
            throw w.failure("start", asMap(err));
        }
        if (!Long.valueOf(PROTOCOL).equals(hello.get("protocol"))) {
            w.kill();
            throw new PythonSourceException("Python data source '" + source + "': the worker speaks protocol "
                    + hello.get("protocol") + ", the JVM " + PROTOCOL, (String) null);
        }
        String version = String.valueOf(hello.get("python"));
        String[] v = version.split("\\.");
        if (Integer.parseInt(v[0]) < 3 || (Integer.parseInt(v[0]) == 3 && Integer.parseInt(v[1]) < 9)) {
            w.kill();
            throw new PythonSourceException("Python data source '" + source + "': " + python + " is Python "
                    + version + "; 3.9 or later is needed", (String) null);
        }
        return w;
    }

    long pid() {
        return process.pid();
    }

    boolean alive() {
        return !dead && process.isAlive();
    }

    /** A request whose answer carries no rows. */
    Map<String, Object> call(String op, Map<String, ?> args) {
        return call(op, args, b -> {
            throw new PythonSourceException("Python data source '" + source + "': rows came in answer to " + op,
                    (String) null);
        });
    }

    /** A request; the row batches before the answer go to {@code batches}, in order. */
    Map<String, Object> call(String op, Map<String, ?> args, Consumer<byte[]> batches) {
        send(op, args);
        while (true) {
            Frame f = next(op);
            if (f.kind() == 'B') {
                batches.accept(f.payload());
            } else {
                return answer(op, f);
            }
        }
    }

    /** Sends a request without waiting: the caller then reads its frames with {@link #next}. */
    void send(String op, Map<String, ?> args) {
        Map<String, Object> req = new LinkedHashMap<>(args);
        req.put("op", op);
        byte[] body = OffsetJson.write(req).getBytes(StandardCharsets.UTF_8);
        try {
            out.writeInt(body.length + 1);
            out.write('Q');
            out.write(body);
            out.flush();
        } catch (IOException e) {
            throw diedDuring(op);
        }
    }

    /** The next frame of the answer to {@code op}; interruptible (the worker is killed then). */
    Frame next(String op) {
        Frame f;
        try {
            f = frames.take();
        } catch (InterruptedException e) {
            kill();
            Thread.currentThread().interrupt();
            throw new PythonSourceException("Python data source '" + source + "': interrupted during " + op
                    + "; its worker was stopped", e);
        }
        if (f == DEAD) {
            frames.offer(DEAD);
            throw diedDuring(op);
        }
        return f;
    }

    /** The result of an answer frame, or the Python error of an error frame as an exception. */
    Map<String, Object> answer(String op, Frame f) {
        Map<String, Object> m = asMap(OffsetJson.read(new String(f.payload(), StandardCharsets.UTF_8)));
        if (f.kind() == 'E') {
            throw failure(op, m);
        }
        if (f.kind() != 'A') {
            kill();
            throw new PythonSourceException("Python data source '" + source + "': unexpected frame '"
                    + (char) f.kind() + "' in answer to " + op, (String) null);
        }
        Object r = m.get("result");
        return r == null ? Map.of() : asMap(r);
    }

    private Map<String, Object> expect(byte kind, String op) {
        Frame f = next(op);
        if (f.kind() != kind) {
            kill();
            throw new PythonSourceException("Python data source '" + source + "': unexpected frame '"
                    + (char) f.kind() + "' during " + op, (String) null);
        }
        return asMap(OffsetJson.read(new String(f.payload(), StandardCharsets.UTF_8)));
    }

    PythonSourceException failure(String op, Map<String, Object> error) {
        String tb = (String) error.get("traceback");
        return new PythonSourceException("Python data source '" + source + "' failed in " + op + ": "
                + error.get("error") + lastLines(tb), tb);
    }

    /**
     * The traceback's innermost frames of the user's code (file, line, code; at most 3), the part that says where:
     * the worker's own frames, Python's import machinery and the caret lines of Python 3.11+ are left out.
     */
    static String lastLines(String tb) {
        if (tb == null || tb.isBlank()) {
            return "";
        }
        List<String> lines = tb.strip().lines().toList();
        List<String[]> frames = new java.util.ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String l = lines.get(i);
            if (!l.startsWith("  File \"") || !l.contains(", in ")) {  // a SyntaxError's location is no frame
                continue;
            }
            String code = i + 1 < lines.size() && lines.get(i + 1).startsWith("    ")
                    && !lines.get(i + 1).strip().matches("[\\^~ ]+") ? lines.get(i + 1) : null;
            if (!l.contains("sluice_worker.py\"") && !l.contains("sluice_rows.py\"") && !l.contains("\"<frozen ")) {
                frames.add(new String[] {l, code});
            }
        }
        StringBuilder b = new StringBuilder();
        for (String[] f : frames.subList(Math.max(0, frames.size() - 3), frames.size())) {
            b.append('\n').append(f[0]);
            if (f[1] != null) {
                b.append('\n').append(f[1]);
            }
        }
        return b.toString();
    }

    private PythonSourceException diedDuring(String op) {
        Integer code = null;
        try {
            if (process.waitFor(2, TimeUnit.SECONDS)) {
                code = process.exitValue();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        String err;
        synchronized (lastErrLines) {
            err = lastErrLines.isEmpty() ? "" : ": " + String.join("\n", lastErrLines);
        }
        return new PythonSourceException("Python data source '" + source + "': its Python worker (pid "
                + process.pid() + ") died during " + op + (code == null ? "" : " with exit code " + code) + err,
                (String) null);
    }

    private void pump() {
        try (DataInputStream in = new DataInputStream(process.getInputStream())) {
            while (true) {
                int n;
                try {
                    n = in.readInt();
                } catch (EOFException e) {
                    break;
                }
                byte kind = in.readByte();
                byte[] payload = new byte[n - 1];
                in.readFully(payload);
                frames.put(new Frame(kind, payload));
            }
        } catch (IOException | InterruptedException e) {
            // the process is gone or killed: reported below
        }
        dead = true;
        if (!frames.offer(DEAD)) {
            // nobody is reading what is queued (a killed read): drop it, the death is what matters
            frames.clear();
            frames.offer(DEAD);
        }
    }

    private void drainErr() {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getErrorStream(),
                StandardCharsets.UTF_8))) {
            String line;
            while ((line = r.readLine()) != null) {
                LOG.info("[python {} {}] {}", source, process.pid(), line);
                synchronized (lastErrLines) {
                    lastErrLines.addLast(line);
                    if (lastErrLines.size() > 10) {
                        lastErrLines.removeFirst();
                    }
                }
            }
        } catch (IOException ignored) {
            // the process is gone
        }
    }

    /** Kills the process at once (a worker in an unknown state is never reused). */
    void kill() {
        dead = true;
        process.destroyForcibly();
    }

    /** Asks the worker to exit; kills it if it has not within a second. Reaps it either way. */
    @Override
    public void close() {
        if (alive()) {
            try {
                send("exit", Map.of());
            } catch (PythonSourceException ignored) {
                // already gone
            }
        }
        try {
            if (!process.waitFor(1, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                process.waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        dead = true;
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> asMap(Object o) {
        return (Map<String, Object>) o;
    }
}
