package io.sluice.cli;

import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;

class EnvTest {
    private final AtomicInteger asked = new AtomicInteger();

    private Supplier<String> terminal(String answer) {
        return () -> {
            asked.incrementAndGet();
            return answer;
        };
    }

    @Test
    void theLaunchersPropertyWinsAndTheTerminalIsNotAsked() {
        assertThat(Env.columns("120", "100", terminal("90"))).isEqualTo(120);
        assertThat(asked).hasValue(0);
    }

    @Test
    void anExportedColumnsComesNext() {
        assertThat(Env.columns(null, "100", terminal("90"))).isEqualTo(100);
        assertThat(Env.columns(" ", " 100 ", terminal("90"))).isEqualTo(100);
        assertThat(asked).hasValue(0);
    }

    @Test
    void theTerminalIsAskedOnlyWhenNeitherTells() {
        assertThat(Env.columns(null, null, terminal("132"))).isEqualTo(132);
        assertThat(Env.columns("0", "wide", terminal("132"))).isEqualTo(132);
        assertThat(asked).hasValue(2);
    }

    @Test
    void eightyWhenNothingTells() {
        assertThat(Env.columns(null, null, terminal(null))).isEqualTo(80);
        assertThat(Env.columns("-5", "", terminal("x"))).isEqualTo(80);
    }
}
