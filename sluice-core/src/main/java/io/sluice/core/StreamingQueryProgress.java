package io.sluice.core;

import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The report of one executed micro-batch, with Spark's {@code StreamingQueryProgress} fields. {@link #json()} and
 * {@link #prettyJson()} write them with Spark's names and order, so tools that parse Spark's progress parse these:
 * durations and metrics with sorted keys, empty maps and non-finite rates left out, rates rounded to one decimal.
 *
 * @param timestamp   the trigger's start, {@code yyyy-MM-dd'T'HH:mm:ss.SSS'Z'} in UTC
 * @param durationMs  phase durations: addBatch, commitOffsets, getBatch, latestOffset, queryPlanning,
 *                    triggerExecution, walCommit
 * @param eventTime   event-time statistics (empty: Sluice has no watermarks yet)
 */
public record StreamingQueryProgress(UUID id, UUID runId, String name, String timestamp, long batchId,
                                     long batchDuration, Map<String, Long> durationMs,
                                     Map<String, String> eventTime, List<SourceProgress> sources,
                                     SinkProgress sink) {
    public StreamingQueryProgress {
        durationMs = Map.copyOf(durationMs);
        eventTime = Map.copyOf(eventTime);
        sources = List.copyOf(sources);
    }

    /** Rows read in this batch, over all sources. */
    public long numInputRows() {
        return sources.stream().mapToLong(SourceProgress::numInputRows).sum();
    }

    public double inputRowsPerSecond() {
        return sources.stream().mapToDouble(SourceProgress::inputRowsPerSecond).sum();
    }

    public double processedRowsPerSecond() {
        return sources.stream().mapToDouble(SourceProgress::processedRowsPerSecond).sum();
    }

    /** Compact JSON, as Spark's {@code json}. */
    public String json() {
        return ProgressJson.compact(this);
    }

    /** Indented JSON, as Spark's {@code prettyJson} and {@code toString}. */
    public String prettyJson() {
        return ProgressJson.pretty(this);
    }

    @Override
    public String toString() {
        return prettyJson();
    }
}
