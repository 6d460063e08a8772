package io.sluice.core;

import io.sluice.api.SluiceClock;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The order of a forced stop with a reader that ignores interrupts (StreamingQuery#stop step 2): the query thread
 * gives up on that reader after half the grace period, aborts the batch and ends, and only then does stop()
 * return. With the same bound on both sides, stop() returned just before the query thread ended, warning that it
 * did not end. The grace period is long here so that the half left for the clean-up holds on a loaded machine.
 */
class ForcedStopOrderTest extends EngineTestBase {
    private static final long GRACE_MS = 2000;

    @Override
    Sluice newSluice(SluiceClock clock) {
        return Sluice.builder().clock(clock).parallelism(2).stopGracePeriod(Duration.ofMillis(GRACE_MS)).build()
                .registerSource(new ScriptedSource()).registerSink(new RecordingSink());
    }

    @Test
    void aReaderThatIgnoresInterruptsIsLeftBehindAndTheQueryEndsBeforeStopReturns() throws Exception {
        source.add(6);
        CountDownLatch entered = new CountDownLatch(2);
        CountDownLatch never = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Thread[] stubborn = new Thread[1];
        source.onFirstReadOf = r -> {
            if (r.from() == 0) {
                entered.countDown();
                try {
                    never.await(); // ends by the interrupt, as a reader should
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("reader 0 interrupted", e);
                }
                return;
            }
            stubborn[0] = Thread.currentThread();
            entered.countDown();
            awaitIgnoringInterrupts(release);
        };
        StreamingQuery q = recording(scripted().option("numPartitions", 2).load()).start();
        assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();

        String log;
        try (LogCapture capture = new LogCapture()) {
            CompletableFuture<Boolean> activeWhenStopReturned = CompletableFuture.supplyAsync(() -> {
                q.stop();
                return q.isActive();
            });
            await().atMost(Duration.ofSeconds(10)).until(activeWhenStopReturned::isDone);
            log = capture.text();
            assertThat(activeWhenStopReturned.join()).as("query active when stop() returned").isFalse();
        } finally {
            release.countDown();
        }

        assertThat(log).doesNotContain("did not end within " + GRACE_MS + " ms of being interrupted");
        assertThat(log).contains("WARN io.sluice.core.ReadTask - Reader thread " + stubborn[0].getName()
                + " (partition 1, source 0: ScriptedSource[startingOffset=0]) did not end within " + GRACE_MS / 2
                + " ms of being cancelled, at ");
        assertThat(q.exception()).isEmpty(); // the interrupt's failure is the stop, not a failure
        assertThat(sink.aborted).containsExactly(0L);
        assertThat(sink.committed).isEmpty();
        assertThat(exists("offsets/0")).isTrue();
        assertThat(exists("commits/0")).isFalse();
        assertThat(sluice.activeQueries()).isEmpty();
    }
}
