package io.sluice.core.sources;

import io.sluice.api.Offset;
import io.sluice.core.json.Json;

import java.util.Map;

/** {@code {"offset":<rows so far>,"timestamp":<event time of the next batch>}}, in that key order. */
record RatePerMicroBatchOffset(long offset, long timestamp) implements Offset {
    @Override
    public String json() {
        return "{\"offset\":" + offset + ",\"timestamp\":" + timestamp + "}";
    }

    @Override
    public String toString() {
        return json();
    }

    static RatePerMicroBatchOffset parse(String json) {
        Object n;
        try {
            n = Json.parse(json);
        } catch (Exception e) {
            throw new IllegalArgumentException("Invalid rate-micro-batch offset '" + json + "': " + e.getMessage(), e);
        }
        if (!(n instanceof Map<?, ?> m) || !(m.get("offset") instanceof Long offset)
                || !(m.get("timestamp") instanceof Long timestamp)) {
            throw new IllegalArgumentException("Invalid rate-micro-batch offset '" + json
                    + "': expected {\"offset\":<long>,\"timestamp\":<long>}");
        }
        return new RatePerMicroBatchOffset(offset, timestamp);
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
