package io.sluice.core.sources;

import io.sluice.api.Offset;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Issue 14: the order the rate and memory sources give their offsets, for the engine's backwards check. */
class OffsetOrderReliabilityTest {

    @Test
    void oneNumberOffsets() {
        assertThat(LongOffset.wentBackwards(new LongOffset(7), new LongOffset(3), "rate", "second"))
                .contains("second 3 is before 7");
        // Read back from the log as plain JSON offsets too.
        assertThat(LongOffset.wentBackwards(Offset.of("7"), Offset.of("3"), "memory", "offset"))
                .contains("offset 3 is before 7");
        assertThat(LongOffset.wentBackwards(new LongOffset(7), new LongOffset(7), "rate", "second")).isEmpty();
        assertThat(LongOffset.wentBackwards(new LongOffset(7), new LongOffset(9), "rate", "second")).isEmpty();
    }
}
