package io.sluice.core;

import com.fasterxml.jackson.core.JsonGenerator;
import io.sluice.core.json.Json;

import java.io.IOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Map;
import java.util.TreeMap;

/** Writes progress in Spark's JSON shape, field by field with Jackson's streaming generator. */
final class ProgressJson {

    private ProgressJson() {
    }

    static String compact(StreamingQueryProgress p) {
        return Json.compact(g -> query(g, p));
    }

    static String pretty(StreamingQueryProgress p) {
        return Json.pretty(g -> query(g, p));
    }

    static String compact(SourceProgress s) {
        return Json.compact(g -> source(g, s));
    }

    private static void query(JsonGenerator g, StreamingQueryProgress p) throws IOException {
        g.writeStartObject();
        g.writeStringField("id", p.id().toString());
        g.writeStringField("runId", p.runId().toString());
        g.writeStringField("name", p.name()); // null is written as null, as Spark
        g.writeStringField("timestamp", p.timestamp());
        g.writeNumberField("batchId", p.batchId());
        g.writeNumberField("batchDuration", p.batchDuration());
        g.writeNumberField("numInputRows", p.numInputRows());
        rate(g, "inputRowsPerSecond", p.inputRowsPerSecond());
        rate(g, "processedRowsPerSecond", p.processedRowsPerSecond());
        if (!p.durationMs().isEmpty()) {
            g.writeObjectFieldStart("durationMs");
            for (Map.Entry<String, Long> e : new TreeMap<>(p.durationMs()).entrySet()) {
                g.writeNumberField(e.getKey(), e.getValue());
            }
            g.writeEndObject();
        }
        map(g, "eventTime", p.eventTime());
        g.writeArrayFieldStart("stateOperators");
        for (StateOperatorProgress o : p.stateOperators()) {
            g.writeStartObject();
            g.writeStringField("operatorName", o.operatorName());
            g.writeNumberField("numRowsTotal", o.numRowsTotal());
            g.writeNumberField("numRowsUpdated", o.numRowsUpdated());
            g.writeNumberField("allUpdatesTimeMs", o.allUpdatesTimeMs());
            g.writeNumberField("numRowsRemoved", o.numRowsRemoved());
            g.writeNumberField("allRemovalsTimeMs", o.allRemovalsTimeMs());
            g.writeNumberField("commitTimeMs", o.commitTimeMs());
            g.writeNumberField("memoryUsedBytes", o.memoryUsedBytes());
            g.writeNumberField("numRowsDroppedByWatermark", o.numRowsDroppedByWatermark());
            g.writeNumberField("numShufflePartitions", o.numShufflePartitions());
            g.writeNumberField("numStateStoreInstances", o.numStateStoreInstances());
            if (!o.customMetrics().isEmpty()) {
                g.writeObjectFieldStart("customMetrics");
                for (Map.Entry<String, Long> e : new TreeMap<>(o.customMetrics()).entrySet()) {
                    g.writeNumberField(e.getKey(), e.getValue());
                }
                g.writeEndObject();
            }
            g.writeEndObject();
        }
        g.writeEndArray();
        g.writeArrayFieldStart("sources");
        for (SourceProgress s : p.sources()) {
            source(g, s);
        }
        g.writeEndArray();
        g.writeObjectFieldStart("sink");
        g.writeStringField("description", p.sink().description());
        g.writeNumberField("numOutputRows", p.sink().numOutputRows());
        map(g, "metrics", p.sink().metrics());
        g.writeEndObject();
        g.writeEndObject();
    }

    private static void source(JsonGenerator g, SourceProgress s) throws IOException {
        g.writeStartObject();
        g.writeStringField("description", s.description());
        offset(g, "startOffset", s.startOffset());
        offset(g, "endOffset", s.endOffset());
        offset(g, "latestOffset", s.latestOffset());
        g.writeNumberField("numInputRows", s.numInputRows());
        rate(g, "inputRowsPerSecond", s.inputRowsPerSecond());
        rate(g, "processedRowsPerSecond", s.processedRowsPerSecond());
        map(g, "metrics", s.metrics());
        g.writeEndObject();
    }

    /** An offset embeds as JSON; one that is not valid JSON embeds as a string, as Spark does; none as null. */
    private static void offset(JsonGenerator g, String field, String json) throws IOException {
        g.writeFieldName(field);
        if (json == null) {
            g.writeNull();
        } else {
            Json.writeEmbedded(g, json);
        }
    }

    /** Spark leaves NaN and infinite rates out and writes the rest rounded half-up to one decimal. */
    private static void rate(JsonGenerator g, String field, double v) throws IOException {
        if (Double.isNaN(v) || Double.isInfinite(v)) {
            return;
        }
        g.writeNumberField(field, BigDecimal.valueOf(v).setScale(1, RoundingMode.HALF_UP).doubleValue());
    }

    /** Spark leaves empty maps out and sorts the keys. */
    private static void map(JsonGenerator g, String field, Map<String, String> map) throws IOException {
        if (map.isEmpty()) {
            return;
        }
        g.writeObjectFieldStart(field);
        for (Map.Entry<String, String> e : new TreeMap<>(map).entrySet()) {
            g.writeStringField(e.getKey(), e.getValue());
        }
        g.writeEndObject();
    }
}
