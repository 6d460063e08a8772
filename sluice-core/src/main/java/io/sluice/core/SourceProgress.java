package io.sluice.core;

import java.util.Map;

/**
 * What one source did in one batch, as Spark's {@code SourceProgress}. Offsets are the sources' JSON strings;
 * null when absent.
 */
public record SourceProgress(String description, String startOffset, String endOffset, String latestOffset,
                             long numInputRows, double inputRowsPerSecond, double processedRowsPerSecond,
                             Map<String, String> metrics) {
    public SourceProgress {
        metrics = Map.copyOf(metrics);
    }

    public String json() {
        return ProgressJson.compact(this);
    }
}
