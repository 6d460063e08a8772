package io.sluice.core;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;

import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Map;
import java.util.TreeMap;

/** Writes progress in Spark's JSON shape. Jackson's default pretty printer matches Spark's json4s output. */
final class ProgressJson {
    static final ObjectMapper MAPPER = new ObjectMapper();

    private ProgressJson() {
    }

    static ObjectNode query(StreamingQueryProgress p) {
        ObjectNode n = MAPPER.createObjectNode();
        n.put("id", p.id().toString());
        n.put("runId", p.runId().toString());
        if (p.name() == null) {
            n.putNull("name");
        } else {
            n.put("name", p.name());
        }
        n.put("timestamp", p.timestamp());
        n.put("batchId", p.batchId());
        n.put("batchDuration", p.batchDuration());
        n.put("numInputRows", p.numInputRows());
        putRate(n, "inputRowsPerSecond", p.inputRowsPerSecond());
        putRate(n, "processedRowsPerSecond", p.processedRowsPerSecond());
        if (!p.durationMs().isEmpty()) {
            ObjectNode d = n.putObject("durationMs");
            new TreeMap<>(p.durationMs()).forEach(d::put);
        }
        putMap(n, "eventTime", p.eventTime());
        n.putArray("stateOperators");
        var sources = n.putArray("sources");
        p.sources().forEach(s -> sources.add(source(s)));
        ObjectNode sink = n.putObject("sink");
        sink.put("description", p.sink().description());
        sink.put("numOutputRows", p.sink().numOutputRows());
        putMap(sink, "metrics", p.sink().metrics());
        return n;
    }

    static ObjectNode source(SourceProgress s) {
        ObjectNode n = MAPPER.createObjectNode();
        n.put("description", s.description());
        n.set("startOffset", offset(s.startOffset()));
        n.set("endOffset", offset(s.endOffset()));
        n.set("latestOffset", offset(s.latestOffset()));
        n.put("numInputRows", s.numInputRows());
        putRate(n, "inputRowsPerSecond", s.inputRowsPerSecond());
        putRate(n, "processedRowsPerSecond", s.processedRowsPerSecond());
        putMap(n, "metrics", s.metrics());
        return n;
    }

    /** An offset embeds as JSON; one that is not valid JSON embeds as a string, as Spark does. */
    private static JsonNode offset(String json) {
        if (json == null) {
            return MAPPER.nullNode();
        }
        try {
            return MAPPER.readTree(json);
        } catch (JsonProcessingException e) {
            return TextNode.valueOf(json);
        }
    }

    /** Spark leaves NaN and infinite rates out and writes the rest rounded half-up to one decimal. */
    private static void putRate(ObjectNode n, String field, double v) {
        if (Double.isNaN(v) || Double.isInfinite(v)) {
            return;
        }
        n.put(field, BigDecimal.valueOf(v).setScale(1, RoundingMode.HALF_UP).doubleValue());
    }

    private static void putMap(ObjectNode n, String field, Map<String, String> map) {
        if (map.isEmpty()) {
            return;
        }
        ObjectNode m = n.putObject(field);
        new TreeMap<>(map).forEach(m::put);
    }

    static String compact(JsonNode n) {
        try {
            return MAPPER.writeValueAsString(n);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String pretty(JsonNode n) {
        try {
            return MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(n);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }
}
