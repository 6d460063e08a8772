package io.sluice.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * {@code sluice s3 dev}: a local S3-compatible server (Adobe S3Mock) in the foreground over a folder, for trying
 * pipelines out; prints the endpoint and the settings that reach it, and stops on Ctrl-C. Buckets and objects stay
 * in the folder between runs. The server comes from the {@code s3-server} folder beside the sluice jar, loaded for
 * this command only ({@link S3ServerPlugin}).
 */
@Command(name = "dev", mixinStandardHelpOptions = true,
        description = "Starts a local S3-compatible server in the foreground; Ctrl-C stops it.")
final class S3DevCommand implements Callable<Integer> {
    static final long STOP_WAIT_SECONDS = 30;
    private final Env env;

    @Spec
    CommandSpec spec;

    @Option(names = "--port", defaultValue = "9090", description = "HTTP port (0 picks a free one). Default: ${DEFAULT-VALUE}.")
    int port;

    @Option(names = "--dir", defaultValue = "./.sluice-s3",
            description = "Where the server keeps its buckets. Default: ${DEFAULT-VALUE}.")
    Path dir;

    S3DevCommand(Env env) {
        this.env = env;
    }

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        if (port != 0 && inUse(port)) {
            throw new IllegalStateException("port " + port + " is already in use; choose another with --port PORT");
        }
        CountDownLatch stopRequested = new CountDownLatch(1);
        CountDownLatch stopped = new CountDownLatch(1);
        try {
            try (S3ServerPlugin.Running server = S3ServerPlugin.start(dir, port)) {
                Runnable uninstall = env.hooks().install(() -> {
                    stopRequested.countDown();
                    try {
                        stopped.await(STOP_WAIT_SECONDS, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                });
                out.println("S3 server running: endpoint " + server.endpoint() + " (buckets in "
                        + dir.toAbsolutePath().normalize() + "). Ctrl-C stops it.");
                out.println("Settings: fs.s3a.endpoint=" + server.endpoint() + " fs.s3a.path.style.access=true "
                        + "fs.s3a.access.key=dev fs.s3a.secret.key=dev (any credentials are accepted)");
                out.println("Try: sluice run --conf fs.s3a.endpoint=" + server.endpoint() + " ... (see "
                        + "docs/object-stores.md)");
                out.flush();
                try {
                    stopRequested.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } finally {
                    uninstall.run();
                }
            }
            out.println("S3 server stopped.");
            out.flush();
        } finally {
            stopped.countDown();
        }
        return 0;
    }

    private static boolean inUse(int p) {
        try (ServerSocket s = new ServerSocket()) {
            s.bind(new InetSocketAddress("localhost", p));
            return false;
        } catch (java.io.IOException e) {
            return true;
        }
    }
}
