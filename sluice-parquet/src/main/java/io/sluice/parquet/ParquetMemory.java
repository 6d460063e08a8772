package io.sluice.parquet;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The memory budget of one query's open Parquet files (docs/formats/parquet.md#memory-of-open-files), after
 * parquet-java's {@code MemoryManager}, which shares {@code parquet.memory.pool.ratio} of the heap among its
 * writers: each open file's row group may hold {@code pool / open files} bytes (never more than
 * {@code parquet.block.size}, never less than {@code parquet.memory.min.chunk.size}) and is flushed early when it
 * holds more ({@link #share()}); and when the files together hold more than the pool, the thread writing flushes
 * the largest row group among its own open files (a file that gets no rows any more would otherwise keep what it
 * holds). Where parquet-java fails once a share falls below the minimum, Sluice asks the sink to finish its least
 * recently used file first ({@link #mayOpenAnother()}). The buffered bytes are parquet-java's own count (pages
 * encoded and compressed, the page being filled), checked every few rows. Thread-safe: the sink's writer threads
 * share it; each file is flushed only by the thread that writes it.
 */
final class ParquetMemory {
    private final long pool;
    private final long blockSize;
    private final long minChunk;
    private final Set<ParquetFileEncoder> open = ConcurrentHashMap.newKeySet();
    private final AtomicLong buffered = new AtomicLong();

    ParquetMemory(long pool, long blockSize, long minChunk) {
        this.pool = pool;
        this.blockSize = blockSize;
        this.minChunk = Math.min(minChunk, blockSize);
    }

    /** The pool of a query: {@code parquet.memory.pool.ratio} of the JVM's maximum heap. */
    static ParquetMemory of(ParquetSinkSettings s) {
        return new ParquetMemory((long) (Runtime.getRuntime().maxMemory() * s.poolRatio()), s.blockSize(),
                s.minChunk());
    }

    void opened(ParquetFileEncoder e) {
        open.add(e);
    }

    /** The file is finished or dropped: what it reported is released. */
    void closed(ParquetFileEncoder e, long reported) {
        if (open.remove(e)) {
            buffered.addAndGet(-reported);
        }
    }

    /** A file's buffered bytes changed by {@code delta} (its new count minus what it reported before). */
    void changed(long delta) {
        buffered.addAndGet(delta);
    }

    /** The bytes one open file's row group may hold now. */
    long share() {
        long n = Math.max(1, open.size());
        return Math.max(minChunk, Math.min(blockSize, pool / n));
    }

    /** Over the pool: the calling thread's open file holding the most, to flush; null when none holds anything. */
    ParquetFileEncoder largestOfThisThreadIfOver() {
        if (buffered.get() <= pool) {
            return null;
        }
        Thread self = Thread.currentThread();
        ParquetFileEncoder largest = null;
        for (ParquetFileEncoder e : open) {
            if (e.owner() == self && e.reported() > 0 && (largest == null || e.reported() > largest.reported())) {
                largest = e;
            }
        }
        return largest;
    }

    /** Whether one more file fits with every open file's share at least the minimum (always true for the first). */
    boolean mayOpenAnother() {
        int n = open.size();
        return n == 0 || (n + 1) * minChunk <= pool;
    }

    long pool() {
        return pool;
    }

    long buffered() {
        return buffered.get();
    }

    int openFiles() {
        return open.size();
    }
}
