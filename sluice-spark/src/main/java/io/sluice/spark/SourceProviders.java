package io.sluice.spark;

import io.sluice.api.datasource.DataSource;
import io.sluice.api.source.DriverLocalReaders;
import io.sluice.api.source.MicroBatchStream;
import io.sluice.api.source.SourceProvider;
import io.sluice.api.source.StreamContext;
import io.sluice.api.source.SupportsPushDown;
import io.sluice.core.Sluice;

import java.util.Locale;
import java.util.ServiceLoader;
import java.util.TreeSet;

/**
 * Finds a Sluice {@link SourceProvider} by short name (case-insensitive) or by class name, with
 * {@link ServiceLoader} on the thread's context class loader: on the driver and again on each executor, so the
 * connector's jar must be on both classpaths. A high-level {@link DataSource} (listed in
 * {@code META-INF/services/io.sluice.api.datasource.DataSource}) is found the same way, through the engine's adapter.
 *
 * <p>The bridge names no source: one whose readers need the stream that planned them says so with
 * {@link DriverLocalReaders}, and is refused here (provider) or when its stream is made (stream).
 */
final class SourceProviders {
    private SourceProviders() {
    }

    /** The provider for a name or class name, refused when it is a {@link DriverLocalReaders}. */
    static SourceProvider find(String name) {
        SourceProvider p = lookup(name);
        refuseDriverLocal(name, p);
        return p;
    }

    private static SourceProvider lookup(String name) {
        ClassLoader loader = loader();
        for (SourceProvider p : ServiceLoader.load(SourceProvider.class, loader)) {
            if (p.shortName().equalsIgnoreCase(name)) {
                return p;
            }
        }
        for (DataSource d : ServiceLoader.load(DataSource.class, loader)) {
            if (d.name().equalsIgnoreCase(name)) {
                return Sluice.sourceProviderOf(d);
            }
        }
        if (name.indexOf('.') > 0) {
            try {
                Class<?> c = Class.forName(name, true, loader);
                if (SourceProvider.class.isAssignableFrom(c)) {
                    return (SourceProvider) c.getConstructor().newInstance();
                }
                if (DataSource.class.isAssignableFrom(c)) {
                    return Sluice.sourceProviderOf((DataSource) c.getConstructor().newInstance());
                }
            } catch (ReflectiveOperationException | LinkageError e) {
                // Not a loadable provider class: fall through to the message listing what is available.
            }
        }
        throw new IllegalArgumentException("Unknown Sluice source '" + name + "'." + connectorHint(name)
                + " Available: " + available() + ". A Sluice source is found when its SourceProvider is listed in "
                + "META-INF/services/io.sluice.api.source.SourceProvider (or its DataSource in "
                + "META-INF/services/io.sluice.api.datasource.DataSource) of a jar on Spark's classpath "
                + "(driver and executors), or given by its class name");
    }

    /**
     * The stream of a read, made the same way on the driver and on the executors: with the read's push-down when
     * the source {@link SupportsPushDown}s, else plainly.
     */
    static MicroBatchStream createStream(SourceProvider provider, ReadSpec spec, java.nio.file.Path metadataPath) {
        return createStream(provider, spec, spec.context(metadataPath));
    }

    /** {@link #createStream(SourceProvider, ReadSpec, java.nio.file.Path)} with a context of its own. */
    static MicroBatchStream createStream(SourceProvider provider, ReadSpec spec, StreamContext context) {
        return provider instanceof SupportsPushDown p ? p.createStream(context, spec.pushDown())
                : provider.createStream(context);
    }

    /** The connector jar of a source shipped with Sluice, per source name (lower case). */
    private static final java.util.Map<String, String> CONNECTOR_JARS = java.util.Map.of(
            "json", "sluice-spark-files.jar", "csv", "sluice-spark-files.jar", "text", "sluice-spark-files.jar",
            "kafka", "sluice-spark-kafka.jar");

    /** For a source of a Sluice connector whose jar is not on the classpath: which jar to add. */
    private static String connectorHint(String name) {
        String jar = CONNECTOR_JARS.get(name.toLowerCase(Locale.ROOT));
        return jar == null ? "" : " It is in the connector jar " + jar + ": add it to Spark's classpath, on the "
                + "driver and the executors (spark-submit --jars sluice-spark-bridge.jar," + jar + ").";
    }

    /**
     * Spark's executors make their readers on fresh streams; a provider or stream whose readers need the stream
     * that planned them would read nothing there (or fail), so it is refused with the source's own reason.
     */
    static void refuseDriverLocal(String source, Object providerOrStream) {
        if (providerOrStream instanceof DriverLocalReaders d) {
            if (providerOrStream instanceof MicroBatchStream s) {
                try {
                    s.stop();
                } catch (RuntimeException e) {
                    // The refusal below is what the user needs to see.
                }
            }
            throw new IllegalArgumentException("The Sluice source '" + source + "' cannot run on Spark: Spark's "
                    + "executors read partitions on streams of their own, but its readers need the stream that "
                    + "planned them, because " + d.driverLocalReason());
        }
    }

    /** The short names on the classpath that can be bridged, sorted, for messages. */
    static String available() {
        TreeSet<String> names = new TreeSet<>();
        ClassLoader loader = loader();
        for (SourceProvider p : ServiceLoader.load(SourceProvider.class, loader)) {
            if (!(p instanceof DriverLocalReaders)) {
                names.add(p.shortName().toLowerCase(Locale.ROOT));
            }
        }
        for (DataSource d : ServiceLoader.load(DataSource.class, loader)) {
            names.add(d.name().toLowerCase(Locale.ROOT));
        }
        return String.join(", ", names);
    }

    private static ClassLoader loader() {
        ClassLoader l = Thread.currentThread().getContextClassLoader();
        return l != null ? l : SourceProviders.class.getClassLoader();
    }
}
