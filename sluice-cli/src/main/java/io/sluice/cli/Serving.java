package io.sluice.cli;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What {@code sluice run} serves and pushes beside the query: the metrics endpoint, the web UI and the OTLP export,
 * from flags ({@code --metrics-port}...) or pipeline file keys ({@code metricsPort}...). A null field was not given.
 * {@code otlpHeaders} keep their order; a flag's header replaces the file's of the same name (case-insensitive, as
 * HTTP header names are).
 */
record Serving(Integer metricsPort, String metricsHost, Integer uiPort, String uiHost, String otlpEndpoint,
               String otlpStep, Map<String, String> otlpHeaders) {

    /** The pipeline file keys, in the order the docs list them. */
    static final java.util.List<String> KEYS = java.util.List.of("metricsPort", "metricsHost", "uiPort", "uiHost",
            "otlpEndpoint", "otlpStep", "otlpHeaders");

    static final Serving NONE = new Serving(null, null, null, null, null, null, Map.of());

    Serving {
        otlpHeaders = Collections.unmodifiableMap(new LinkedHashMap<>(otlpHeaders));
    }

    Serving overriddenBy(Serving flags) {
        return new Serving(pick(flags.metricsPort, metricsPort), pick(flags.metricsHost, metricsHost),
                pick(flags.uiPort, uiPort), pick(flags.uiHost, uiHost), pick(flags.otlpEndpoint, otlpEndpoint),
                pick(flags.otlpStep, otlpStep),
                new OptionMapBuilder().putAll(otlpHeaders).putAll(flags.otlpHeaders).build());
    }

    /** Micrometer's {@code otlp.headers}: {@code key1=value1,key2=value2}. */
    String otlpHeadersText() {
        StringBuilder b = new StringBuilder();
        otlpHeaders.forEach((k, v) -> b.append(b.length() == 0 ? "" : ",").append(k).append('=').append(v));
        return b.toString();
    }

    private static <T> T pick(T first, T second) {
        return first != null ? first : second;
    }
}
