package io.sluice.iceberg;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.sluice.api.Offset;

import java.io.IOException;

/**
 * iceberg-spark's StreamingOffset, with its JSON: {@code {"version":1,"snapshot_id":S,"position":P,"scan_all_files":B}}.
 * {@code position} counts the data files of snapshot S already taken (exclusive); {@code scan_all_files} means
 * every file of S, not only its added ones. The start is (-1, -1, false).
 */
record StreamingOffset(long snapshotId, long position, boolean scanAllFiles) implements Offset {
    static final StreamingOffset START = new StreamingOffset(-1L, -1L, false);
    private static final JsonFactory JSON = new JsonFactory();

    @Override
    public String json() {
        return "{\"version\":1,\"snapshot_id\":" + snapshotId + ",\"position\":" + position + ",\"scan_all_files\":"
                + scanAllFiles + "}";
    }

    static StreamingOffset fromJson(String json) {
        long version = -1;
        Long snapshot = null;
        Long position = null;
        Boolean all = null;
        try (JsonParser p = JSON.createParser(json)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw new IllegalArgumentException("Invalid StreamingOffset: " + json);
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                p.nextToken();
                switch (name) {
                    case "version" -> version = p.getLongValue();
                    case "snapshot_id" -> snapshot = p.getLongValue();
                    case "position" -> position = p.getLongValue();
                    case "scan_all_files" -> all = p.getBooleanValue();
                    default -> p.skipChildren();
                }
            }
        } catch (IOException e) {
            throw new IllegalArgumentException("Failed to parse StreamingOffset from JSON string " + json, e);
        }
        if (version != 1) {
            throw new IllegalArgumentException("Cannot parse offset JSON: offset version " + version
                    + " is not supported");
        }
        if (snapshot == null || position == null || all == null) {
            throw new IllegalArgumentException("Failed to parse StreamingOffset from JSON string " + json);
        }
        return new StreamingOffset(snapshot, position, all);
    }

    @Override
    public String toString() {
        return json();
    }
}
