package io.sluice.core.sources;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sluice.api.Offset;

/** {@code {"offset":<rows so far>,"timestamp":<event time of the next batch>}}, in that key order. */
record RatePerMicroBatchOffset(long offset, long timestamp) implements Offset {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Override
    public String json() {
        return "{\"offset\":" + offset + ",\"timestamp\":" + timestamp + "}";
    }

    @Override
    public String toString() {
        return json();
    }

    static RatePerMicroBatchOffset parse(String json) {
        JsonNode n;
        try {
            n = JSON.readTree(json);
        } catch (Exception e) {
            throw new IllegalArgumentException("Invalid rate-micro-batch offset '" + json + "': " + e.getMessage(), e);
        }
        if (n == null || !n.isObject() || !n.path("offset").canConvertToExactIntegral()
                || !n.path("timestamp").canConvertToExactIntegral()) {
            throw new IllegalArgumentException("Invalid rate-micro-batch offset '" + json
                    + "': expected {\"offset\":<long>,\"timestamp\":<long>}");
        }
        return new RatePerMicroBatchOffset(n.get("offset").asLong(), n.get("timestamp").asLong());
    }

    static RatePerMicroBatchOffset of(Offset o) {
        if (o instanceof RatePerMicroBatchOffset r) {
            return r;
        }
        if (o == null) {
            throw new IllegalArgumentException("A rate-micro-batch offset must not be null");
        }
        return parse(o.json());
    }
}
