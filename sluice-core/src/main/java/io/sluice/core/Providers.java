package io.sluice.core;

import io.sluice.api.datasource.DataSource;
import io.sluice.api.function.SqlFunction;
import io.sluice.api.sink.SinkProvider;
import io.sluice.api.source.SourceProvider;
import io.sluice.core.expr.Compiler;

import java.util.Locale;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Finds source and sink providers by short name, and contributed SQL functions by name: those listed through
 * {@link ServiceLoader} on the class loader, plus those registered in code, which win. The engine names no provider;
 * built-in ones register like any other.
 */
final class Providers {
    private final Map<String, SourceProvider> sources = new ConcurrentHashMap<>();
    private final Map<String, SinkProvider> sinks = new ConcurrentHashMap<>();
    private final Map<String, SqlFunction> functions = new ConcurrentHashMap<>();
    private final ClassLoader loader;

    Providers(ClassLoader loader) {
        this.loader = loader;
        for (SourceProvider p : ServiceLoader.load(SourceProvider.class, loader)) {
            putFirst(sources, p.shortName(), p, SourceProvider.class);
        }
        for (DataSource d : ServiceLoader.load(DataSource.class, loader)) {
            putFirst(sources, d.name(), new DataSourceAdapter(d), SourceProvider.class);
        }
        for (SinkProvider p : ServiceLoader.load(SinkProvider.class, loader)) {
            putFirst(sinks, p.shortName(), p, SinkProvider.class);
        }
        for (SqlFunction f : ServiceLoader.load(SqlFunction.class, loader)) {
            checkFunctionName(f);
            SqlFunction previous = functions.putIfAbsent(key(f.name()), f);
            if (previous != null && previous.getClass() != f.getClass()) {
                throw new IllegalStateException("Two SqlFunctions claim the name '" + f.name() + "': "
                        + previous.getClass().getName() + " and " + f.getClass().getName()
                        + ". Remove one of them from the classpath.");
            }
        }
    }

    private static void checkFunctionName(SqlFunction f) {
        String name = f.name();
        if (name == null || name.isBlank()) {
            throw new IllegalStateException("SqlFunction " + f.getClass().getName() + " has no name");
        }
        if (Compiler.isBuiltInFunction(name)) {
            throw new IllegalStateException("SqlFunction " + f.getClass().getName() + " claims the name '" + name
                    + "' of a built-in function, which cannot be replaced");
        }
    }

    private static <T> void putFirst(Map<String, T> map, String name, T provider, Class<T> kind) {
        T previous = map.putIfAbsent(key(name), provider);
        if (previous != null && origin(previous) != origin(provider)) {
            if (previous instanceof DataSourceAdapter || provider instanceof DataSourceAdapter) {
                throw new IllegalStateException("Two sources claim the short name '" + name + "': "
                        + describe(previous) + " and " + describe(provider)
                        + ". Remove one of them from the classpath.");
            }
            throw new IllegalStateException("Two " + kind.getSimpleName() + "s claim the short name '" + name + "': "
                    + previous.getClass().getName() + " and " + provider.getClass().getName()
                    + ". Remove one of them from the classpath.");
        }
    }

    /** The user's class behind a provider: a data source's own class, not its adapter's. */
    private static Class<?> origin(Object provider) {
        return provider instanceof DataSourceAdapter a ? a.dataSource().getClass() : provider.getClass();
    }

    private static String describe(Object provider) {
        return (provider instanceof DataSourceAdapter ? "DataSource " : "SourceProvider ")
                + origin(provider).getName();
    }

    void register(SourceProvider p) {
        sources.put(key(p.shortName()), p);
    }

    void register(SinkProvider p) {
        sinks.put(key(p.shortName()), p);
    }

    /**
     * Adds a function ahead of one of the same name found on the classpath.
     *
     * @throws IllegalArgumentException for a function without a name or with a built-in function's name
     */
    void register(SqlFunction f) {
        try {
            checkFunctionName(f);
        } catch (IllegalStateException e) {
            throw new IllegalArgumentException(e.getMessage());
        }
        functions.put(key(f.name()), f);
    }

    /** The contributed functions now, by lower-case name, sorted: what an analysis of SQL text sees. */
    Map<String, SqlFunction> functions() {
        return new TreeMap<>(functions);
    }

    SourceProvider source(String format) {
        return find(sources, format, SourceProvider.class, "source", "Sluice.registerSource", loader);
    }

    SinkProvider sink(String format) {
        return find(sinks, format, SinkProvider.class, "sink", "Sluice.registerSink", loader);
    }

    /** A format is a short name, or the class name of a provider with a public no-argument constructor. */
    private static <T> T find(Map<String, T> map, String format, Class<T> kind, String what, String register,
                              ClassLoader loader) {
        if (format == null || format.isBlank()) {
            throw new IllegalArgumentException("No " + what + " format given: call format(\"<name>\"); available: "
                    + names(map));
        }
        T p = map.get(key(format));
        if (p != null) {
            return p;
        }
        if (format.contains(".")) {
            Object instance = instantiate(format, kind, what, loader);
            if (instance != null) {
                return kind.cast(instance);
            }
        }
        throw new IllegalArgumentException("Unknown " + what + " format '" + format + "'. Available: " + names(map)
                + ". A custom " + what + " is found when its " + kind.getSimpleName() + " is listed in META-INF/services/"
                + kind.getName() + (kind == SourceProvider.class ? " (or its DataSource in META-INF/services/"
                + DataSource.class.getName() + ")" : "") + " on the classpath, or registered with " + register
                + (kind == SourceProvider.class ? "(...) or Sluice.registerDataSource" : "") + "(...).");
    }

    private static Object instantiate(String className, Class<?> kind, String what, ClassLoader loader) {
        Class<?> c;
        try {
            c = Class.forName(className, true, loader);
        } catch (ClassNotFoundException e) {
            return null;
        }
        if (kind == SourceProvider.class && DataSource.class.isAssignableFrom(c)) {
            try {
                return new DataSourceAdapter((DataSource) c.getConstructor().newInstance());
            } catch (ReflectiveOperationException e) {
                throw new IllegalArgumentException("Cannot create data source " + className
                        + ": it needs a public no-argument constructor", e);
            }
        }
        if (!kind.isAssignableFrom(c)) {
            throw new IllegalArgumentException("Class " + className + " given as " + what + " format does not implement "
                    + kind.getName());
        }
        try {
            return c.getConstructor().newInstance();
        } catch (ReflectiveOperationException e) {
            throw new IllegalArgumentException("Cannot create " + what + " provider " + className
                    + ": it needs a public no-argument constructor", e);
        }
    }

    private static String names(Map<String, ?> map) {
        return String.join(", ", new TreeMap<>(map).keySet());
    }

    private static String key(String name) {
        return name.toLowerCase(Locale.ROOT);
    }

    /** Short names, sorted, for listings. */
    Map<String, SourceProvider> sources() {
        return new TreeMap<>(sources);
    }

    Map<String, SinkProvider> sinks() {
        return new TreeMap<>(sinks);
    }

}
