package io.sluice.spark;

import io.sluice.api.source.SourceProvider;

import java.util.Locale;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.TreeMap;

/**
 * Finds a Sluice {@link SourceProvider} by short name (case-insensitive) or by class name, with
 * {@link ServiceLoader} on the thread's context class loader: on the driver and again on each executor, so the
 * connector's jar must be on both classpaths.
 */
final class SourceProviders {
    private SourceProviders() {
    }

    /**
     * Sources whose readers take their rows from the memory of the stream that planned them, so a reader built on
     * an executor would find nothing: they cannot be bridged.
     */
    private static final Map<String, String> DRIVER_ONLY = Map.of(
            "socket", "use Spark's own socket source, format(\"socket\")",
            "memory", "use Spark's MemoryStream in Spark's own tests");

    static SourceProvider find(String name) {
        String refused = DRIVER_ONLY.get(name.trim().toLowerCase(Locale.ROOT));
        if (refused != null) {
            throw new IllegalArgumentException("The Sluice source '" + name + "' keeps its rows in the memory of the "
                    + "stream that received them, so Spark's executors cannot read its partitions: " + refused);
        }
        ClassLoader loader = loader();
        TreeMap<String, String> available = new TreeMap<>();
        for (SourceProvider p : ServiceLoader.load(SourceProvider.class, loader)) {
            if (p.shortName().equalsIgnoreCase(name)) {
                return p;
            }
            if (!DRIVER_ONLY.containsKey(p.shortName().toLowerCase(Locale.ROOT))) {
                available.put(p.shortName().toLowerCase(Locale.ROOT), p.getClass().getName());
            }
        }
        if (name.indexOf('.') > 0) {
            try {
                Class<?> c = Class.forName(name, true, loader);
                if (SourceProvider.class.isAssignableFrom(c)) {
                    return (SourceProvider) c.getConstructor().newInstance();
                }
            } catch (ReflectiveOperationException | LinkageError e) {
                // Not a loadable provider class: fall through to the message listing what is available.
            }
        }
        throw new IllegalArgumentException("Unknown Sluice source '" + name + "'. Available: "
                + String.join(", ", available.keySet()) + ". A Sluice source is found when its SourceProvider is "
                + "listed in META-INF/services/io.sluice.api.source.SourceProvider of a jar on Spark's classpath "
                + "(driver and executors), or given by its class name");
    }

    /** The short names on the classpath that can be bridged, sorted, for messages. */
    static String available() {
        TreeMap<String, String> names = new TreeMap<>();
        for (SourceProvider p : ServiceLoader.load(SourceProvider.class, loader())) {
            if (!DRIVER_ONLY.containsKey(p.shortName().toLowerCase(Locale.ROOT))) {
                names.put(p.shortName().toLowerCase(Locale.ROOT), "");
            }
        }
        return String.join(", ", names.keySet());
    }

    private static ClassLoader loader() {
        ClassLoader l = Thread.currentThread().getContextClassLoader();
        return l != null ? l : SourceProviders.class.getClassLoader();
    }
}
