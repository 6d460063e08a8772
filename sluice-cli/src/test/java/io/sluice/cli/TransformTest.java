package io.sluice.cli;

import io.sluice.core.Trigger;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TransformTest {

    @Test
    void whereAndSelect() throws SpecException {
        assertThat(Transform.parse("where:amount > 10")).isEqualTo(Transform.where("amount > 10"));
        assertThat(Transform.parse("  Where:  amount > 10 ").condition()).isEqualTo("amount > 10");
        Transform select = Transform.parse("select:id, amount * 2 AS doubled");
        assertThat(select.kind()).isEqualTo(Transform.Kind.SELECT);
        assertThat(select.expressions()).containsExactly("id", "amount * 2 AS doubled");
        assertThat(select).hasToString("select:id, amount * 2 AS doubled");
        assertThat(Transform.parse("where: a = 1")).hasToString("where:a = 1");
    }

    @Test
    void selectSplitsOnlyAtTopLevelCommas() {
        assertThat(Transform.splitExpressions("concat(a, ',', b) AS s, coalesce(x, 0), 'it''s, ok', "
                + "\"q\\\", \", `we,ird`, arr[1,2], c"))
                .containsExactly("concat(a, ',', b) AS s", " coalesce(x, 0)", " 'it''s, ok'", " \"q\\\", \"",
                        " `we,ird`", " arr[1,2]", " c");
    }

    @Test
    void refusesOtherText() {
        assertThatThrownBy(() -> Transform.parse("filter:a")).isInstanceOf(SpecException.class)
                .hasMessage(Transform.ACCEPTED);
        assertThatThrownBy(() -> Transform.parse("select: ")).hasMessage("the expressions after 'select:' are empty");
        assertThatThrownBy(() -> Transform.select(List.of())).hasMessage("the expressions after 'select:' are empty");
    }

    @Test
    @SuppressWarnings("deprecation")
    void triggers() throws SpecException {
        assertThat(TriggerSpec.parse("availableNow").trigger()).isEqualTo(Trigger.availableNow());
        assertThat(TriggerSpec.parse("AVAILABLENOW").text()).isEqualTo("availableNow");
        assertThat(TriggerSpec.parse("once").trigger()).isEqualTo(Trigger.once());
        assertThat(TriggerSpec.parse("processingTime=30s").trigger()).isEqualTo(Trigger.processingTime(30_000));
        assertThat(TriggerSpec.parse("processingtime = 10 seconds").trigger())
                .isEqualTo(Trigger.processingTime(10_000));
        assertThat(TriggerSpec.parse("processingTime=0").finite()).isFalse();
        assertThat(TriggerSpec.parse("once").finite()).isTrue();
        assertThatThrownBy(() -> TriggerSpec.parse("processingTime=99999999999999999 days"))
                .hasMessage("Invalid trigger interval '99999999999999999 days': it is too long; at most "
                        + "9223372036854775807 ms (about 292 million years) is accepted");
    }
}
