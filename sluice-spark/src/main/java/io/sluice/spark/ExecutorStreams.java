package io.sluice.spark;

import io.sluice.api.SluiceClock;
import io.sluice.api.source.MicroBatchStream;
import io.sluice.api.source.SourceProvider;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * The streams an executor JVM reads a streaming query's partitions with: one per {@link ReadSpec} (source, options,
 * schema, query id, source index), made on the first partition and shared by that source's later partitions and
 * batches, so a source is not rebuilt (nor logs its start) per partition. Sharing is within the contract: a
 * stream's {@code createReader} may be called concurrently, and nothing else is called on an executor's stream.
 *
 * <p>A stream is stopped, and its scratch folder deleted, once no reader holds it and either the driver's stream
 * stopped in this JVM (local mode: {@link #evict}), or it has been idle for {@link #IDLE_MILLIS} (executors of a
 * cluster never hear of the driver's stop; the check runs on the next acquire), or the JVM exits (a shutdown
 * hook). Bounded reads ({@code spark.read()}) have no end signal at all and are not cached.
 */
final class ExecutorStreams {
    private static final Logger LOG = LoggerFactory.getLogger(ExecutorStreams.class);
    static final long IDLE_MILLIS = 10 * 60_000L;
    private static final SluiceClock CLOCK = SluiceClock.system();

    /** Guarded by the class lock; so are the fields of every entry. */
    private static final Map<ReadSpec, Shared> STREAMS = new HashMap<>();
    private static boolean hookAdded;

    private ExecutorStreams() {
    }

    /** A stream held by one reader; {@link #close()} gives it back. */
    interface Lease extends AutoCloseable {
        MicroBatchStream stream();

        @Override
        void close();
    }

    private static final class Shared {
        final ReadSpec spec;
        final Path scratch;
        final MicroBatchStream stream;
        int readers;
        long lastUsed;
        boolean evicted;

        Shared(ReadSpec spec, Path scratch, MicroBatchStream stream) {
            this.spec = spec;
            this.scratch = scratch;
            this.stream = stream;
        }
    }

    /** A stream for this spec: the shared one of a streaming query, or a fresh one for a bounded read. */
    static Lease acquire(ReadSpec spec) {
        if (spec.bounded()) {
            Shared own = create(spec);
            return lease(own, () -> stopQuietly(own));
        }
        synchronized (ExecutorStreams.class) {
            sweepIdle();
            Shared s = STREAMS.get(spec);
            if (s == null) {
                s = create(spec);
                STREAMS.put(spec, s);
                addShutdownHook();
            }
            s.readers++;
            Shared held = s;
            return lease(held, () -> release(held));
        }
    }

    private static Lease lease(Shared s, Runnable onClose) {
        return new Lease() {
            private boolean closed;

            @Override
            public MicroBatchStream stream() {
                return s.stream;
            }

            @Override
            public void close() {
                if (!closed) {
                    closed = true;
                    onClose.run();
                }
            }
        };
    }

    private static Shared create(ReadSpec spec) {
        SourceProvider provider = SourceProviders.find(spec.source());
        Path scratch = TempDirs.create("sluice-spark-reader-");
        try {
            return new Shared(spec, scratch, SourceProviders.createStream(provider, spec, scratch));
        } catch (RuntimeException | Error e) {
            TempDirs.deleteQuietly(scratch);
            throw e;
        }
    }

    private static synchronized void release(Shared s) {
        s.readers--;
        s.lastUsed = CLOCK.millis();
        if (s.readers == 0 && s.evicted) {
            stopQuietly(s);
        }
    }

    /** The driver's stream of this query and source stopped (in this JVM): stop its executor streams when idle. */
    static synchronized void evict(String queryId, int sourceIndex) {
        for (Iterator<Shared> it = STREAMS.values().iterator(); it.hasNext(); ) {
            Shared s = it.next();
            if (s.spec.queryId().equals(queryId) && s.spec.sourceIndex() == sourceIndex) {
                it.remove();
                s.evicted = true;
                if (s.readers == 0) {
                    stopQuietly(s);
                }
            }
        }
    }

    private static void sweepIdle() {
        long now = CLOCK.millis();
        for (Iterator<Shared> it = STREAMS.values().iterator(); it.hasNext(); ) {
            Shared s = it.next();
            if (s.readers == 0 && now - s.lastUsed >= IDLE_MILLIS) {
                it.remove();
                stopQuietly(s);
            }
        }
    }

    /** How many streams are cached now, for tests. */
    static synchronized int size() {
        return STREAMS.size();
    }

    private static void addShutdownHook() {
        if (!hookAdded) {
            hookAdded = true;
            Runtime.getRuntime().addShutdownHook(new Thread(ExecutorStreams::stopAll, "sluice-spark-executor-streams-stop"));
        }
    }

    private static void stopAll() {
        List<Shared> all;
        synchronized (ExecutorStreams.class) {
            all = new ArrayList<>(STREAMS.values());
            STREAMS.clear();
        }
        all.forEach(ExecutorStreams::stopQuietly);
    }

    /** A stream's failure to stop must not fail a task that has read its rows; it is logged. */
    private static void stopQuietly(Shared s) {
        try {
            s.stream.stop();
        } catch (RuntimeException e) {
            LOG.warn("Stopping the executor stream of Sluice source '{}' failed", s.spec.source(), e);
        } finally {
            TempDirs.deleteQuietly(s.scratch);
        }
    }
}
