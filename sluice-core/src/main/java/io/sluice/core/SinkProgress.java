package io.sluice.core;

import java.util.Map;

/** What the sink did in one batch, as Spark's {@code SinkProgress}; {@code numOutputRows} is -1 when unknown. */
public record SinkProgress(String description, long numOutputRows, Map<String, String> metrics) {
    public SinkProgress {
        metrics = Map.copyOf(metrics);
    }
}
