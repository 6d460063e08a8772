package io.sluice.cli;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Builds an option map in the order given, keys case-insensitive as the engine treats them: a later key replaces an
 * earlier one whatever its case, and the later spelling and position win. Keys are indexed by their lower-case form,
 * so each {@link #put} costs the same however many options came before (a pipeline file may hold 200,000 of them).
 */
final class OptionMapBuilder {
    private final Map<String, String> entries = new LinkedHashMap<>();
    /** Lower-case key to the spelling it has in {@link #entries}. */
    private final Map<String, String> spellings = new HashMap<>();

    OptionMapBuilder put(String key, String value) {
        String previous = spellings.put(key.toLowerCase(Locale.ROOT), key);
        if (previous != null) {
            // Removed, not overwritten: the new spelling takes the later position.
            entries.remove(previous);
        }
        entries.put(key, value);
        return this;
    }

    OptionMapBuilder putAll(Map<String, String> options) {
        options.forEach(this::put);
        return this;
    }

    /** The options so far, in order; a new mutable map owned by the caller. */
    Map<String, String> build() {
        return new LinkedHashMap<>(entries);
    }
}
