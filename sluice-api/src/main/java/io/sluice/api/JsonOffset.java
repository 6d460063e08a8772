package io.sluice.api;

import java.util.Objects;

/** An {@link Offset} that is its JSON string, as read back from the offset log. */
public record JsonOffset(String json) implements Offset {
    public JsonOffset {
        Objects.requireNonNull(json, "json");
        if (json.isBlank()) {
            throw new IllegalArgumentException("An offset's JSON must not be empty");
        }
    }

    @Override
    public String toString() {
        return json;
    }
}
