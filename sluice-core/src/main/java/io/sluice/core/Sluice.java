package io.sluice.core;

import io.sluice.api.SluiceClock;
import io.sluice.api.datasource.DataSource;
import io.sluice.api.datasource.DataSourceFileLoader;
import io.sluice.api.function.SqlFunction;
import io.sluice.api.sink.SinkProvider;
import io.sluice.api.source.SourceProvider;
import io.sluice.values.SparkTimestamps;

import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The entry point, the twin of a local SparkSession: {@code Sluice.local().readStream()...}.
 *
 * <p>An instance owns a bounded pool of reader threads ({@code sluice-reader-N}) shared by its queries, a
 * listener thread, and the registry of source and sink providers. {@link #close()} stops every active query and
 * every thread. Thread-safe.
 */
public final class Sluice implements AutoCloseable {
    /** The default of {@link Builder#stopGracePeriod}. */
    public static final java.time.Duration DEFAULT_STOP_GRACE_PERIOD = java.time.Duration.ofSeconds(5);
    /**
     * The configuration key of the session time zone ({@link #sessionTimeZone()}), Spark's own key:
     * {@code spark.sql.session.timeZone}.
     */
    public static final String SESSION_TIME_ZONE = "spark.sql.session.timeZone";
    private final SluiceClock clock;
    private final int parallelism;
    private final long stopGracePeriodMs;
    private final Providers providers;
    private final Map<String, String> config;
    private final ZoneId sessionTimeZone;
    private final UnknownOptions unknownOptions;
    private final TableNames tableNames;
    private final ThreadPoolExecutor readers;
    private final ListenerBus bus = new ListenerBus();
    private final Set<MicroBatchExecution> active = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;
    private final ClassLoader loader;

    private Sluice(Builder b) {
        this.clock = b.clock;
        this.parallelism = b.parallelism;
        this.stopGracePeriodMs = b.stopGracePeriodMs;
        this.providers = new Providers(b.classLoader);
        this.config = Collections.unmodifiableMap(new LinkedHashMap<>(b.config));
        // Read when the instance is built, as Spark reads the JVM's zone when a session's conf is first asked for it.
        this.sessionTimeZone = config(SESSION_TIME_ZONE).map(Builder::sessionZone).orElseGet(ZoneId::systemDefault);
        this.unknownOptions = new UnknownOptions(config(UnknownOptions.CONFIG_KEY).orElse("warn")
                .trim().equalsIgnoreCase("error"));
        this.readers = new ThreadPoolExecutor(parallelism, parallelism, 30, TimeUnit.SECONDS,
                new LinkedBlockingQueue<>(), named("sluice-reader-"));
        this.readers.allowCoreThreadTimeOut(true);
        this.loader = b.classLoader;
        this.tableNames = new TableNames(config, b.classLoader);
        try {
            for (java.nio.file.Path p : b.dataSourceFiles) {
                registerDataSourceFiles(p);
            }
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    /** A Sluice with the real clock and one reader thread per core. */
    public static Sluice local() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Starts describing a streaming source. */
    public DataStreamReader readStream() {
        checkOpen();
        return new DataStreamReader(this);
    }

    /**
     * Starts describing a one-off (bounded) read, as Spark's {@code spark.read()}: the frame it loads holds what
     * the source has now (from its initial position, e.g. {@code startingOffsets}, to everything available or the
     * source's ending option), read with {@link StreamFrame#collectAsList()} or {@link StreamFrame#count()}. For
     * backfills and reconciliation. No checkpoint is involved.
     */
    public DataStreamReader read() {
        checkOpen();
        return new DataStreamReader(this, true);
    }

    /** Makes a source provider available by its short name, in addition to (and ahead of) those on the classpath. */
    public Sluice registerSource(SourceProvider provider) {
        providers.register(provider);
        return this;
    }

    /**
     * Makes a high-level {@link DataSource} available by its {@link DataSource#name()}, like
     * {@link #registerSource}: in addition to (and ahead of) those on the classpath. The engine runs it through the
     * same checkpoint, triggers, read limits and progress as any source.
     */
    public Sluice registerDataSource(DataSource dataSource) {
        providers.register(new DataSourceAdapter(dataSource));
        return this;
    }

    /**
     * Registers the data sources defined in a file of another language, or in every such file of a folder (not
     * its subfolders), as {@link #registerDataSource} does. The engine reads no language itself: a
     * {@link DataSourceFileLoader} found with ServiceLoader on the builder's class loader reads each file it
     * {@link DataSourceFileLoader#reads} (sluice-python's reads {@code .py} files); in a folder, files no loader
     * reads are skipped. A file that cannot be loaded fails here, before any query starts.
     *
     * @throws IllegalArgumentException when the path does not exist, or a file given alone has no loader
     */
    public Sluice registerDataSourceFiles(java.nio.file.Path path) {
        checkOpen();
        List<DataSourceFileLoader> loaders = new ArrayList<>();
        ServiceLoader.load(DataSourceFileLoader.class, loader).forEach(loaders::add);
        List<java.nio.file.Path> files = new ArrayList<>();
        boolean folder = java.nio.file.Files.isDirectory(path);
        if (folder) {
            try (java.util.stream.Stream<java.nio.file.Path> s = java.nio.file.Files.list(path)) {
                s.filter(java.nio.file.Files::isRegularFile).sorted().forEach(files::add);
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException("Cannot list " + path + ": " + e.getMessage(), e);
            }
        } else if (java.nio.file.Files.isRegularFile(path)) {
            files.add(path);
        } else {
            throw new IllegalArgumentException("No such file or folder of data sources: " + path);
        }
        for (java.nio.file.Path f : files) {
            DataSourceFileLoader l = loaders.stream().filter(x -> x.reads(f)).findFirst().orElse(null);
            if (l == null) {
                if (!folder) {
                    throw new IllegalArgumentException("No DataSourceFileLoader on the class path reads " + f
                            + " (loaders: " + (loaders.isEmpty() ? "none" : loaders.stream()
                            .map(x -> x.getClass().getName()).toList()) + "): add the module for such files");
                }
                continue;
            }
            for (DataSource d : l.load(f, parallelism)) {
                registerDataSource(d);
            }
        }
        return this;
    }

    /**
     * The engine's {@link SourceProvider} for a high-level {@link DataSource}: the same adapter
     * {@link #registerDataSource} and the ServiceLoader lookup use (offsets checked to round-trip through JSON and
     * never to go backwards, partitions checked to be serializable). Its {@code shortName()} is the data source's
     * {@code name()}. For tools that run a data source outside a {@code Sluice} instance, such as the Spark bridge.
     *
     * @throws IllegalArgumentException when the data source has no name
     */
    public static SourceProvider sourceProviderOf(DataSource dataSource) {
        return new DataSourceAdapter(dataSource);
    }

    /**
     * The source provider {@code format(..)} resolves to, as {@code load()} finds it: a short name (a registered
     * {@link DataSource} appears as the engine's adapter for it) or a class name. For tools that drive a source the
     * way the engine does, such as the contract test kit.
     *
     * @throws IllegalArgumentException for an unknown format, listing the available ones
     */
    public SourceProvider sourceProvider(String format) {
        checkOpen();
        return providers.source(format);
    }

    public Sluice registerSink(SinkProvider provider) {
        providers.register(provider);
        return this;
    }

    /**
     * Makes a SQL function callable by its {@link SqlFunction#name()} in the transformations of this instance's
     * frames, in addition to (and ahead of) those listed in {@code META-INF/services/io.sluice.api.function.SqlFunction}
     * on the class path. Frames analyse a call when the transformation is applied, so register before.
     *
     * @throws IllegalArgumentException for a function without a name, or with the name of a built-in function
     */
    public Sluice registerFunction(SqlFunction function) {
        providers.register(function);
        return this;
    }

    public void addListener(StreamingQueryListener listener) {
        bus.add(listener);
    }

    public void removeListener(StreamingQueryListener listener) {
        bus.remove(listener);
    }

    /** The queries of this instance that are running now. */
    public List<StreamingQuery> activeQueries() {
        return new ArrayList<>(active);
    }

    public SluiceClock clock() {
        return clock;
    }

    /** Table names through the configured catalogs ({@code readStream().table}, {@code toTable}). */
    TableNames tableNames() {
        return tableNames;
    }

    /** The engine configuration given to {@link Builder#config}, keys as given, in order. */
    public Map<String, String> config() {
        return config;
    }

    /** One engine setting given to {@link Builder#config} (key case-insensitive). */
    public Optional<String> config(String key) {
        return config.entrySet().stream().filter(e -> e.getKey().equalsIgnoreCase(key)).map(Map.Entry::getValue)
                .findFirst();
    }

    /**
     * The session time zone, Spark's {@code spark.sql.session.timeZone} ({@link #SESSION_TIME_ZONE} in
     * {@link Builder#config}; default: the JVM's default zone when this instance was built). A timestamp without a
     * zone is in this zone wherever Sluice reads one (CAST, TIMESTAMP literals, to_timestamp, from_json), dates and
     * timestamps convert through it (CAST, current_date), timestamps are written in it (CAST to string, to_json),
     * and it is the default of the {@code timeZone} option of every source and sink that has one (handed to them as
     * {@code StreamContext.sessionTimeZone()} and {@code SinkContext.sessionTimeZone()}).
     */
    public ZoneId sessionTimeZone() {
        return sessionTimeZone;
    }

    /** The number of reader threads: how many partitions of a batch are read at once. */
    public int parallelism() {
        return parallelism;
    }

    /** Stops every active query (each at a batch boundary), then the threads. Idempotent. */
    @Override
    public void close() {
        closed = true;
        for (MicroBatchExecution q : new ArrayList<>(active)) {
            q.stop();
        }
        readers.shutdownNow();
        bus.close();
    }

    Providers providers() {
        return providers;
    }

    /** How long {@link StreamingQuery#stop()} waits at each of its two steps (see {@link Builder#stopGracePeriod}). */
    long stopGracePeriodMs() {
        return stopGracePeriodMs;
    }

    UnknownOptions unknownOptions() {
        return unknownOptions;
    }

    ExecutorService readers() {
        return readers;
    }

    ListenerBus bus() {
        return bus;
    }

    /** Registers a query about to start; refuses a second active query with the same name. */
    void register(MicroBatchExecution q) {
        synchronized (active) {
            checkNameAvailable(q.name());
            active.add(q);
        }
    }

    /** Fails when this instance is closed or a query of that name is active. */
    void checkNameAvailable(String name) {
        checkOpen();
        if (name == null) {
            return;
        }
        synchronized (active) {
            for (MicroBatchExecution other : active) {
                if (name.equals(other.name())) {
                    throw new IllegalStateException("Cannot start query with name " + name
                            + " as a query with that name is already active in this Sluice instance");
                }
            }
        }
    }

    void unregister(MicroBatchExecution q) {
        active.remove(q);
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("This Sluice instance is closed");
        }
    }

    static ThreadFactory named(String prefix) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, prefix + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }

    /**
     * Settings for a {@link Sluice} instance.
     *
     * <p>Engine configuration ({@link #config}): keys under {@code sluice.} are the engine's and are checked, and
     * so is {@code spark.sql.session.timeZone}; other keys are kept as given ({@link Sluice#config()}) for the code that reads them. Known keys:
     * <ul>
     *   <li>{@code sluice.options.unknown}: {@code warn} (default) or {@code error}, what happens to an option name
     *   a source or sink does not declare (a name close to a declared one always fails); see
     *   {@code SourceProvider.options()}.</li>
     *   <li>{@code spark.sql.session.timeZone} ({@link #SESSION_TIME_ZONE}): the session time zone
     *   ({@link Sluice#sessionTimeZone()}), a zone id as Spark's {@code DateTimeUtils.getZoneId} reads it (a region
     *   such as {@code America/Los_Angeles}, an offset such as {@code +02:00}, {@code UTC}, {@code GMT+2}, or a short
     *   id such as {@code PST}); default: the JVM's default zone.</li>
     *   <li>{@code spark.sql.catalog.<name>} = an implementation, and {@code spark.sql.catalog.<name>.<property>}:
     *   a catalog for table names ({@link DataStreamReader#table}, {@link DataStreamWriter#toTable}), served by the
     *   {@code io.sluice.api.table.TableCatalogProvider} on the class loader that handles that implementation;
     *   {@code spark.sql.defaultCatalog}: the catalog of names that do not start with one (default
     *   {@code spark_catalog}, which exists only when configured).</li>
     * </ul>
     */
    public static final class Builder {
        /** The engine's configuration keys, with what each accepts (checked by {@link #config}). */
        private static final Map<String, List<String>> KNOWN_CONFIG = Map.of(
                UnknownOptions.CONFIG_KEY, List.of("warn", "error"));

        private final Map<String, String> config = new LinkedHashMap<>();
        private SluiceClock clock = SluiceClock.system();
        private int parallelism = Runtime.getRuntime().availableProcessors();
        private ClassLoader classLoader = Thread.currentThread().getContextClassLoader();
        private long stopGracePeriodMs = DEFAULT_STOP_GRACE_PERIOD.toMillis();
        private final List<java.nio.file.Path> dataSourceFiles = new ArrayList<>();

        private Builder() {
        }

        /** The clock every query, trigger and source uses; a {@link ManualClock} in tests. */
        public Builder clock(SluiceClock clock) {
            this.clock = java.util.Objects.requireNonNull(clock, "clock");
            return this;
        }

        /** Reader threads (partitions read at once); positive; default: the number of cores. */
        public Builder parallelism(int parallelism) {
            if (parallelism < 1) {
                throw new IllegalArgumentException("parallelism must be positive: " + parallelism);
            }
            this.parallelism = parallelism;
            return this;
        }

        /**
         * A file (or folder) of data sources in another language, registered by {@link #build()} as
         * {@link Sluice#registerDataSourceFiles} does; may be given several times.
         */
        public Builder dataSourceFiles(java.nio.file.Path path) {
            dataSourceFiles.add(java.util.Objects.requireNonNull(path, "path"));
            return this;
        }

        /** Where providers are looked up with ServiceLoader; default: the context class loader. */
        public Builder classLoader(ClassLoader classLoader) {
            this.classLoader = java.util.Objects.requireNonNull(classLoader, "classLoader");
            return this;
        }

        /**
         * How long {@link StreamingQuery#stop()} waits for the query to reach a batch boundary before it interrupts
         * the query thread and its readers, and how long it then waits for the thread to end before returning
         * anyway; so {@code stop()} returns within twice this. After that interrupt the query thread waits for its
         * readers half of it, leaving the other half for its clean-up. A batch whose reader fails waits this long
         * for the other readers to return. Positive; default 5 seconds.
         */
        public Builder stopGracePeriod(java.time.Duration grace) {
            if (grace.isNegative() || grace.isZero()) {
                throw new IllegalArgumentException("stopGracePeriod must be positive: " + grace);
            }
            this.stopGracePeriodMs = Math.max(1, grace.toMillis());
            return this;
        }

        /**
         * Sets one engine configuration entry; a later value for the same key (case-insensitive) replaces it.
         *
         * @throws IllegalArgumentException for an unknown key under {@code sluice.} (naming the closest known
         *                                  one), or a value the key does not accept
         */
        public Builder config(String key, String value) {
            java.util.Objects.requireNonNull(key, "key");
            java.util.Objects.requireNonNull(value, "value");
            String k = key.toLowerCase(Locale.ROOT);
            if (k.startsWith("sluice.")) {
                List<String> accepted = KNOWN_CONFIG.get(k);
                if (accepted == null) {
                    List<String> known = KNOWN_CONFIG.keySet().stream().sorted().toList();
                    throw new IllegalArgumentException("Unknown Sluice configuration key '" + key + "'"
                            + UnknownOptions.nearest(key, known).map(n -> ": did you mean '" + n + "'?")
                            .orElse(": the known keys are " + String.join(", ", known)));
                }
                if (accepted.stream().noneMatch(a -> a.equalsIgnoreCase(value.trim()))) {
                    throw new IllegalArgumentException("Invalid value '" + value + "' for Sluice configuration '"
                            + k + "': " + String.join(" or ", accepted) + " is accepted");
                }
            }
            if (k.equals(SESSION_TIME_ZONE.toLowerCase(Locale.ROOT))) {
                sessionZone(value);
            }
            config.keySet().removeIf(c -> c.equalsIgnoreCase(key));
            config.put(key, value);
            return this;
        }

        /** Spark's getZoneId, as spark.sql.session.timeZone is checked (SQLConf's isValidTimezone). */
        private static ZoneId sessionZone(String value) {
            ZoneId zone = SparkTimestamps.zoneId(value);
            if (zone == null) {
                throw new IllegalArgumentException("Invalid value '" + value + "' for Sluice configuration '"
                        + SESSION_TIME_ZONE + "': cannot resolve the given time zone; a time zone id such as "
                        + "'America/Los_Angeles', 'UTC', '+02:00', 'GMT+2' or 'PST' is accepted");
            }
            return zone;
        }

        public Sluice build() {
            return new Sluice(this);
        }
    }
}
