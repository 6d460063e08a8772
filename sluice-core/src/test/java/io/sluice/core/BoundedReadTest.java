package io.sluice.core;

import io.sluice.api.Row;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class BoundedReadTest extends EngineTestBase {

    @Test
    void readsEverythingAvailableFromTheInitialOffsetOnce() throws Exception {
        source.add(10);
        StreamFrame frame = sluice.read().format("scripted").option("name", name).option("startingOffset", "3").load();
        assertThat(frame.isStreaming()).isFalse();
        assertThat(frame.collectAsList()).containsExactlyElementsOf(rows(4, 10));
        source.add(2);
        assertThat(frame.count()).isEqualTo(9);
        assertThat(source.calls()).startsWith("initialOffset", "latestOffset(3)", "planPartitions(3,10)", "stop");
        assertThat(source.calls()).doesNotContain("commit(10)");
    }

    @Test
    void anEmptySourceReadsNothing() throws Exception {
        assertThat(sluice.read().format("scripted").option("name", name).load().collectAsList()).isEmpty();
    }

    @Test
    void boundedAndStreamingFramesRefuseEachOthersActions() {
        assertThatThrownBy(() -> sluice.read().format("scripted").option("name", name).load().writeStream())
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("'writeStream' can be called only on a streaming frame (from readStream()); this one "
                        + "comes from read(): use collectAsList(), count() or countBy(...)");
        assertThatThrownBy(() -> scripted().load().collectAsList())
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("Queries with streaming sources must be executed with writeStream().start(); "
                        + "'collectAsList' works only on a frame from read()");
    }

    @Test
    void countByCountsRowsPerDistinctKeyOfTheGivenExpressions() throws Exception {
        source.add(10);
        StreamFrame frame = sluice.read().format("scripted").option("name", name).option("startingOffset", "3").load();
        // Rows 4..10: value % 3 is 1, 2, 0, 1, 2, 0, 1.
        assertThat(frame.countBy("value % 3 AS r"))
                .containsExactlyInAnyOrderEntriesOf(Map.of(Row.of(0L), 2L, Row.of(1L), 3L, Row.of(2L), 2L));
        assertThat(frame.where("value > 6").countBy("value % 2", "value > 8"))
                .containsExactlyInAnyOrderEntriesOf(Map.of(Row.of(1L, false), 1L, Row.of(0L, false), 1L,
                        Row.of(1L, true), 1L, Row.of(0L, true), 1L));
        assertThat(frame.countBy("CASE WHEN value > 8 THEN NULL ELSE 'low' END"))
                .containsExactlyInAnyOrderEntriesOf(Map.of(Row.of("low"), 5L, Row.of((Object) null), 2L));
        assertThat(frame.where("value > 100").countBy("value")).isEmpty();
        assertThat(frame.where("value > 5").count()).isEqualTo(5);
    }

    @Test
    void countByRefusesNoExpressionsAndStreamingFrames() {
        assertThatThrownBy(() -> sluice.read().format("scripted").option("name", name).load().countBy())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("countBy needs at least one column or expression to count by");
        assertThatThrownBy(() -> scripted().load().countBy("value"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("Queries with streaming sources must be executed with writeStream().start(); "
                        + "'countBy' works only on a frame from read()");
    }
}
