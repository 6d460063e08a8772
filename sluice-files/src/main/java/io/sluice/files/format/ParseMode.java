package io.sluice.files.format;

import io.sluice.api.InvalidOptionException;
import io.sluice.api.Options;

import java.util.Locale;

/** Spark's parse modes for malformed JSON and CSV records (option {@code mode}, case-insensitive). */
enum ParseMode {
    PERMISSIVE, DROPMALFORMED, FAILFAST;

    static ParseMode of(Options options) {
        String v = options.get("mode").orElse(null);
        if (v == null) {
            return PERMISSIVE;
        }
        // Spark logs a warning and falls back to PERMISSIVE; a typo silently changing how bad data is handled
        // is worse than failing before the query starts.
        return switch (v.toUpperCase(Locale.ROOT)) {
            case "PERMISSIVE" -> PERMISSIVE;
            case "DROPMALFORMED" -> DROPMALFORMED;
            case "FAILFAST" -> FAILFAST;
            default -> throw new InvalidOptionException("mode", v,
                    v + " is not a valid parse mode; PERMISSIVE, DROPMALFORMED or FAILFAST is accepted (case-insensitive)");
        };
    }
}
