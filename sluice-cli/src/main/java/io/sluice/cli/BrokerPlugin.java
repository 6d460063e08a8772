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
import java.util.Map;

/**
 * The local Kafka broker of {@code sluice kafka dev}, loaded only for that command, so that the sluice jar carries
 * no broker (Kafka's server, Scala, Log4j: some 30 MB). The broker is sluice-kafka-broker's
 * {@code LocalKafkaBroker}, reached by reflection on its public builder ({@code builder(Path)}, {@code port(int)},
 * {@code config(String, String)}, {@code start()}, then {@code bootstrapServers()} and {@code close()}): the CLI
 * names none of its classes.
 *
 * <p>Where it comes from: the CLI's own class path when the broker is on it (the tests, the docs harness); otherwise
 * the jar named by the system property {@value #JAR_PROPERTY}, else by the environment variable {@value #JAR_ENV},
 * else {@value #JAR_NAME} in the sluice jar's folder (where the build puts it), on a class loader of its own whose
 * parent is the CLI's (so Kafka's clients and SLF4J, and the CLI's logging settings, are shared). A missing jar
 * fails with one line saying how to build it ({@link #missing}).
 */
final class BrokerPlugin {
    static final String BROKER_CLASS = "io.sluice.kafka.broker.LocalKafkaBroker";
    static final String JAR_NAME = "sluice-kafka-broker.jar";
    static final String JAR_PROPERTY = "sluice.kafka.broker.jar";
    static final String JAR_ENV = "SLUICE_KAFKA_BROKER_JAR";
    /** The exception {@code start()} throws for a client port already taken. */
    private static final String PORT_IN_USE = BROKER_CLASS + "$PortInUseException";

    private BrokerPlugin() {
    }

    /** A started broker; {@link #close()} stops it and waits, then lets its classes go. */
    interface Running extends AutoCloseable {
        /** {@code localhost:<port>}. */
        String bootstrapServers();

        @Override
        void close();
    }

    /** The given client port is taken by another socket (the broker's message says which). */
    static final class PortInUseException extends IllegalStateException {
        PortInUseException(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /**
     * Starts a broker with its data in {@code dataDir} on {@code port} (0: a free one), {@code config} applied last
     * ({@code server.properties} keys); returns once it serves clients.
     *
     * @throws PortInUseException    when {@code port} is taken
     * @throws IllegalStateException when the broker jar cannot be found ({@link #missing})
     */
    static Running start(Path dataDir, int port, Map<String, String> config) {
        return start(BrokerPlugin.class.getClassLoader(),
                brokerJar(System.getProperty(JAR_PROPERTY), System.getenv(JAR_ENV), cliJarFolder()),
                dataDir, port, config);
    }

    /** {@link #start(Path, int, Map)} with the broker looked up from {@code cli}, else from {@code jar}. */
    static Running start(ClassLoader cli, Path jar, Path dataDir, int port, Map<String, String> config) {
        URLClassLoader own = null;
        Class<?> broker;
        try {
            broker = Class.forName(BROKER_CLASS, true, cli);
        } catch (ClassNotFoundException notOnTheClassPath) {
            own = new URLClassLoader("sluice-kafka-broker", new URL[]{url(jar)}, cli);
            broker = load(own, jar);
        }
        // Kafka looks some classes up through the thread's context class loader: let it see the broker's, and the
        // threads the broker starts inherit it.
        Thread thread = Thread.currentThread();
        ClassLoader context = thread.getContextClassLoader();
        thread.setContextClassLoader(broker.getClassLoader());
        try {
            Object builder = broker.getMethod("builder", Path.class).invoke(null, dataDir);
            Class<?> b = builder.getClass();
            b.getMethod("port", int.class).invoke(builder, port);
            Method set = b.getMethod("config", String.class, String.class);
            for (Map.Entry<String, String> e : config.entrySet()) {
                set.invoke(builder, e.getKey(), e.getValue());
            }
            Object started = b.getMethod("start").invoke(builder);
            return running(started, own);
        } catch (InvocationTargetException e) {
            closeQuietly(own);
            Throwable cause = e.getCause();
            if (cause.getClass().getName().equals(PORT_IN_USE)) {
                throw new PortInUseException(cause.getMessage(), cause);
            }
            throw cause instanceof RuntimeException r ? r : new IllegalStateException(cause.getMessage(), cause);
        } catch (ReflectiveOperationException | RuntimeException e) {
            closeQuietly(own);
            throw new IllegalStateException("The Kafka broker in " + jar + " does not have the API this sluice"
                    + " expects (" + e + "): use the sluice-kafka-broker.jar of the same build", e);
        } finally {
            thread.setContextClassLoader(context);
        }
    }

    /**
     * The broker jar to load: {@code property} ({@value #JAR_PROPERTY}), else {@code env} ({@value #JAR_ENV}), else
     * {@value #JAR_NAME} in {@code cliJarFolder}. Blank values count as absent.
     */
    static Path brokerJar(String property, String env, Path cliJarFolder) {
        if (property != null && !property.isBlank()) {
            return Path.of(property.strip());
        }
        if (env != null && !env.isBlank()) {
            return Path.of(env.strip());
        }
        return cliJarFolder.resolve(JAR_NAME);
    }

    /** The one-line error for a broker jar that is not there. */
    static String missing(Path jar) {
        return "sluice kafka dev needs the broker jar " + jar.toAbsolutePath().normalize() + ", which does not exist"
                + " (-D" + JAR_PROPERTY + "=PATH or " + JAR_ENV + "=PATH names another; by default " + JAR_NAME
                + " beside the sluice jar): build both with: mvn -q -B package -DskipTests -pl sluice-cli -am"
                + " (bin/sluice does)";
    }

    private static Class<?> load(URLClassLoader own, Path jar) {
        if (!Files.isRegularFile(jar)) {
            closeQuietly(own);
            throw new IllegalStateException(missing(jar));
        }
        try {
            return Class.forName(BROKER_CLASS, true, own);
        } catch (ClassNotFoundException | LinkageError e) {
            closeQuietly(own);
            throw new IllegalStateException(jar + " holds no Kafka broker (" + BROKER_CLASS + "): use the "
                    + JAR_NAME + " of the same build (" + e + ")", e);
        }
    }

    private static Running running(Object broker, URLClassLoader own) throws ReflectiveOperationException {
        Method servers = broker.getClass().getMethod("bootstrapServers");
        Method close = broker.getClass().getMethod("close");
        String bootstrap = (String) servers.invoke(broker);
        return new Running() {
            @Override
            public String bootstrapServers() {
                return bootstrap;
            }

            @Override
            public void close() {
                try {
                    close.invoke(broker);
                } catch (InvocationTargetException e) {
                    throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
                } catch (IllegalAccessException e) {
                    throw new IllegalStateException(e);
                } finally {
                    closeQuietly(own);
                }
            }
        };
    }

    /** The folder of the jar (or classes folder) this class was loaded from; the working folder if unknown. */
    private static Path cliJarFolder() {
        try {
            var source = BrokerPlugin.class.getProtectionDomain().getCodeSource();
            if (source != null && source.getLocation() != null) {
                Path self = Path.of(source.getLocation().toURI());
                return Files.isDirectory(self) ? self : self.toAbsolutePath().getParent();
            }
        } catch (URISyntaxException | RuntimeException e) {
            // fall through: look in the working folder
        }
        return Path.of("");
    }

    private static URL url(Path jar) {
        try {
            return jar.toUri().toURL();
        } catch (MalformedURLException e) {
            throw new IllegalStateException("Not a usable path for the broker jar: " + jar, e);
        }
    }

    private static void closeQuietly(URLClassLoader loader) {
        if (loader != null) {
            try {
                loader.close();
            } catch (IOException e) {
                // nothing held open matters once the broker is gone
            }
        }
    }
}
