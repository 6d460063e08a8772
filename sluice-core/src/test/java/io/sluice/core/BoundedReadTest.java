package io.sluice.core;

import org.junit.jupiter.api.Test;

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
                        + "comes from read(): use collectAsList() or count()");
        assertThatThrownBy(() -> scripted().load().collectAsList())
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("Queries with streaming sources must be executed with writeStream().start(); "
                        + "'collectAsList' works only on a frame from read()");
    }
}
