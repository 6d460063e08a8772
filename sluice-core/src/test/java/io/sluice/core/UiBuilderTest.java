package io.sluice.core;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@code Sluice.builder().ui(...)} without sluice-metrics on the class path (this module's tests have none). */
class UiBuilderTest {

    @Test
    void withoutSluiceMetricsBuildFailsNamingTheModule() {
        assertThatThrownBy(() -> Sluice.builder().ui(0).build())
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("Sluice.builder().ui(...) needs the module sluice-metrics (io.sluice:sluice-metrics) on "
                        + "the class path: it serves the web UI, and no io.sluice.core.UiProvider was found by "
                        + "ServiceLoader");
    }

    @Test
    void thePortIsChecked() {
        assertThatThrownBy(() -> Sluice.builder().ui(-1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Invalid UI port -1: expected 0 to 65535");
        assertThatThrownBy(() -> Sluice.builder().ui("127.0.0.1", 65536))
                .hasMessage("Invalid UI port 65536: expected 0 to 65535");
    }

    @Test
    void withoutUiThereIsNoAddress() {
        try (Sluice s = Sluice.local()) {
            assertThat(s.uiAddress()).isEmpty();
        }
    }
}
