package io.sluice.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.MalformedURLException;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * The connector jars {@code sluice run} loads besides its own class path: the project's plugins, which the
 * sluice-cli build copies into {@value #FOLDER}/ beside {@code sluice.jar} (each module {@code sluice-X} that builds
 * {@code sluice-X/target/sluice-X-plugin.jar}, found by that name), and the jars of the folder {@code --plugins} /
 * {@code SLUICE_PLUGINS} names. A jar of the user's folder wins over a built one of the same file name, so a copy
 * of a built plugin there is not loaded twice. {@link #KNOWN} is the one list of the project's plugins: the formats
 * each brings, for the error that names the jar to add when a format is missing ({@link #advice}).
 */
final class Plugins {
    /** The folder beside sluice.jar that the build fills. */
    static final String FOLDER = "plugins";

    /**
     * A plugin the project builds: its jar's file name and the formats (sources, sinks) it brings; none for one that
     * brings something else (sluice-otlp: the OTLP export of the metrics, found as a {@code MetricsExporter}).
     */
    record Known(String module, String jar, List<String> formats) {
    }

    /** The project's plugins. A new one: its module builds {@code target/<jar>}, and is listed here. */
    static final List<Known> KNOWN = List.of(
            new Known("sluice-parquet", "sluice-parquet-plugin.jar", List.of("parquet")),
            new Known("sluice-avro", "sluice-avro-plugin.jar", List.of("avro")),
            // No format: the RocksDB state store, chosen by --conf spark.sql.streaming.stateStore.providerClass=...
            new Known("sluice-rocksdb", "sluice-rocksdb-plugin.jar", List.of()),
            // No format: the s3:// and s3a:// storage (the file source, the file sink, checkpoints).
            new Known("sluice-s3", "sluice-s3-plugin.jar", List.of()),
            new Known("sluice-delta", "sluice-delta-plugin.jar", List.of("delta")),
            new Known("sluice-iceberg", "sluice-iceberg-plugin.jar", List.of("iceberg")),
            new Known("sluice-otlp", "sluice-otlp-plugin.jar", List.of()));

    private Plugins() {
    }

    /** {@value #FOLDER} beside the jar this class was loaded from (the build's target folder in development). */
    static Path builtFolder() {
        try {
            var source = Plugins.class.getProtectionDomain().getCodeSource();
            if (source != null && source.getLocation() != null) {
                Path self = Path.of(source.getLocation().toURI());
                return (Files.isDirectory(self) ? self : self.toAbsolutePath().getParent()).resolve(FOLDER);
            }
        } catch (URISyntaxException | RuntimeException e) {
            // fall through: no built plugins
        }
        return Path.of(FOLDER);
    }

    /**
     * A class loader over the user's folder's jars (name order, one loader for them all), then each of the built
     * folder's jars of other file names (one loader each: {@link PluginLoader}); none when there is no jar at all.
     * {@code user} may be null; when given it must be a folder.
     */
    static Optional<PluginLoader> loader(Path user, Path built, ClassLoader parent) {
        List<URLClassLoader> parts = new ArrayList<>();
        Set<String> names = new HashSet<>();
        if (user != null) {
            if (!Files.isDirectory(user)) {
                throw new IllegalArgumentException("Plugins folder " + user + " does not exist or is not a folder");
            }
            List<Path> jars = jars(user);
            jars.forEach(j -> names.add(j.getFileName().toString()));
            if (!jars.isEmpty()) {
                parts.add(new URLClassLoader("sluice-plugins-user", urls(jars), parent));
            }
        }
        if (built != null && Files.isDirectory(built)) {
            for (Path jar : jars(built)) {
                if (names.add(jar.getFileName().toString())) {
                    parts.add(new URLClassLoader("sluice-plugin-" + jar.getFileName(), urls(List.of(jar)), parent));
                }
            }
        }
        return parts.isEmpty() ? Optional.empty() : Optional.of(new PluginLoader(parts, parent));
    }

    private static URL[] urls(List<Path> jars) {
        List<URL> urls = new ArrayList<>();
        for (Path jar : jars) {
            try {
                urls.add(jar.toUri().toURL());
            } catch (MalformedURLException e) {
                throw new IllegalArgumentException("Cannot use plugin jar " + jar + ": " + e.getMessage(), e);
            }
        }
        return urls.toArray(URL[]::new);
    }

    private static List<Path> jars(Path dir) {
        List<Path> jars = new ArrayList<>();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, "*.jar")) {
            files.forEach(jars::add);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot list plugins folder " + dir + ": " + e.getMessage(), e);
        }
        jars.sort(null);
        return jars;
    }

    /**
     * For the engine's "Unknown source/sink format 'x'" of a format a known plugin brings: which jar to add and
     * how to build it; empty for any other message.
     */
    static Optional<String> advice(String message, Path built) {
        if (message == null) {
            return Optional.empty();
        }
        var m = java.util.regex.Pattern.compile("^Unknown (source|sink) format '([^']*)'").matcher(message);
        if (!m.find()) {
            return Optional.empty();
        }
        String format = m.group(2).toLowerCase(Locale.ROOT);
        for (Known k : KNOWN) {
            if (k.formats().contains(format)) {
                return Optional.of(missing(k, "The " + m.group(1) + " format '" + format + "'", built));
            }
        }
        return Optional.empty();
    }

    /** {@code <what> is in the plugin <jar>, which is not in ...: build it with ...} for the known {@code module}. */
    static String missing(String module, String what, Path built) {
        return missing(KNOWN.stream().filter(k -> k.module().equals(module)).findFirst().orElseThrow(), what, built);
    }

    private static String missing(Known k, String what, Path built) {
        return what + " is in the plugin " + k.jar() + ", which is not in " + built + " nor in the --plugins folder: "
                + "build it with `mvn -pl " + k.module() + " -am package -DskipTests` (bin/sluice builds it with the "
                + "CLI) and put " + k.module() + "/target/" + k.jar() + " in " + built + " or in the folder given to "
                + "--plugins";
    }
}
