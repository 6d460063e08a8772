package io.sluice.core;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

class QueryHandleTest extends EngineTestBase {

    @Test
    void stopWaitsForTheBatchInFlightToCommit() throws Exception {
        source.add(5);
        sink.gate = new CountDownLatch(1);
        StreamingQuery q = recording(scripted().load()).start();
        await().until(() -> q.status().message().equals("Processing new data") && sink.begun.size() == 1);

        CompletableFuture<Void> stopping = CompletableFuture.runAsync(q::stop);
        assertThat(q.isActive()).isTrue();
        assertThat(stopping).isNotDone();
        sink.gate.countDown();
        stopping.get();

        assertThat(q.isActive()).isFalse();
        assertThat(exists("commits/0")).isTrue();
        assertThat(sink.committed.get(0L)).hasSize(5);
        assertThat(q.status()).isEqualTo(new StreamingQueryStatus("Stopped", false, false));
        assertThat(q.exception()).isEmpty();
    }

    @Test
    void awaitTerminationWithATimeoutReportsWhetherTheQueryEnded() throws Exception {
        StreamingQuery q = recording(scripted().load()).start();
        assertThat(q.awaitTermination(50)).isFalse();
        assertThat(q.isActive()).isTrue();
        q.stop();
        assertThat(q.awaitTermination(50)).isTrue();
        q.awaitTermination();
        q.stop(); // a second stop is harmless
    }

    @Test
    void aFailureEndsTheQueryAndIsReportedEverywhere() throws Exception {
        List<StreamingQueryListener.QueryTerminatedEvent> terminated = Collections.synchronizedList(new ArrayList<>());
        sluice.addListener(new Recorder(null, null, terminated));
        source.add(3);
        sink.failBatch = 0;
        StreamingQuery q = recording(scripted().load()).start();

        assertThatThrownBy(q::awaitTermination).isInstanceOf(StreamingQueryException.class)
                .hasMessage("Query [id = " + q.id() + ", runId = " + q.runId() + "] terminated with exception: "
                        + "sink failure in batch 0")
                .cause().hasMessage("sink failure in batch 0");
        assertThat(q.exception()).get().extracting(StreamingQueryException::queryId).isEqualTo(q.id());
        assertThat(q.isActive()).isFalse();
        assertThat(sluice.activeQueries()).isEmpty();
        await().until(() -> terminated.size() == 1);
        assertThat(terminated.get(0).exception()).startsWith("java.lang.IllegalStateException: sink failure in batch 0");
    }

    @Test
    void listenersSeeStartedProgressIdleAndTerminatedInOrder() throws Exception {
        List<String> events = Collections.synchronizedList(new ArrayList<>());
        List<StreamingQueryListener.QueryTerminatedEvent> terminated = Collections.synchronizedList(new ArrayList<>());
        sluice.addListener(new Recorder(events, Thread.currentThread(), terminated));
        source.add(3);
        StreamingQuery q = recording(scripted().load()).queryName("named").start();
        // onQueryStarted ran synchronously inside start().
        assertThat(events).first().isEqualTo("started named on caller thread");
        q.processAllAvailable();
        q.stop();
        await().until(() -> terminated.size() == 1);

        assertThat(events).containsExactly("started named on caller thread", "progress 0", "idle", "terminated");
        assertThat(terminated.get(0).exception()).isNull();
        assertThat(terminated.get(0).id()).isEqualTo(q.id());
    }

    @Test
    void recentProgressKeepsTheLastHundredBatches() throws Exception {
        source.add(105);
        StreamingQuery q = recording(scripted().option("maxRowsPerTrigger", "1").load()).start();
        q.processAllAvailable();
        q.stop();
        assertThat(q.recentProgress()).hasSize(100);
        assertThat(q.recentProgress().get(0).batchId()).isEqualTo(5);
        assertThat(q.lastProgress().batchId()).isEqualTo(104);
    }

    @Test
    void theQueryIdStaysAndTheRunIdChangesAcrossRestarts() throws Exception {
        StreamingQuery first = recording(scripted().load()).start();
        first.stop();
        StreamingQuery second = recording(scripted().load()).start();
        second.stop();
        assertThat(second.id()).isEqualTo(first.id());
        assertThat(second.runId()).isNotEqualTo(first.runId());
    }

    @Test
    void progressCarriesOffsetsRowsDurationsAndSourceMetrics() throws Exception {
        source.add(7);
        StreamingQuery q = recording(scripted().load()).queryName("p").start();
        q.processAllAvailable();
        source.add(3);
        q.processAllAvailable();
        q.stop();

        StreamingQueryProgress p0 = q.recentProgress().get(0);
        StreamingQueryProgress p1 = q.recentProgress().get(1);
        assertThat(p0.id()).isEqualTo(q.id());
        assertThat(p0.runId()).isEqualTo(q.runId());
        assertThat(p0.name()).isEqualTo("p");
        assertThat(p0.batchId()).isZero();
        assertThat(p0.numInputRows()).isEqualTo(7);
        assertThat(p0.inputRowsPerSecond()).isEqualTo(0.0);
        assertThat(p0.durationMs()).containsOnlyKeys("addBatch", "commitOffsets", "getBatch", "latestOffset",
                "queryPlanning", "triggerExecution", "walCommit");
        assertThat(p0.batchDuration()).isEqualTo(p0.durationMs().get("triggerExecution"));
        SourceProgress s0 = p0.sources().get(0);
        assertThat(s0.description()).isEqualTo("ScriptedSource[startingOffset=0]");
        assertThat(s0.startOffset()).isNull();
        assertThat(s0.endOffset()).isEqualTo("7");
        assertThat(s0.latestOffset()).isEqualTo("7");
        assertThat(s0.metrics()).containsEntry("rowsBehindLatest", "0");
        assertThat(p0.sink()).isEqualTo(new SinkProgress("RecordingSink", 7, java.util.Map.of()));
        assertThat(p1.sources().get(0).startOffset()).isEqualTo("7");
        assertThat(p1.sources().get(0).endOffset()).isEqualTo("10");
        assertThat(p1.numInputRows()).isEqualTo(3);
    }

    /** Records events as short strings. */
    private static final class Recorder extends StreamingQueryListener {
        private final List<String> events;
        private final Thread caller;
        private final List<QueryTerminatedEvent> terminated;

        Recorder(List<String> events, Thread caller, List<QueryTerminatedEvent> terminated) {
            this.events = events == null ? Collections.synchronizedList(new ArrayList<>()) : events;
            this.caller = caller;
            this.terminated = terminated;
        }

        @Override
        public void onQueryStarted(QueryStartedEvent event) {
            events.add("started " + event.name() + (Thread.currentThread() == caller ? " on caller thread" : ""));
        }

        @Override
        public void onQueryProgress(QueryProgressEvent event) {
            events.add("progress " + event.progress().batchId());
        }

        @Override
        public void onQueryIdle(QueryIdleEvent event) {
            events.add("idle");
        }

        @Override
        public void onQueryTerminated(QueryTerminatedEvent event) {
            events.add("terminated");
            terminated.add(event);
        }
    }
}
