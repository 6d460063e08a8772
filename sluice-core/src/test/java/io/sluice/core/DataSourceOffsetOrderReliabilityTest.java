package io.sluice.core;

import io.sluice.api.Offset;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Issue 14: a data source's offsets are ordered by their JSON numbers for the engine's backwards check. */
class DataSourceOffsetOrderReliabilityTest {

    @Test
    void jsonNumbersOrderDataSourceOffsets() {
        assertThat(ValueOffset.wentBackwards(Offset.of("{\"a\":5,\"b\":5}"), Offset.of("{\"a\":3,\"b\":5}")))
                .contains("{\"a\":3,\"b\":5} is before {\"a\":5,\"b\":5}");
        assertThat(ValueOffset.wentBackwards(Offset.of("{\"a\":5,\"b\":5}"), Offset.of("{\"a\":3,\"b\":9}")))
                .contains("{\"a\":3,\"b\":9} is partly before {\"a\":5,\"b\":5}");
        assertThat(ValueOffset.wentBackwards(Offset.of("{\"a\":5}"), Offset.of("{\"a\":6}"))).isEmpty();
        assertThat(ValueOffset.wentBackwards(Offset.of("\"x\""), Offset.of("\"w\""))).isEmpty(); // unordered
    }
}
