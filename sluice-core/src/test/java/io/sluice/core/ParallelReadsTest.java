package io.sluice.core;

import io.sluice.api.Row;
import io.sluice.api.SluiceClock;
import io.sluice.api.sink.BatchWriter;
import io.sluice.api.sink.PartitionWriter;
import io.sluice.api.sink.Sink;
import io.sluice.api.sink.SinkContext;
import io.sluice.api.sink.SinkProvider;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The reader threads of a batch (ReadTask.runAll): a failure in any partition is noticed at once and cancels the
 * others, and the batch is aborted (the sink closed, the sources stopped) only once every reader has returned, or,
 * for a reader that ignores interrupts, after the stop grace period, and then that reader writes nothing more.
 */
class ParallelReadsTest extends EngineTestBase {
    private static final long GRACE_MS = 300;
    /** What the sink and the source's readers saw, in order. */
    private final List<String> events = Collections.synchronizedList(new ArrayList<>());
    /** A latch nobody counts down: a call blocked on it ends only by an interrupt. */
    private final CountDownLatch never = new CountDownLatch(1);
    private final CountDownLatch secondEntered = new CountDownLatch(1);

    @Override
    Sluice newSluice(SluiceClock clock) {
        return Sluice.builder().clock(clock).parallelism(2).stopGracePeriod(Duration.ofMillis(GRACE_MS)).build()
                .registerSource(new ScriptedSource()).registerSink(new EventSink());
    }

    /** Six rows in two partitions, [1..3] and [4..6], each read on its own reader thread; readers' ends recorded. */
    private StreamingQuery startTwoPartitions() {
        source.add(6);
        source.onReaderClosed = r -> events.add("reader " + r.from() + " closed");
        return scripted().option("numPartitions", 2).load().writeStream().format("events")
                .option("checkpointLocation", checkpoint.toString()).start();
    }

    /** The first partition fails as soon as the second one is reading. */
    private void firstPartitionFailsOnceTheSecondReads() {
        source.onFirstReadOf = r -> {
            if (r.from() == 0) {
                awaitQuietly(secondEntered);
                throw new IllegalStateException("partition 0 failed");
            }
            secondEntered.countDown();
            secondPartition.run();
        };
    }

    private volatile Runnable secondPartition = () -> { };

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            assertThat(latch.await(10, TimeUnit.SECONDS)).isTrue();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private Throwable awaitFailure(StreamingQuery q) {
        await().atMost(Duration.ofSeconds(10)).until(() -> !q.isActive());
        assertThat(q.exception()).isPresent();
        return q.exception().get().getCause();
    }

    private List<String> events() {
        synchronized (events) {
            return List.copyOf(events);
        }
    }

    @Test
    void aFailureInALaterPartitionIsNoticedWhileAnEarlierOneStillReadsAndTheAbortWaitsForIt() {
        source.failReadingAtRow = 5; // in the second partition
        source.onFirstReadOf = r -> {
            if (r.from() == 0) {
                try {
                    never.await();
                } catch (InterruptedException e) {
                    events.add("reader 0 interrupted");
                    throw new IllegalStateException("partition 0 interrupted", e);
                }
            }
        };
        StreamingQuery q = startTwoPartitions();

        Throwable cause = awaitFailure(q);

        assertThat(cause).hasMessage("scripted read failure at row 5");
        List<String> seen = events();
        assertThat(seen).contains("reader 0 interrupted", "reader 0 closed", "reader 3 closed", "abort 0", "close");
        assertThat(seen.indexOf("abort 0")).isGreaterThan(seen.indexOf("reader 0 closed"))
                .isGreaterThan(seen.indexOf("reader 3 closed"));
        assertThat(seen.indexOf("close")).isGreaterThan(seen.indexOf("abort 0"));
        assertThat(seen).noneMatch(e -> e.startsWith("late"));
        assertThat(exists("offsets/0")).isTrue();
        assertThat(exists("commits/0")).isFalse();
    }

    @Test
    void aReaderThatSwallowsTheInterruptWritesNothingMoreAndTheBatchIsAbortedAfterItReturned() {
        firstPartitionFailsOnceTheSecondReads();
        secondPartition = () -> {
            try {
                never.await();
            } catch (InterruptedException swallowed) {
                events.add("reader 3 interrupted"); // and reads on as if nothing happened
            }
        };
        StreamingQuery q = startTwoPartitions();

        assertThat(awaitFailure(q)).hasMessage("partition 0 failed");

        List<String> seen = events();
        assertThat(seen).contains("reader 3 interrupted", "reader 3 closed", "abort 0");
        assertThat(seen).noneMatch(e -> e.startsWith("write 1 ")); // the second partition's writer got no row
        assertThat(seen.indexOf("abort 0")).isGreaterThan(seen.indexOf("reader 3 closed"));
        assertThat(seen).noneMatch(e -> e.startsWith("late"));
    }

    @Test
    void aReaderThatIgnoresInterruptsIsLeftBehindAfterTheGracePeriodNamedAndWritesNothingAfterTheAbort()
            throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        Thread[] reader = new Thread[1];
        firstPartitionFailsOnceTheSecondReads();
        secondPartition = () -> {
            reader[0] = Thread.currentThread();
            awaitIgnoringInterrupts(release);
        };
        StreamingQuery q;
        Throwable cause;
        try (LogCapture log = new LogCapture()) {
            q = startTwoPartitions();
            cause = awaitFailure(q);
            assertThat(log.text()).contains("WARN io.sluice.core.ReadTask - Reader thread " + reader[0].getName()
                    + " (partition 1, source 0: ScriptedSource[startingOffset=0]) did not end within 300 ms of "
                    + "being cancelled, at ");
        }

        assertThat(cause).hasMessage("partition 0 failed");
        assertThat(cause.getSuppressed()).hasSize(1);
        assertThat(cause.getSuppressed()[0]).hasMessageStartingWith("Reader thread " + reader[0].getName()
                + " (partition 1, source 0: ScriptedSource[startingOffset=0]) did not end within 300 ms of being "
                + "cancelled, at ").hasMessageEndingWith("; the batch is aborted without it, and nothing it reads "
                + "from now on is written (a reader should let an interrupt end its waits)");
        assertThat(reader[0].getName()).startsWith("sluice-reader-");
        assertThat(events()).contains("abort 0", "close").doesNotContain("reader 3 closed");

        // When it finally returns rows, the reader stops without touching the aborted batch's writers.
        release.countDown();
        await().atMost(Duration.ofSeconds(5)).until(() -> events().contains("reader 3 closed"));
        assertThat(events()).noneMatch(e -> e.startsWith("late") || e.startsWith("write 1 "));
    }

    @Test
    void aOneOffReadAlsoNoticesALaterFailureAndStopsTheStreamOnlyAfterEveryReaderReturned() {
        source.add(6);
        source.failReadingAtRow = 5;
        // Partition 3 fails only once partition 0 is inside its read: a reader cancelled before it started is
        // never opened, so it would have nothing to close.
        CountDownLatch zeroReading = new CountDownLatch(1);
        source.onFirstReadOf = r -> {
            try {
                if (r.from() == 0) {
                    zeroReading.countDown();
                    never.await();
                } else if (!zeroReading.await(10, TimeUnit.SECONDS)) {
                    throw new IllegalStateException("partition 0 never started reading");
                }
            } catch (InterruptedException e) {
                throw new IllegalStateException("partition " + r.from() + " interrupted", e);
            }
        };
        source.onReaderClosed = r -> source.calls.add("reader " + r.from() + " closed");
        StreamFrame frame = sluice.read().format("scripted").option("name", name).option("numPartitions", 2).load();

        CompletableFuture<List<Row>> read = CompletableFuture.supplyAsync(() -> {
            try {
                return frame.collectAsList();
            } catch (Exception e) {
                throw new java.util.concurrent.CompletionException(e);
            }
        });

        await().atMost(Duration.ofSeconds(10)).until(read::isDone);
        assertThat(read).isCompletedExceptionally();
        assertThat(read.handle((rows, e) -> e.getCause()).join()).hasMessage("scripted read failure at row 5");
        List<String> calls = source.calls();
        assertThat(calls).endsWith("stop");
        assertThat(calls).contains("reader 0 closed", "reader 3 closed");
    }

    /**
     * A sink that records its calls as events, and every partition-writer call made after its batch was aborted or
     * the sink closed as an event starting with {@code late}.
     */
    private final class EventSink implements SinkProvider {
        @Override
        public String shortName() {
            return "events";
        }

        @Override
        public Sink createSink(SinkContext context) {
            return new Sink() {
                private volatile boolean closed;

                @Override
                public BatchWriter beginBatch(long batchId) {
                    return new BatchWriter() {
                        private volatile boolean aborted;

                        private void check(String call) {
                            events.add(call);
                            if (aborted || closed) {
                                events.add("late " + call);
                            }
                        }

                        @Override
                        public PartitionWriter partitionWriter(int partitionId) {
                            return new PartitionWriter() {
                                @Override
                                public void write(Row row) {
                                    check("write " + partitionId + " " + row);
                                }

                                @Override
                                public Object commit() {
                                    check("commit " + partitionId);
                                    return null;
                                }

                                @Override
                                public void abort() {
                                    check("abort partition " + partitionId);
                                }
                            };
                        }

                        @Override
                        public void commit(List<Object> partitionResults) {
                            events.add("commit " + batchId);
                        }

                        @Override
                        public void abort(Throwable cause) {
                            aborted = true;
                            events.add("abort " + batchId);
                        }
                    };
                }

                @Override
                public void close() {
                    closed = true;
                    events.add("close");
                }

                @Override
                public String description() {
                    return "EventSink";
                }
            };
        }
    }
}
