package io.sluice.cli;

import io.sluice.core.Trigger;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PipelineFileTest {

    private static Pipeline parse(String yaml) {
        return PipelineFile.parse("p.yaml", yaml);
    }

    private static void assertError(String yaml, String message) {
        assertThatThrownBy(() -> parse(yaml)).isInstanceOf(PipelineFileException.class).hasMessage(message);
    }

    @Test
    void readsEveryKey() throws SpecException {
        Pipeline p = parse("""
                name: orders
                source:
                  format: rate-micro-batch
                  options:
                    rowsPerBatch: 1e3
                    flag: yes
                    ratio: 0.50
                  schema: "id long, amount long"
                transforms:
                  - where: amount > 10
                  - "select: id, concat(a, ',') AS s"
                  - select: [id, "amount * 2 AS doubled"]
                  - "WHERE:id = 'a,b'"
                sink:
                  format: noop
                  options: {k: v}
                checkpoint: /var/chk
                trigger: processingTime=10 seconds
                progressFile: progress.jsonl
                """);
        assertThat(p.name()).isEqualTo("orders");
        assertThat(p.sourceFormat()).isEqualTo("rate-micro-batch");
        // Scalars keep their spelling: YAML would read these as a double, a boolean and 0.5.
        assertThat(p.sourceOptions()).containsExactly(Map.entry("rowsPerBatch", "1e3"), Map.entry("flag", "yes"),
                Map.entry("ratio", "0.50"));
        assertThat(p.schema()).isEqualTo("id long, amount long");
        assertThat(p.transforms()).containsExactly(
                Transform.where("amount > 10"),
                Transform.select(List.of("id", "concat(a, ',') AS s")),
                Transform.select(List.of("id", "amount * 2 AS doubled")),
                Transform.where("id = 'a,b'"));
        assertThat(p.sinkFormat()).isEqualTo("noop");
        assertThat(p.sinkOptions()).containsExactly(Map.entry("k", "v"));
        assertThat(p.checkpoint()).isEqualTo("/var/chk");
        assertThat(p.trigger().trigger()).isEqualTo(Trigger.processingTime(10_000));
        assertThat(p.trigger().text()).isEqualTo("processingTime=10 seconds");
        assertThat(p.progressFile()).isEqualTo("progress.jsonl");
    }

    @Test
    void keysWithoutValueCountAsNotGiven() {
        Pipeline p = parse("name:\nsource: {format: rate}\ncheckpoint:\ntransforms:\n");
        assertThat(p.name()).isNull();
        assertThat(p.checkpoint()).isNull();
        assertThat(p.transforms()).isNull();
        assertThat(p.sourceFormat()).isEqualTo("rate");
    }

    @Test
    void flagsOverrideTheFile() throws SpecException {
        Pipeline file = parse("""
                name: a
                source: {format: rate, options: {rowsPerSecond: 5, numPartitions: 2}}
                transforms: ["where: x > 1"]
                sink: {format: noop}
                trigger: once
                conf: {a.b: 1, c: x}
                """);
        assertThat(file.conf()).containsExactly(Map.entry("a.b", "1"), Map.entry("c", "x"));
        Pipeline flags = new Pipeline("b", null, Map.of("ROWSPERSECOND", "9"), null,
                List.of(Transform.where("y > 2")), "memory", Map.of(), "/c", TriggerSpec.parse("availableNow"), null,
                Map.of("A.B", "2"));
        Pipeline merged = file.overriddenBy(flags);
        assertThat(merged.name()).isEqualTo("b");
        assertThat(merged.sourceFormat()).isEqualTo("rate");
        assertThat(merged.sourceOptions()).containsExactly(Map.entry("numPartitions", "2"),
                Map.entry("ROWSPERSECOND", "9"));
        assertThat(merged.transforms()).containsExactly(Transform.where("y > 2"));
        assertThat(merged.sinkFormat()).isEqualTo("memory");
        assertThat(merged.checkpoint()).isEqualTo("/c");
        assertThat(merged.conf()).containsExactly(Map.entry("c", "x"), Map.entry("A.B", "2"));
        assertThat(merged.effectiveTrigger().text()).isEqualTo("availableNow");
        assertThat(file.overriddenBy(Pipeline.empty())).isEqualTo(file);
    }

    @Test
    void unknownKeysNameTheKeyAndTheAcceptedOnes() {
        assertError("name: a\nsorce: {format: rate}\n", "p.yaml, line 2: unknown key 'sorce'; accepted keys: name, "
                + "source, transforms, sink, checkpoint, trigger, progressFile, conf, outputMode, sql, watermark, metricsPort, metricsHost, uiPort, uiHost, otlpEndpoint, otlpStep, otlpHeaders");
        assertError("source:\n  format: rate\n  option: {a: 1}\n", "p.yaml, line 3: unknown key 'source.option'; "
                + "accepted keys under source: format, options, schema");
        assertError("sink:\n  format: noop\n  schema: x\n", "p.yaml, line 3: unknown key 'sink.schema'; "
                + "accepted keys under sink: format, options");
    }

    @Test
    void wrongShapes() {
        assertError("source: rate\n", "p.yaml, line 1: 'source' must be a mapping (format, options, schema)");
        assertError("sink: [noop]\n", "p.yaml, line 1: 'sink' must be a mapping (format, options)");
        assertError("name: [a, b]\n", "p.yaml, line 1: 'name' must be a single value, not a list or mapping");
        assertError("source:\n  format: rate\n  options:\n    a: [1, 2]\n",
                "p.yaml, line 4: 'source.options.a' must be a single value, not a list or mapping");
        assertError("source:\n  format: rate\n  options:\n    a:\n",
                "p.yaml, line 4: 'source.options.a' has no value");
        assertError("source:\n  options: [a]\n", "p.yaml, line 2: 'source.options' must be a mapping of option "
                + "names to values");
        assertError("transforms: where x\n", "p.yaml, line 1: 'transforms' must be a list, e.g. "
                + "[\"where: amount > 10\"]");
        assertError("- a\n- b\n", "p.yaml, line 1: the pipeline must be a mapping of keys (name, source, "
                + "transforms, sink, checkpoint, trigger, progressFile, conf, outputMode, sql, watermark, metricsPort, metricsHost, uiPort, uiHost, otlpEndpoint, otlpStep, otlpHeaders)");
        assertError("name: a\nname: b\n", "p.yaml, line 2: duplicate key 'name'");
    }

    @Test
    void badTransformsAndTrigger() {
        assertError("transforms:\n  - where: a > 1\n  - filter: b\n", "p.yaml, line 3: invalid transform: "
                + Transform.ACCEPTED);
        assertError("transforms:\n  - 'where:'\n", "p.yaml, line 2: invalid transform: the condition after "
                + "'where:' is empty");
        assertError("transforms:\n  - select: [a, [b]]\n", "p.yaml, line 2: invalid transform: each expression "
                + "of 'select' must be text");
        assertError("trigger: sometimes\n", "p.yaml, line 1: invalid trigger 'sometimes': " + TriggerSpec.ACCEPTED);
        assertError("trigger: processingTime=x\n", "p.yaml, line 1: invalid trigger 'processingTime=x': Invalid "
                + "trigger interval 'x': expected a whole number with an optional unit, e.g. '10 seconds', "
                + "'500 ms', '1 minute'");
    }

    @Test
    void emptyOrBrokenFiles() {
        assertError("", "p.yaml: the pipeline file is empty");
        assertError("# only a comment\n", "p.yaml: the pipeline file is empty");
        assertThatThrownBy(() -> parse("source: {format: rate\n")).isInstanceOf(PipelineFileException.class)
                .hasMessageStartingWith("p.yaml: not valid YAML: ");
        assertError("name: a\n---\nname: b\n", "p.yaml, line 3: the file holds more than one YAML document");
    }

    @Test
    void aLaterKeyReplacesAnEarlierOneWhateverItsCase() {
        Pipeline p = parse("source:\n  format: rate\n  options:\n    a: 1\n    B: 2\n    A: 3\n    c: 4\n    b: 5\n");
        // The later spelling wins and takes the later position.
        assertThat(p.sourceOptions()).containsExactly(Map.entry("A", "3"), Map.entry("c", "4"), Map.entry("b", "5"));
    }

    /**
     * 200,000 option keys: with a put that scanned every earlier key (quadratic) such a file took over 300 s to
     * read; indexed by the lower-case key it is one pass. 50,000 of the keys repeat an earlier one in upper case,
     * so the replacement path runs too. (One-space indents keep the file under the YAML parser's 3 M characters.)
     */
    @Test
    void twoHundredThousandOptionKeysAreReadInOnePass() {
        StringBuilder yaml = new StringBuilder("source:\n format: rate\n options:\n");
        for (int i = 0; i < 150_000; i++) {
            yaml.append("  k").append(i).append(": 1\n");
        }
        for (int i = 0; i < 100_000; i += 2) {
            yaml.append("  K").append(i).append(": 2\n");
        }
        Map<String, String> options = parse(yaml.toString()).sourceOptions();
        assertThat(options).hasSize(150_000);
        List<Map.Entry<String, String>> entries = List.copyOf(options.entrySet());
        // Odd keys below 100,000 and the keys from 100,000 on keep their place; each even key below 100,000 moved
        // to the end with its upper-case spelling and value.
        assertThat(entries.get(0)).isEqualTo(Map.entry("k1", "1"));
        assertThat(entries.get(49_999)).isEqualTo(Map.entry("k99999", "1"));
        assertThat(entries.get(99_999)).isEqualTo(Map.entry("k149999", "1"));
        assertThat(entries.get(100_000)).isEqualTo(Map.entry("K0", "2"));
        assertThat(entries.get(149_999)).isEqualTo(Map.entry("K99998", "2"));
    }

    @Test
    void readsTheServingKeys() {
        Pipeline p = parse("""
                source: {format: rate}
                metricsPort: 9400
                metricsHost: 0.0.0.0
                uiPort: 4040
                uiHost: localhost
                otlpEndpoint: http://collector:4318/v1/metrics
                otlpStep: 30s
                otlpHeaders: {Authorization: Bearer abc, X-Team: data}
                """);
        assertThat(p.serving()).isEqualTo(new Serving(9400, "0.0.0.0", 4040, "localhost",
                "http://collector:4318/v1/metrics", "30s", Map.of("Authorization", "Bearer abc", "X-Team", "data")));
        assertThat(p.serving().otlpHeadersText()).isEqualTo("Authorization=Bearer abc,X-Team=data");
        // A flag wins over the file, setting by setting; headers are merged by name.
        Serving flags = new Serving(null, null, 0, null, null, "1m", Map.of("x-team", "ops"));
        Pipeline merged = p.overriddenBy(new Pipeline(null, null, Map.of(), null, null, null, Map.of(), null, null,
                null, Map.of(), null, null, null, flags));
        assertThat(merged.serving()).isEqualTo(new Serving(9400, "0.0.0.0", 0, "localhost",
                "http://collector:4318/v1/metrics", "1m", Map.of("Authorization", "Bearer abc", "x-team", "ops")));
        assertThat(parse("source: {format: rate}").serving()).isEqualTo(Serving.NONE);
    }

    @Test
    void servingKeysAreChecked() {
        assertError("metricsPort: 70000", "p.yaml, line 1: invalid metricsPort '70000': expected 0 to 65535");
        assertError("name: a\nuiPort: web", "p.yaml, line 2: invalid uiPort 'web': expected 0 to 65535");
        assertError("uiPort: [1]", "p.yaml, line 1: 'uiPort' must be a single value, not a list or mapping");
        assertError("metricsHost: 0.0.0.0", "p.yaml, line 1: metricsHost needs metricsPort");
        assertError("uiHost: 0.0.0.0", "p.yaml, line 1: uiHost needs uiPort");
        assertError("otlpStep: 10s", "p.yaml, line 1: otlpStep needs otlpEndpoint");
        assertError("otlpHeaders: {a: b}", "p.yaml, line 1: otlpHeaders needs otlpEndpoint");
        assertError("otlpEndpoint: http://c/v1/metrics\notlpHeaders: {a: 'b,c'}",
                "p.yaml, line 2: 'otlpHeaders.a': a header's name or value cannot contain ','");
        assertError("otlpEndpoint: http://c/v1/metrics\notlpHeaders: [a]",
                "p.yaml, line 2: 'otlpHeaders' must be a mapping of option names to values");
    }
}
