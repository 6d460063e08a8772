package io.sluice.core;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class OffsetJsonTest {
    record Seq(long seq) {
    }

    record Parts(String topic, Map<String, Long> partitions, List<Integer> sizes, Kind kind, BigDecimal weight) {
    }

    enum Kind { A, B }

    private record Hidden(int n) {
    }

    record Positive(long n) {
        Positive {
            if (n < 0) {
                throw new IllegalArgumentException("negative: " + n);
            }
        }
    }

    @Test
    void recordsAreWrittenByComponentsInDeclarationOrderAndReadBackThroughTheConstructor() {
        Parts p = new Parts("t\"1", Map.of("1", 5L, "0", 7L), List.of(3, 4), Kind.B, new BigDecimal("1.50"));
        String json = OffsetJson.write(p);
        assertThat(json).isEqualTo("{\"topic\":\"t\\\"1\",\"partitions\":{\"0\":7,\"1\":5},\"sizes\":[3,4],"
                + "\"kind\":\"B\",\"weight\":1.50}");
        Parts back = OffsetJson.read(json, Parts.class);
        assertThat(back).isEqualTo(p);
        assertThat(back.sizes().get(0)).isInstanceOf(Integer.class);
        assertThat(OffsetJson.read("{\"n\":3}", Hidden.class)).isEqualTo(new Hidden(3));
        assertThat(OffsetJson.write(new Seq(10))).isEqualTo("{\"seq\":10}");
    }

    @Test
    void mapsAreWrittenWithSortedKeysSoEqualMapsGiveEqualJson() {
        Map<String, Object> a = new HashMap<>();
        a.put("b", 1);
        a.put("a", List.of(true, "x", 2.5));
        a.put("c", null);
        Map<String, Object> b = new LinkedHashMap<>();
        b.put("c", null);
        b.put("a", List.of(true, "x", 2.5));
        b.put("b", 1L);
        assertThat(OffsetJson.write(a)).isEqualTo(OffsetJson.write(b)).isEqualTo("{\"a\":[true,\"x\",2.5],\"b\":1,\"c\":null}");
        Object plain = OffsetJson.read(" { \"a\" : [ true , \"x\", 2.5 ], \"b\": 1, \"c\": null } ");
        Map<String, Object> expected = new LinkedHashMap<>();
        expected.put("a", List.of(true, "x", 2.5));
        expected.put("b", 1L);
        expected.put("c", null);
        assertThat(plain).isEqualTo(expected);
        assertThat(OffsetJson.read("12345678901234567890")).isEqualTo(new java.math.BigInteger("12345678901234567890"));
        assertThat(OffsetJson.read("\"\\u00e9\\n\"")).isEqualTo("é\n");
    }

    @Test
    void valuesThatAreNotJsonAreRefusedNamingThePart() {
        assertThatThrownBy(() -> OffsetJson.write(Map.of("at", Instant.EPOCH)))
                .hasMessage("the offset.at is a java.time.Instant, which is not a JSON value: use a record, Map, "
                        + "List, String, Number, Boolean or null");
        assertThatThrownBy(() -> OffsetJson.write(List.of(1.0, Double.NaN)))
                .hasMessage("the offset[1] is NaN, which is not a JSON number");
        assertThatThrownBy(() -> OffsetJson.write(Map.of(1, 2)))
                .hasMessage("the offset has a map key 1 of type java.lang.Integer: JSON object keys must be Strings");
        assertThatThrownBy(() -> OffsetJson.write(Set.of(1)))
                .hasMessageStartingWith("the offset is a java.util.ImmutableCollections$Set12, which is not a JSON value");
    }

    @Test
    void jsonThatDoesNotFitTheTypeIsRefused() {
        assertThatThrownBy(() -> OffsetJson.read("{\"seq\":\"x\"}", Seq.class))
                .hasMessage("the offset.seq is \"x\" but a number was expected");
        assertThatThrownBy(() -> OffsetJson.read("{\"sq\":1}", Seq.class))
                .hasMessage("the offset has no \"sq\" for record Seq".replace("\"sq\"", "\"seq\""));
        assertThatThrownBy(() -> OffsetJson.read("{\"seq\":1,\"x\":2}", Seq.class))
                .hasMessage("the offset has a key \"x\" that record Seq does not have");
        assertThatThrownBy(() -> OffsetJson.read("{\"n\":-1}", Positive.class))
                .hasMessage("the constructor of Positive refused the offset: java.lang.IllegalArgumentException: negative: -1");
        assertThatThrownBy(() -> OffsetJson.read("{\"seq\":1.5}", Seq.class))
                .hasMessage("the offset.seq is 1.5, which does not fit long");
        assertThatThrownBy(() -> OffsetJson.read("{\"a\":1,}"))
                .hasMessage("invalid JSON at character 7 of {\"a\":1,}: a key was expected");
        assertThatThrownBy(() -> OffsetJson.read("{\"a\":1} x"))
                .hasMessage("invalid JSON at character 8 of {\"a\":1} x: unexpected text after the value");
    }

    @Test
    void offsetsAreOrderedPartByPart() {
        assertThat(OffsetJson.compare("{\"seq\":1}", "{\"seq\":2}")).isEqualTo(OffsetJson.Order.BEFORE);
        assertThat(OffsetJson.compare("{\"seq\":2}", "{\"seq\":2.0}")).isEqualTo(OffsetJson.Order.SAME);
        assertThat(OffsetJson.compare("{\"a\":3,\"b\":1}", "{\"a\":2,\"b\":1}")).isEqualTo(OffsetJson.Order.AFTER);
        assertThat(OffsetJson.compare("{\"a\":3,\"b\":1}", "{\"a\":2,\"b\":5}")).isEqualTo(OffsetJson.Order.MIXED);
        assertThat(OffsetJson.compare("{\"a\":3}", "{\"b\":3}")).isEqualTo(OffsetJson.Order.UNORDERED);
        assertThat(OffsetJson.compare("[\"f\",1]", "[\"f\",4]")).isEqualTo(OffsetJson.Order.BEFORE);
        assertThat(OffsetJson.compare("[\"f\",1]", "[\"g\",4]")).isEqualTo(OffsetJson.Order.UNORDERED);
        assertThat(OffsetJson.compare("7", "5")).isEqualTo(OffsetJson.Order.AFTER);
    }
}
