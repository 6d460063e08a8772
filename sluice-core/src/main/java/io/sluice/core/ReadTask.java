package io.sluice.core;

import io.sluice.api.Row;
import io.sluice.api.sink.BatchWriter;
import io.sluice.api.sink.PartitionWriter;
import io.sluice.api.source.InputPartition;
import io.sluice.api.source.MicroBatchStream;
import io.sluice.api.source.PartitionReader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * One partition of one source, read through the frame's transformations into one partition writer of a sink. Runs
 * on a reader thread; stops at the next row once cancelled, and checks for an interrupt every 1,024 rows.
 */
final class ReadTask {
    private static final Logger LOG = LoggerFactory.getLogger(ReadTask.class);

    private enum State { PENDING, RUNNING, ENDED }

    final int sourceIndex;
    final MicroBatchStream stream;
    final InputPartition partition;
    final int partitionId;
    /** The frame's transformations, or null when rows go to the sink as read. */
    final RowOperator operator;
    volatile long rows;

    /** Set by {@link #cancel}: the task ends at its next row, before writing it. */
    private volatile boolean cancelled;
    /**
     * Set when {@link #runAll} stopped waiting for this task: the batch is aborted without it, so the task must
     * not call its partition writer again (not even {@code abort}), whenever its reader returns.
     */
    private volatile boolean abandoned;
    /** Guarded by this: where the task is, and the thread running it (to interrupt it). */
    private State state = State.PENDING;
    private Thread runner;
    /** Written by the reader thread before it announces its end through {@link #runAll}'s queue. */
    private Object result;
    private Throwable failure;

    ReadTask(int sourceIndex, MicroBatchStream stream, InputPartition partition, int partitionId,
             RowOperator operator) {
        this.sourceIndex = sourceIndex;
        this.stream = stream;
        this.partition = partition;
        this.partitionId = partitionId;
        this.operator = operator;
    }

    Object run(BatchWriter writer) throws Exception {
        PartitionWriter out = writer.partitionWriter(partitionId);
        long count = 0;
        try (PartitionReader in = stream.createReader(partition)) {
            RowOperator op = operator;
            boolean fansOut = op != null && op.fansOut();
            while (in.next()) {
                // One volatile read per row: a cancelled task writes nothing more, even if its reader ignores
                // interrupts and returns rows long after the batch gave up on it.
                if (cancelled || ((++count & 0x3FF) == 0 && Thread.currentThread().isInterrupted())) {
                    throw new InterruptedException("Reading partition " + partitionId + " was cancelled");
                }
                Row row = in.get();
                if (fansOut) {
                    op.forEach(row, out::write);
                    continue;
                }
                if (op != null && (row = op.apply(row)) == null) {
                    continue; // filtered out
                }
                out.write(row);
            }
            if (cancelled) {
                throw new InterruptedException("Reading partition " + partitionId + " was cancelled");
            }
            Object result = out.commit();
            rows = count;
            return result;
        } catch (Exception | Error e) {
            if (!abandoned) {
                try {
                    out.abort();
                } catch (RuntimeException abortFailure) {
                    e.addSuppressed(abortFailure);
                }
            }
            throw e;
        }
    }

    /**
     * Runs every task into the writer and returns the partition writers' results in task order. One task runs on
     * the calling thread (no hand-off); more run on the pool.
     *
     * <p>A failure is noticed as soon as it happens, whichever task it is in: the first one cancels every other
     * task (interrupting those that run; those not started never start), and this method returns only once every
     * task has ended, so the caller's clean-up ({@code BatchWriter.abort}, {@code Sink.close},
     * {@code MicroBatchStream.stop}) never runs beside a reader. The wait is bounded by {@code graceMs} (the
     * engine's stop grace period): a reader that ignores interrupts is then left behind, named in a warning and in
     * a suppressed exception of the failure thrown, and writes nothing more. An interrupt of the calling thread
     * (a forced stop) cancels the tasks the same way, waits for them at most {@code afterInterruptMs} instead,
     * and is thrown as an {@link InterruptedException}.
     */
    static List<Object> runAll(List<ReadTask> tasks, BatchWriter writer, Executor pool, long graceMs,
                               long afterInterruptMs) throws Exception {
        List<Object> results = new ArrayList<>(tasks.size());
        if (tasks.size() == 1) {
            results.add(tasks.get(0).run(writer));
            return results;
        }
        BlockingQueue<ReadTask> ended = new LinkedBlockingQueue<>();
        CountDownLatch allEnded = new CountDownLatch(tasks.size());
        Throwable failure = null;
        long waitMs = graceMs;
        try {
            for (ReadTask t : tasks) {
                pool.execute(() -> t.runOnPool(writer, ended, allEnded));
            }
            for (int i = 0; i < tasks.size() && failure == null; i++) {
                failure = ended.take().failure;
            }
        } catch (InterruptedException e) {
            failure = e;
            waitMs = afterInterruptMs;
        } catch (RejectedExecutionException e) {
            failure = e;
        }
        if (failure == null) {
            for (ReadTask t : tasks) {
                results.add(t.result);
            }
            return results;
        }
        for (ReadTask t : tasks) {
            t.cancel(allEnded);
        }
        if (!awaitIgnoringInterrupts(allEnded, waitMs)) {
            reportLeftBehind(tasks, waitMs, failure);
        }
        if (failure instanceof Exception e) {
            throw e;
        }
        throw (Error) failure;
    }

    private void runOnPool(BatchWriter writer, BlockingQueue<ReadTask> ended, CountDownLatch allEnded) {
        synchronized (this) {
            if (state != State.PENDING) {
                return; // cancelled before it started: cancel() counted it as ended
            }
            state = State.RUNNING;
            runner = Thread.currentThread();
        }
        try {
            result = run(writer);
        } catch (Throwable t) {
            failure = t;
        } finally {
            synchronized (this) {
                state = State.ENDED;
                runner = null;
            }
            // A cancel's interrupt was meant for this task, not for the next one this pool thread runs.
            Thread.interrupted();
            allEnded.countDown();
            ended.add(this);
        }
    }

    /** Stops the task: one not started never starts (and counts as ended), a running one is interrupted. */
    private void cancel(CountDownLatch allEnded) {
        cancelled = true;
        synchronized (this) {
            if (state == State.PENDING) {
                state = State.ENDED;
                allEnded.countDown();
            } else if (state == State.RUNNING) {
                runner.interrupt();
            }
        }
    }

    private static void reportLeftBehind(List<ReadTask> tasks, long waitedMs, Throwable failure) {
        for (ReadTask t : tasks) {
            Thread thread;
            synchronized (t) {
                if (t.state != State.RUNNING) {
                    continue;
                }
                t.abandoned = true;
                thread = t.runner;
            }
            StackTraceElement[] stack = thread.getStackTrace();
            String message = "Reader thread " + thread.getName() + " (partition " + t.partitionId + ", source "
                    + t.sourceIndex + ": " + t.stream.description() + ") did not end within " + waitedMs
                    + " ms of being cancelled, at " + (stack.length == 0 ? "(unknown)" : stack[0])
                    + "; the batch is aborted without it, and nothing it reads from now on is written (a reader "
                    + "should let an interrupt end its waits)";
            LOG.warn(message);
            failure.addSuppressed(new IllegalStateException(message));
        }
    }

    /** Waits up to {@code ms} for the latch, ignoring interrupts (restored on return). */
    static boolean awaitIgnoringInterrupts(CountDownLatch latch, long ms) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ms);
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    return latch.await(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
