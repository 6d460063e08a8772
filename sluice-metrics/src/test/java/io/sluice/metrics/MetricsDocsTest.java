package io.sluice.metrics;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.sluice.core.SinkProgress;
import io.sluice.core.Sluice;
import io.sluice.core.SourceProgress;
import io.sluice.core.StreamingQueryListener;
import io.sluice.core.StreamingQueryProgress;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/** docs/metrics.md lists exactly the meters Sluice registers; docs/prometheus-alerts.yml is a rule file of them. */
class MetricsDocsTest {

    private static final Path DOCS = Path.of("..", "docs");

    private static Set<String> documented() throws Exception {
        Set<String> names = new TreeSet<>();
        Matcher m = Pattern.compile("(?m)^\\| `(sluice_[a-z_]+)` \\|").matcher(Files.readString(DOCS.resolve(
                "metrics.md")));
        while (m.find()) {
            names.add(m.group(1));
        }
        return names;
    }

    @Test
    void theTableListsEveryMeterAndNoOther() throws Exception {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        try (Sluice sluice = Sluice.local(); SluiceMetrics metrics = SluiceMetrics.bind(sluice, registry)) {
            UUID id = UUID.randomUUID();
            UUID run = UUID.randomUUID();
            metrics.tracker().onQueryStarted(new StreamingQueryListener.QueryStartedEvent(id, run, "q",
                    "2026-01-01T00:00:00Z"));
            Map<String, String> all = new LinkedHashMap<>();
            for (String k : List.of("minOffsetsBehindLatest", "maxOffsetsBehindLatest", "avgOffsetsBehindLatest",
                    "minRetentionMsLeft", "minRetentionBytesLeft", "dataLoss", "numFilesOutstanding",
                    "numBytesOutstanding", "numFilesChangedAfterRead", "numSpecialFilesSkipped",
                    "numMissingFilesSkipped", "numCorruptFilesSkipped", "numFilesTaken", "numBytesTaken",
                    "numRowGroupsRead")) {
                all.put(k, "1");
            }
            metrics.tracker().onQueryProgress(new StreamingQueryListener.QueryProgressEvent(
                    new StreamingQueryProgress(id, run, "q", "2026-01-01T00:00:01.000Z", 0, 10,
                            Map.of("addBatch", 1L), Map.of(), List.of(new SourceProgress("S", null, "{}", null, 1,
                            1, 1, all)), new SinkProgress("K", 1, Map.of()))));
            PrometheusText t = PrometheusText.parse(registry.scrape(SluiceServer.PROMETHEUS_TEXT), false);
            Set<String> registered = new TreeSet<>();
            for (String family : t.types.keySet()) {
                if (family.startsWith("sluice_")) {
                    registered.add(family);
                }
            }
            assertThat(documented()).isEqualTo(registered);
        }
    }

    @Test
    void theAlertFileIsARuleFileOfDocumentedMetrics() throws Exception {
        JsonNode rules = new ObjectMapper(new YAMLFactory()).readTree(DOCS.resolve("prometheus-alerts.yml").toFile());
        JsonNode group = rules.get("groups").get(0);
        assertThat(group.get("name").asText()).isEqualTo("sluice");
        Set<String> alerts = new TreeSet<>();
        Set<String> used = new TreeSet<>();
        for (JsonNode rule : group.get("rules")) {
            assertThat(rule.get("expr").isTextual()).isTrue();
            assertThat(rule.get("labels").get("severity").asText()).isIn("critical", "warning");
            assertThat(rule.get("annotations").get("summary").isTextual()).isTrue();
            alerts.add(rule.get("alert").asText());
            Matcher m = Pattern.compile("sluice_[a-z_]+").matcher(rule.get("expr").asText());
            while (m.find()) {
                used.add(m.group());
            }
        }
        assertThat(alerts).containsExactly("SluiceKafkaDataLoss", "SluiceKafkaRetentionAboutToBeCrossed",
                "SluiceQueryFailed", "SluiceQueryFallingBehind", "SluiceQueryStale");
        assertThat(documented()).containsAll(used);
        assertThat(used).contains("sluice_query_staleness_seconds", "sluice_query_input_rows_per_second",
                "sluice_query_processed_rows_per_second", "sluice_source_retention_time_left_seconds");
    }
}
