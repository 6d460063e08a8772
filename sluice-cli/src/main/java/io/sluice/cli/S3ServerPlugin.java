package io.sluice.cli;

import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.MalformedURLException;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The local S3 server of {@code sluice s3 dev}, loaded only for that command, so that the sluice jar carries no
 * server (S3Mock, Spring Boot, Tomcat: some 40 MB). The server is sluice-s3-server's {@code LocalS3Server},
 * reached by reflection on its public builder ({@code builder(Path)}, {@code port(int)}, {@code start()}, then
 * {@code endpoint()} and {@code close()}): the CLI names none of its classes.
 *
 * <p>Where it comes from: the CLI's own class path when the server is on it (the tests); otherwise the jars of the
 * folder {@value #FOLDER} beside the sluice jar (where the build puts the server and its dependencies), on a class
 * loader of its own whose parent is the CLI's. A missing folder fails with one line saying how to build it.
 */
final class S3ServerPlugin {
    static final String SERVER_CLASS = "io.sluice.s3.server.LocalS3Server";
    static final String FOLDER = "s3-server";

    private S3ServerPlugin() {
    }

    /** A started server; {@link #close()} stops it, then lets its classes go. */
    interface Running extends AutoCloseable {
        /** {@code http://localhost:<port>}. */
        String endpoint();

        @Override
        void close();
    }

    /** Starts a server over {@code dataDir} on {@code port} (0: a free one); returns once it serves requests. */
    static Running start(Path dataDir, int port) {
        return start(S3ServerPlugin.class.getClassLoader(), cliJarFolder().resolve(FOLDER), dataDir, port);
    }

    static Running start(ClassLoader cli, Path folder, Path dataDir, int port) {
        URLClassLoader own = null;
        Class<?> server;
        try {
            server = Class.forName(SERVER_CLASS, true, cli);
        } catch (ClassNotFoundException notOnTheClassPath) {
            own = new URLClassLoader("sluice-s3-server", jars(folder), cli);
            try {
                server = Class.forName(SERVER_CLASS, true, own);
            } catch (ClassNotFoundException | LinkageError e) {
                closeQuietly(own);
                throw new IllegalStateException(folder + " holds no S3 server (" + SERVER_CLASS + "): use the "
                        + FOLDER + " folder of the same build (" + e + ")", e);
            }
        }
        // Spring looks classes up through the thread's context class loader; the server's threads inherit it.
        Thread thread = Thread.currentThread();
        ClassLoader context = thread.getContextClassLoader();
        thread.setContextClassLoader(server.getClassLoader());
        try {
            Object builder = server.getMethod("builder", Path.class).invoke(null, dataDir);
            builder.getClass().getMethod("port", int.class).invoke(builder, port);
            Object started = builder.getClass().getMethod("start").invoke(builder);
            String endpoint = (String) started.getClass().getMethod("endpoint").invoke(started);
            Method close = started.getClass().getMethod("close");
            URLClassLoader loader = own;
            return new Running() {
                @Override
                public String endpoint() {
                    return endpoint;
                }

                @Override
                public void close() {
                    try {
                        close.invoke(started);
                    } catch (InvocationTargetException e) {
                        throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
                    } catch (IllegalAccessException e) {
                        throw new IllegalStateException(e);
                    } finally {
                        closeQuietly(loader);
                    }
                }
            };
        } catch (InvocationTargetException e) {
            closeQuietly(own);
            Throwable cause = e.getCause();
            throw cause instanceof RuntimeException r ? r : new IllegalStateException(cause.getMessage(), cause);
        } catch (ReflectiveOperationException | RuntimeException e) {
            closeQuietly(own);
            throw new IllegalStateException("The S3 server in " + folder + " does not have the API this sluice"
                    + " expects (" + e + "): use the " + FOLDER + " folder of the same build", e);
        } finally {
            thread.setContextClassLoader(context);
        }
    }

    /** The one-line error for a server folder that is not there. */
    static String missing(Path folder) {
        return "sluice s3 dev needs the S3 server's jars in " + folder.toAbsolutePath().normalize() + ", which does "
                + "not exist (the build puts them beside the sluice jar): build them with: mvn -q -B package "
                + "-DskipTests -pl sluice-cli -am (bin/sluice does)";
    }

    private static URL[] jars(Path folder) {
        if (!Files.isDirectory(folder)) {
            throw new IllegalStateException(missing(folder));
        }
        List<URL> urls = new ArrayList<>();
        try (Stream<Path> files = Files.list(folder)) {
            for (Path p : files.filter(f -> f.getFileName().toString().endsWith(".jar")).sorted().toList()) {
                urls.add(p.toUri().toURL());
            }
        } catch (IOException e) {
            throw new IllegalStateException("Cannot list " + folder + ": " + e.getMessage(), e);
        }
        if (urls.isEmpty()) {
            throw new IllegalStateException(missing(folder));
        }
        return urls.toArray(URL[]::new);
    }

    private static Path cliJarFolder() {
        try {
            var source = S3ServerPlugin.class.getProtectionDomain().getCodeSource();
            if (source != null && source.getLocation() != null) {
                Path self = Path.of(source.getLocation().toURI());
                return Files.isDirectory(self) ? self : self.toAbsolutePath().getParent();
            }
        } catch (URISyntaxException | RuntimeException e) {
            // fall through: look in the working folder
        }
        return Path.of("");
    }

    private static void closeQuietly(URLClassLoader loader) {
        if (loader != null) {
            try {
                loader.close();
            } catch (IOException e) {
                // nothing held open matters once the server is gone
            }
        }
    }

    @SuppressWarnings("unused")
    private static URL url(Path p) throws MalformedURLException {
        return p.toUri().toURL();
    }
}
