package io.sluice.cli;

import java.io.Console;
import java.io.File;
import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * What the command line needs from its surroundings, so tests can give their own: whether output goes to an
 * interactive terminal, its width, and how a handler is run when the JVM is asked to stop (Ctrl-C).
 *
 * @param interactive true when the live view may redraw a line in place
 * @param columns     the terminal's width in characters
 * @param hooks       installs a handler run on Ctrl-C / SIGTERM
 */
record Env(boolean interactive, int columns, ShutdownHooks hooks) {

    /** Installs {@code onShutdown} to run when the JVM is asked to stop; returns what uninstalls it. */
    @FunctionalInterface
    interface ShutdownHooks {
        Runnable install(Runnable onShutdown);
    }

    /** The system property {@code bin/sluice} passes the terminal's width in. */
    static final String COLUMNS_PROPERTY = "sluice.columns";
    /** The width when nothing tells it. */
    static final int DEFAULT_COLUMNS = 80;

    /** The real terminal and the JVM's shutdown hooks. */
    static Env system() {
        String term = System.getenv("TERM");
        boolean interactive = isTerminal(System.console()) && term != null && !term.equals("dumb");
        int columns = columns(System.getProperty(COLUMNS_PROPERTY), System.getenv("COLUMNS"),
                interactive ? Env::askTerminal : () -> null);
        return new Env(interactive, columns, Env::installShutdownHook);
    }

    /**
     * The terminal's width: the first positive whole number of {@code property} ({@value #COLUMNS_PROPERTY}, set by
     * the launcher, which asks the terminal), {@code env} ({@code COLUMNS}: a shell sets it without exporting it,
     * so it is there only when the user exported it), and {@code terminal} (asked only when neither is); else
     * {@value #DEFAULT_COLUMNS}.
     */
    static int columns(String property, String env, Supplier<String> terminal) {
        Integer c = positive(property);
        if (c == null) {
            c = positive(env);
        }
        if (c == null) {
            c = positive(terminal.get());
        }
        return c != null ? c : DEFAULT_COLUMNS;
    }

    private static Integer positive(String text) {
        if (text == null) {
            return null;
        }
        try {
            int c = Integer.parseInt(text.trim());
            return c > 0 ? c : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /**
     * The JVM cannot ask the terminal its size; {@code stty size < /dev/tty} can (it prints "rows columns"), in a
     * few milliseconds. Only used when the jar is run without the launcher; null when it fails.
     */
    private static String askTerminal() {
        File tty = new File("/dev/tty");
        if (!tty.exists()) {
            return null;
        }
        try {
            Process p = new ProcessBuilder("stty", "size").redirectInput(tty)
                    .redirectError(ProcessBuilder.Redirect.DISCARD).start();
            byte[] out = p.getInputStream().readAllBytes();
            if (!p.waitFor(1, TimeUnit.SECONDS) || p.exitValue() != 0) {
                p.destroy();
                return null;
            }
            String[] size = new String(out, StandardCharsets.US_ASCII).trim().split("\\s+");
            return size.length == 2 ? size[1] : null;
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    private static Runnable installShutdownHook(Runnable onShutdown) {
        Thread hook = new Thread(onShutdown, "sluice-cli-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        return () -> {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException e) {
                // The JVM is already shutting down (Ctrl-C): the hook is running or has run.
            }
        };
    }

    /**
     * From Java 22 on, {@code System.console()} is not null even when output is redirected; {@code isTerminal()}
     * (Java 22+) then tells. On Java 17 to 21 a non-null console is a terminal.
     */
    private static boolean isTerminal(Console console) {
        if (console == null) {
            return false;
        }
        try {
            Method m = Console.class.getMethod("isTerminal");
            return (Boolean) m.invoke(console);
        } catch (NoSuchMethodException e) {
            return true;
        } catch (ReflectiveOperationException | RuntimeException e) {
            return false;
        }
    }
}
