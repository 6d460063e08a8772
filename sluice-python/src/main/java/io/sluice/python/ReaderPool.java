package io.sluice.python;

import io.sluice.api.Row;
import io.sluice.api.source.InputPartition;

import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;

/**
 * The reading workers of one query source: at most {@code size} (the engine's parallelism) Python processes, each
 * with its own reader built from the options (as Spark's executors read with a copy made at planning), started on
 * first need and kept warm across batches. A worker that failed in an unknown state (died, interrupted, abandoned
 * mid-read) is killed and replaced by a fresh one at the next read; one whose Python code raised is kept.
 */
final class ReaderPool implements AutoCloseable {
    private final WorkerSpec spec;
    private final String kind;
    private final Semaphore permits;
    private final BlockingQueue<PythonWorker> idle;
    private final Set<PythonWorker> all = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;

    ReaderPool(WorkerSpec spec, String kind, int size) {
        this.spec = spec;
        this.kind = kind;
        this.permits = new Semaphore(size);
        this.idle = new ArrayBlockingQueue<>(size);
    }

    /**
     * The rows of one partition, read by a pooled worker; closing the iterator early kills that worker. A warm
     * worker found dead when the request is sent (killed while idle) is replaced at once: no row was read yet.
     */
    Iterator<Row> read(InputPartition partition) {
        if (!(partition instanceof PythonPartition p)) {
            throw new IllegalArgumentException("Not a Python partition: " + partition);
        }
        Map<String, Object> request = Map.of("partition", java.util.Base64.getEncoder().encodeToString(p.pickle()));
        while (true) {
            boolean[] fresh = new boolean[1];
            PythonWorker w = borrow(fresh);
            try {
                w.send("read", request);
                return new Rows(w);
            } catch (PythonSourceException e) {
                give(w, false);
                if (fresh[0] || Thread.currentThread().isInterrupted()) {
                    throw e;
                }
            }
        }
    }

    private PythonWorker borrow(boolean[] fresh) {
        if (closed) {
            throw new IllegalStateException("The Python readers of '" + spec.sourceName() + "' are stopped");
        }
        try {
            permits.acquire();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new PythonSourceException("Python data source '" + spec.sourceName()
                    + "': interrupted waiting for a reading worker", e);
        }
        PythonWorker w = idle.poll();
        while (w != null && !w.alive()) {
            all.remove(w);
            w.kill();
            w = idle.poll();
        }
        if (w != null) {
            return w;
        }
        fresh[0] = true;
        try {
            w = spec.startReader(kind, null);
        } catch (RuntimeException e) {
            permits.release();
            throw e;
        }
        all.add(w);
        if (closed) {
            w.kill();
            all.remove(w);
            permits.release();
            throw new IllegalStateException("The Python readers of '" + spec.sourceName() + "' are stopped");
        }
        return w;
    }

    private void give(PythonWorker w, boolean healthy) {
        if (healthy && !closed && w.alive()) {
            idle.offer(w);
        } else {
            w.kill();
            all.remove(w);
        }
        permits.release();
    }

    /** How many worker processes are running now (for tests and progress). */
    int workers() {
        return all.size();
    }

    Set<PythonWorker> workerSet() {
        return all;
    }

    /** Stops every worker, idle or busy: a busy one is killed, so a read blocked in Python ends at once. */
    @Override
    public void close() {
        closed = true;
        for (PythonWorker w : all) {
            if (idle.remove(w)) {
                w.close();
            } else {
                w.kill();
            }
        }
        all.clear();
    }

    private final class Rows implements Iterator<Row>, AutoCloseable {
        private final RowDecoder decoder = new RowDecoder(spec.schema());
        private PythonWorker worker;
        private Row[] batch = new Row[0];
        private int next;
        private boolean done;

        Rows(PythonWorker worker) {
            this.worker = worker;
        }

        @Override
        public boolean hasNext() {
            while (next == batch.length) {
                if (done) {
                    return false;
                }
                fetch();
            }
            return true;
        }

        private void fetch() {
            PythonWorker w = worker;
            PythonWorker.Frame f;
            try {
                f = w.next("read");
            } catch (RuntimeException e) {
                finish(false);
                throw e;
            }
            if (f.kind() == 'B') {
                try {
                    batch = decoder.decode(f.payload());
                } catch (RuntimeException e) {
                    finish(false);
                    throw new PythonSourceException("Python data source '" + spec.sourceName()
                            + "': a batch of rows could not be decoded: " + e, e);
                }
                next = 0;
                return;
            }
            try {
                w.answer("read", f);
                finish(true);
            } catch (PythonSourceException e) {
                finish(true);  // Python raised and said so: the worker is in a known state
                throw e;
            }
        }

        private void finish(boolean healthy) {
            done = true;
            if (worker != null) {
                give(worker, healthy);
                worker = null;
            }
        }

        @Override
        public Row next() {
            if (!hasNext()) {
                throw new NoSuchElementException();
            }
            return batch[next++];
        }

        @Override
        public void close() {
            if (!done) {
                finish(false);  // abandoned mid-read: Python may still be writing rows
            }
        }
    }
}
