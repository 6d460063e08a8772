package io.sluice.cli;

import java.io.Console;
import java.lang.reflect.Method;

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

    /** The real terminal and the JVM's shutdown hooks. */
    static Env system() {
        String term = System.getenv("TERM");
        boolean interactive = isTerminal(System.console()) && term != null && !term.equals("dumb");
        return new Env(interactive, columns(System.getenv("COLUMNS")), Env::installShutdownHook);
    }

    static int columns(String env) {
        try {
            int c = env == null ? 80 : Integer.parseInt(env.trim());
            return c > 0 ? c : 80;
        } catch (NumberFormatException e) {
            return 80;
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
