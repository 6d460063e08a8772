package io.sluice.delta;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sluice.api.Offset;

/**
 * delta-spark's DeltaSourceOffset, field for field and in its JSON order: the table id, the version, the index of the
 * last file taken in that version (-1 = before its first file) and whether the version is the starting snapshot.
 */
record DeltaSourceOffset(String reservoirId, long reservoirVersion, long index, boolean isStartingVersion)
        implements Offset {

    static final int SOURCE_VERSION = 1;
    static final long BASE_INDEX = -1;
    private static final ObjectMapper JSON = new ObjectMapper();

    @Override
    public String json() {
        return "{\"sourceVersion\":" + SOURCE_VERSION + ",\"reservoirId\":" + quote(reservoirId)
                + ",\"reservoirVersion\":" + reservoirVersion + ",\"index\":" + index
                + ",\"isStartingVersion\":" + isStartingVersion + "}";
    }

    static DeltaSourceOffset parse(String json) {
        try {
            JsonNode n = JSON.readTree(json);
            int sv = n.path("sourceVersion").asInt(-1);
            if (sv != SOURCE_VERSION) {
                throw new IllegalStateException("Unsupported Delta source offset version " + sv + " in " + json
                        + ": this Sluice reads version " + SOURCE_VERSION);
            }
            return new DeltaSourceOffset(n.get("reservoirId").asText(), n.get("reservoirVersion").asLong(),
                    n.get("index").asLong(), n.get("isStartingVersion").asBoolean());
        } catch (java.io.IOException | NullPointerException e) {
            throw new IllegalArgumentException("Not a Delta source offset: " + json, e);
        }
    }

    /** Position order: version, then index; the starting snapshot of version V comes before V's commit. */
    int compareTo(DeltaSourceOffset o) {
        int c = Long.compare(reservoirVersion, o.reservoirVersion);
        if (c != 0) {
            return c;
        }
        if (isStartingVersion != o.isStartingVersion) {
            return isStartingVersion ? -1 : 1;
        }
        return Long.compare(index, o.index);
    }

    private static String quote(String s) {
        try {
            return JSON.writeValueAsString(s);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public String toString() {
        return json();
    }
}
