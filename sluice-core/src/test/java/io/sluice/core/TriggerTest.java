package io.sluice.core;

import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

class TriggerTest extends EngineTestBase {

    private ManualClock useManualClock(long start) {
        sluice.close();
        ManualClock clock = new ManualClock(start);
        sluice = newSluice(clock);
        return clock;
    }

    @Test
    void processingTimeRunsAtMultiplesOfTheInterval() throws Exception {
        ManualClock clock = useManualClock(10_500);
        source.add(3);
        StreamingQuery q = recording(scripted().load()).trigger(Trigger.processingTime(1000)).start();
        await().until(() -> q.recentProgress().size() == 1 && clock.isWaiting());
        source.add(2);
        clock.set(10_999);
        assertThat(q.recentProgress()).hasSize(1);
        clock.set(11_000);
        await().until(() -> q.recentProgress().size() == 2 && clock.isWaiting());
        q.stop();

        assertThat(q.recentProgress()).extracting(StreamingQueryProgress::timestamp)
                .containsExactly("1970-01-01T00:00:10.500Z", "1970-01-01T00:00:11.000Z");
        assertThat(q.recentProgress()).extracting(StreamingQueryProgress::numInputRows).containsExactly(3L, 2L);
    }

    @Test
    void anOverrunningBatchStartsTheNextAtOnceAndSkipsMissedIntervals() throws Exception {
        ManualClock clock = useManualClock(1_000);
        source.add(1);
        // Planning the first batch takes 2.7 s of the 1 s interval.
        source.onLatestOffset = () -> {
            if (clock.millis() == 1_000) {
                source.add(1);
                clock.set(3_700);
            }
        };
        StreamingQuery q = recording(scripted().option("maxRowsPerTrigger", "1").load())
                .trigger(Trigger.processingTime(1000)).start();
        await().until(() -> q.recentProgress().size() == 2 && clock.isWaiting());
        source.add(1);
        clock.set(4_000);
        await().until(() -> q.recentProgress().size() == 3 && clock.isWaiting());
        q.stop();

        // 2 s and 3 s were missed and are not queued: 3.7 s at once, then the next multiple.
        assertThat(q.recentProgress()).extracting(StreamingQueryProgress::timestamp).containsExactly(
                "1970-01-01T00:00:01.000Z", "1970-01-01T00:00:03.700Z", "1970-01-01T00:00:04.000Z");
    }

    @Test
    void availableNowDrainsWhatWasThereAtStartInCappedBatchesThenStops() throws Exception {
        source.add(10);
        source.onLatestOffset = () -> source.add(1); // data keeps arriving while the query runs
        StreamingQuery q = recording(scripted().option("maxRowsPerTrigger", "3").load())
                .trigger(Trigger.availableNow()).start();
        assertThat(q.awaitTermination(TimeUnit.SECONDS.toMillis(30))).isTrue();

        assertThat(sink.committed).containsOnlyKeys(0L, 1L, 2L, 3L);
        assertThat(sink.allRows()).containsExactlyInAnyOrderElementsOf(rows(1, 10));
        assertThat(q.recentProgress()).extracting(p -> p.sources().get(0).endOffset())
                .containsExactly("3", "6", "9", "10");
        assertThat(source.calls().get(0)).isEqualTo("prepareForTriggerAvailableNow");
        assertThat(q.isActive()).isFalse();
        assertThat(q.exception()).isEmpty();
    }

    @Test
    void availableNowRestartWithNothingNewRunsNoBatch() throws Exception {
        source.add(4);
        recording(scripted().load()).trigger(Trigger.availableNow()).start().awaitTermination();
        sink.begun.clear();

        StreamingQuery q = recording(scripted().load()).trigger(Trigger.availableNow()).start();
        q.awaitTermination();

        assertThat(sink.begun).isEmpty();
        assertThat(q.recentProgress()).isEmpty();
        assertThat(checkpoint.resolve("offsets").toFile().list()).containsExactly("0");
    }

    @Test
    void onceRunsOneBatchIgnoringReadLimits() throws Exception {
        source.add(10);
        @SuppressWarnings("deprecation")
        StreamingQuery q = recording(scripted().option("maxRowsPerTrigger", "3").load()).trigger(Trigger.once()).start();
        q.awaitTermination();
        assertThat(sink.committed).containsOnlyKeys(0L);
        assertThat(sink.committed.get(0L)).containsExactlyInAnyOrderElementsOf(rows(1, 10));
    }

    @Test
    @SuppressWarnings("deprecation")
    void onceWithAPendingBatchOnlyReRunsThatBatch() throws Exception {
        source.add(6);
        StreamingQuery first = recording(scripted().option("maxRowsPerTrigger", "3").load()).start();
        first.processAllAvailable();
        first.stop();
        java.nio.file.Files.delete(checkpoint.resolve("commits/1"));
        source.add(10);
        sink.begun.clear();

        recording(scripted().option("maxRowsPerTrigger", "3").load()).trigger(Trigger.once()).start().awaitTermination();

        assertThat(sink.begun).containsExactly(1L);
        assertThat(sink.allRows()).containsExactlyInAnyOrderElementsOf(rows(1, 6));
    }

    @Test
    void defaultTriggerRunsBatchesBackToBack() throws Exception {
        source.add(5);
        StreamingQuery q = recording(scripted().option("maxRowsPerTrigger", "1").load()).start();
        await().until(() -> sink.committed.size() == 5);
        q.stop();
        assertThat(q.recentProgress()).extracting(StreamingQueryProgress::batchId).containsExactly(0L, 1L, 2L, 3L, 4L);
    }

    @Test
    void parsesSparkStyleIntervals() {
        assertThat(Trigger.processingTime("10 seconds")).isEqualTo(Trigger.processingTime(10_000));
        assertThat(Trigger.processingTime("1 minute")).isEqualTo(Trigger.processingTime(60_000));
        assertThat(Trigger.processingTime("500 ms")).isEqualTo(Trigger.processingTime(500));
        assertThat(Trigger.processingTime("30s")).isEqualTo(Trigger.processingTime(30_000));
        assertThat(Trigger.processingTime("0")).isEqualTo(Trigger.defaultTrigger());
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Trigger.processingTime("ten seconds"))
                .hasMessage("Invalid trigger interval 'ten seconds': expected a whole number with an optional unit, "
                        + "e.g. '10 seconds', '500 ms', '1 minute'");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Trigger.processingTime("5 fortnights"))
                .hasMessage("Invalid trigger interval '5 fortnights': unknown unit 'fortnights'; accepted: ms, "
                        + "seconds, minutes, hours, days");
    }
}
