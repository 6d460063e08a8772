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
 * @param eventTime   event-time statistics of a query with a watermark: {@code min}, {@code max}, {@code avg}
 *                    of the batch's event times and the batch's {@code watermark} (empty without a watermark)
 * @param stateOperators one entry per stateful operator, top-down from the sink (empty for a stateless query)
 */
public record StreamingQueryProgress(UUID id, UUID runId, String name, String timestamp, long batchId,
                                     long batchDuration, Map<String, Long> durationMs,
                                     Map<String, String> eventTime, List<StateOperatorProgress> stateOperators,
                                     List<SourceProgress> sources, SinkProgress sink) {
    public StreamingQueryProgress {
        durationMs = Map.copyOf(durationMs);
        eventTime = Map.copyOf(eventTime);
        stateOperators = List.copyOf(stateOperators);
        sources = List.copyOf(sources);
    }

    /** The progress of a stateless query (no state operators). */
    public StreamingQueryProgress(UUID id, UUID runId, String name, String timestamp, long batchId,
                                  long batchDuration, Map<String, Long> durationMs, Map<String, String> eventTime,
                                  List<SourceProgress> sources, SinkProgress sink) {
        this(id, runId, name, timestamp, batchId, batchDuration, durationMs, eventTime, List.of(), sources, sink);
    }

    // Plain loops rather than streams: the sums run once per batch, and the first stream of a JVM loads and
    // links some 30 classes on the query thread, between a query's last batch and its end.

    /** Rows read in this batch, over all sources. */
    public long numInputRows() {
        long n = 0;
        for (SourceProgress s : sources) {
            n += s.numInputRows();
        }
        return n;
    }

    /** The sources' input rates added up, in source order (as Spark's sum). */
    public double inputRowsPerSecond() {
        double sum = 0;
        for (SourceProgress s : sources) {
            sum += s.inputRowsPerSecond();
        }
        return sum;
    }

    /** The sources' processing rates added up, in source order (as Spark's sum). */
    public double processedRowsPerSecond() {
        double sum = 0;
        for (SourceProgress s : sources) {
            sum += s.processedRowsPerSecond();
        }
        return sum;
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
