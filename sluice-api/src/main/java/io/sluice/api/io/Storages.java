package io.sluice.api.io;

import io.sluice.api.InvalidOptionException;

import java.io.IOException;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.ServiceLoader;

/**
 * Finds the {@link Storage} for a URI, and the few string operations on storage URIs.
 *
 * <ul>
 *   <li>A plain path ({@code /data/chk}, {@code chk}) or a {@code file:} URI is the local disk: {@link #local()},
 *       built on {@link DurableFiles} (temp file, fsync, then link or rename), with the path rules of
 *       {@link LocalPaths}.</li>
 *   <li>Any other scheme ({@code s3://}, {@code s3a://}) goes to the {@link StorageProvider} that
 *       {@link ServiceLoader} finds for it on the class loader. With none, the error names the scheme and the
 *       module that brings it ({@code sluice-s3} for {@code s3} and {@code s3a}).</li>
 * </ul>
 */
public final class Storages {

    private Storages() {
    }

    /** The local disk. Never needs closing. */
    public static Storage local() {
        return LocalStorage.INSTANCE;
    }

    /** True when {@code uri} is a plain path or a {@code file:} URI: the local disk. */
    public static boolean isLocal(String uri) {
        Optional<String> scheme = LocalPaths.scheme(uri);
        return scheme.isEmpty() || scheme.get().equals("file");
    }

    /** {@link #of(String, Map, ClassLoader)} on the thread's context class loader. */
    public static Storage of(String uri, Map<String, String> conf) throws IOException {
        return of(uri, conf, Thread.currentThread().getContextClassLoader());
    }

    /**
     * The storage for {@code uri}: {@link #local()} for a local one, else a new storage from the scheme's provider
     * (which the caller closes).
     *
     * @param conf engine configuration overlaid with the query's options (see {@link StorageProvider#open})
     * @throws IllegalArgumentException when no provider serves the scheme, naming the scheme and the module to add
     */
    public static Storage of(String uri, Map<String, String> conf, ClassLoader loader) throws IOException {
        Objects.requireNonNull(uri, "uri");
        Objects.requireNonNull(conf, "conf");
        if (isLocal(uri)) {
            return local();
        }
        String scheme = LocalPaths.scheme(uri).orElseThrow();
        Optional<StorageProvider> p = provider(scheme, loader);
        if (p.isEmpty()) {
            throw new IllegalArgumentException(unsupported(uri, scheme));
        }
        return p.get().open(uri, conf);
    }

    /**
     * Validates a path option before anything starts: a local path as {@link LocalPaths#of} accepts it, or a
     * scheme that a provider on the class loader serves.
     *
     * @throws InvalidOptionException naming the option, the value, the scheme and the module to add
     */
    public static void check(String option, String value, ClassLoader loader) {
        Objects.requireNonNull(value, "value");
        if (isLocal(value)) {
            LocalPaths.of(option, value);
            return;
        }
        String scheme = LocalPaths.scheme(value).orElseThrow();
        if (provider(scheme, loader).isEmpty()) {
            throw new InvalidOptionException(option, value, unsupported(value, scheme));
        }
    }

    /** True when a provider on {@code loader} serves {@code scheme} (lower case), or it is {@code file}. */
    public static boolean isSupported(String scheme, ClassLoader loader) {
        return scheme.equals("file") || provider(scheme, loader).isPresent();
    }

    /** The project's module that serves {@code scheme}, if any: {@code sluice-s3} for {@code s3} and {@code s3a}. */
    public static Optional<String> moduleFor(String scheme) {
        return switch (scheme.toLowerCase(Locale.ROOT)) {
            case "s3", "s3a" -> Optional.of("sluice-s3");
            default -> Optional.empty();
        };
    }

    /**
     * The {@code conf} a {@link StorageProvider} gets, built as Spark builds a query's Hadoop configuration: the
     * engine's entries, with {@code spark.hadoop.} stripped from keys that have it, then the query's options
     * (those of the source or sink the path belongs to, their {@code spark.hadoop.} stripped too) over them, except
     * {@code path} and {@code paths}. When one level (the engine's or the query's) has a key both with and without the
     * prefix, the one without wins, whatever the map's order; a query's option wins over the engine's either way.
     */
    public static Map<String, String> conf(Map<String, String> engine, Map<String, String> options) {
        Map<String, String> out = stripped(engine);
        // Each level is resolved on its own first: a query's option wins over the engine's, with or without the
        // prefix on either side (a merged map would let the engine's unprefixed key beat the query's prefixed one).
        stripped(options).forEach((k, v) -> {
            if (!k.equalsIgnoreCase("path") && !k.equalsIgnoreCase("paths")) {
                out.put(k, v);
            }
        });
        return out;
    }

    /** {@code level} with {@code spark.hadoop.} dropped; a key given both ways: the one without the prefix wins. */
    private static Map<String, String> stripped(Map<String, String> level) {
        Map<String, String> out = new java.util.LinkedHashMap<>();
        level.forEach((k, v) -> {
            if (k.startsWith("spark.hadoop.")) {
                out.putIfAbsent(k.substring("spark.hadoop.".length()), v);
            }
        });
        level.forEach((k, v) -> {
            if (!k.startsWith("spark.hadoop.")) {
                out.put(k, v);
            }
        });
        return out;
    }

    /** {@code base} and then {@code name}, with exactly one {@code /} between them. */
    public static String child(String base, String name) {
        if (base.endsWith("/")) {
            return name.startsWith("/") ? base + name.substring(1) : base + name;
        }
        return name.startsWith("/") ? base + name : base + "/" + name;
    }

    /** {@code uri} with a {@code /} at the end, the form {@link Storage#list} takes for a folder's content. */
    public static String asFolder(String uri) {
        return uri.endsWith("/") ? uri : uri + "/";
    }

    /** The last segment of a URI: {@code b.json} for {@code s3a://bucket/a/b.json} (and for {@code .../b.json/}). */
    public static String name(String uri) {
        int end = uri.endsWith("/") ? uri.length() - 1 : uri.length();
        int slash = uri.lastIndexOf('/', end - 1);
        return uri.substring(slash + 1, end);
    }

    private static Optional<StorageProvider> provider(String scheme, ClassLoader loader) {
        ClassLoader l = loader != null ? loader : Storages.class.getClassLoader();
        for (StorageProvider p : ServiceLoader.load(StorageProvider.class, l)) {
            if (p.schemes().contains(scheme)) {
                return Optional.of(p);
            }
        }
        return Optional.empty();
    }

    private static String unsupported(String uri, String scheme) {
        Optional<String> module = moduleFor(scheme);
        return "the scheme '" + scheme + "' of " + uri + " has no storage on the class path: "
                + module.map(m -> "add the module " + m + " (its jar, or its plugin jar for the sluice CLI)")
                .orElse("Sluice supports local paths (/data/in, file:/data/in) and, with the module sluice-s3, "
                        + "s3:// and s3a://");
    }
}
