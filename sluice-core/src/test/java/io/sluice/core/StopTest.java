package io.sluice.core;

import io.sluice.api.SluiceClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** stop() is bounded whatever the source does: a boundary, then an interrupt, then giving up (StreamingQuery#stop). */
class StopTest extends EngineTestBase {
    private static final long GRACE_MS = 300;
    /** A latch nobody counts down: a call blocked on it ends only by an interrupt. */
    private final CountDownLatch never = new CountDownLatch(1);

    @Override
    Sluice newSluice(SluiceClock clock) {
        return Sluice.builder().clock(clock).parallelism(2).stopGracePeriod(Duration.ofMillis(GRACE_MS)).build()
                .registerSource(new ScriptedSource()).registerSink(new RecordingSink());
    }

    /** Blocks until interrupted, then fails the way a source that wraps the interrupt would. */
    private Runnable blockInterruptibly(CountDownLatch entered) {
        return () -> {
            entered.countDown();
            try {
                never.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("source call interrupted", e);
            }
        };
    }

    /** Times stop(): it must not have returned before the grace period, and must return within {@code bound}. */
    private long stopWithin(StreamingQuery q, Duration bound) {
        long t0 = System.nanoTime();
        CompletableFuture<Void> stopping = CompletableFuture.runAsync(q::stop);
        await().atMost(bound).until(stopping::isDone);
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
    }

    @Test
    void aLatestOffsetBlockedInAnInterruptibleWaitIsInterruptedAfterTheGracePeriod() throws Exception {
        source.add(3);
        CountDownLatch entered = new CountDownLatch(1);
        source.onLatestOffset = blockInterruptibly(entered);
        StreamingQuery q = recording(scripted().load()).start();
        assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();

        long ms = stopWithin(q, Duration.ofSeconds(5));

        assertThat(ms).isGreaterThanOrEqualTo(GRACE_MS); // it waited for a boundary first
        assertThat(q.isActive()).isFalse();
        assertThat(q.exception()).isEmpty(); // the interrupt's failure is the stop, not a failure
        assertThat(q.status()).isEqualTo(new StreamingQueryStatus("Stopped", false, false));
        assertThat(exists("offsets/0")).isFalse();
        assertThat(sluice.activeQueries()).isEmpty();
    }

    @ParameterizedTest(name = "{0} partition(s)")
    @ValueSource(ints = {1, 2})
    void aReaderBlockedInABatchIsInterruptedAndTheBatchIsReRunAtTheNextStart(int partitions) throws Exception {
        source.add(6);
        CountDownLatch entered = new CountDownLatch(1);
        source.onFirstRead = blockInterruptibly(entered);
        StreamingQuery q = recording(scripted().option("numPartitions", partitions).load()).start();
        assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();

        stopWithin(q, Duration.ofSeconds(5));

        assertThat(q.isActive()).isFalse();
        assertThat(q.exception()).isEmpty();
        assertThat(exists("offsets/0")).isTrue();
        assertThat(exists("commits/0")).isFalse();
        assertThat(sink.committed).isEmpty();
        assertThat(sink.aborted).containsExactly(0L);

        // The next start re-runs batch 0 with exactly its logged range.
        source.onFirstRead = () -> { };
        StreamingQuery again = recording(scripted().option("numPartitions", partitions).load()).start();
        again.processAllAvailable();
        again.stop();
        assertThat(sink.committed).containsOnlyKeys(0L);
        assertThat(sink.committed.get(0L)).containsExactlyInAnyOrderElementsOf(rows(1, 6));
        assertThat(read("commits/0")).isEqualTo("v1\n{\"nextBatchWatermarkMs\":0}");
    }

    @Test
    void aSourceThatIgnoresInterruptsStillLetsStopReturnAndItsDaemonThreadCommitsNothingAfterwards()
            throws Exception {
        source.add(3);
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Thread[] queryThread = new Thread[1];
        source.onLatestOffset = () -> {
            queryThread[0] = Thread.currentThread();
            entered.countDown();
            awaitIgnoringInterrupts(release);
        };
        StreamingQuery q = recording(scripted().load()).start();
        assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();

        long ms = stopWithin(q, Duration.ofSeconds(5));

        assertThat(ms).isGreaterThanOrEqualTo(2 * GRACE_MS);
        assertThat(queryThread[0].isDaemon()).isTrue();
        assertThat(queryThread[0].getName()).isEqualTo("sluice-query-" + q.id());
        assertThat(q.isActive()).isTrue(); // honest: its thread still runs, and holds the checkpoint

        // When the source finally returns, with data, the query ends without logging or committing a batch.
        release.countDown();
        await().atMost(Duration.ofSeconds(5)).until(() -> !q.isActive());
        assertThat(q.exception()).isEmpty();
        assertThat(exists("offsets/0")).isFalse();
        assertThat(sink.begun).isEmpty();
    }
}
