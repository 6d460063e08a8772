package io.sluice.files.format;

import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;

import java.util.Locale;

/**
 * The bounds the JSON reader puts on one value, given to Jackson as its {@link StreamReadConstraints}: a record
 * past one is malformed (PERMISSIVE: a null row with the record in the corrupt-record column; DROPMALFORMED:
 * dropped; FAILFAST: an error) and {@link #reason} says which bound, in place of the parser's confused follow-up
 * error. Strings are allowed well past Jackson's default of 20,000,000 characters (a large blob in one field is
 * data, not an attack) but stay bounded, so one record cannot exhaust the heap. docs/sources/file-formats.md
 * documents the bounds.
 */
record JsonLimits(int maxStringLength, int maxNumberLength, int maxNestingDepth, int maxNameLength) {
    /** The bounds every reader uses: strings up to 100,000,000 characters, Jackson's defaults otherwise. */
    static final JsonLimits DEFAULT = new JsonLimits(100_000_000, StreamReadConstraints.DEFAULT_MAX_NUM_LEN,
            StreamReadConstraints.DEFAULT_MAX_DEPTH, StreamReadConstraints.DEFAULT_MAX_NAME_LEN);

    StreamReadConstraints constraints() {
        return StreamReadConstraints.builder()
                .maxStringLength(maxStringLength)
                .maxNumberLength(maxNumberLength)
                .maxNestingDepth(maxNestingDepth)
                .maxNameLength(maxNameLength)
                .build();
    }

    /** Whether {@code t} is a record going past one of these bounds. */
    static boolean exceeded(Throwable t) {
        return t instanceof StreamConstraintsException;
    }

    /**
     * What bound a record went past, in words, or null when {@code t} is not such a failure. Jackson's message
     * names its own setting; this one names the bound and what to do.
     */
    String reason(Throwable t) {
        if (!exceeded(t)) {
            return null;
        }
        String m = t.getMessage() == null ? "" : t.getMessage();
        if (m.startsWith("String value length")) {
            return "a string value is longer than the " + n(maxStringLength) + " characters the JSON reader accepts";
        }
        if (m.startsWith("Number value length") || m.startsWith("Number length")) {
            return "a number is longer than the " + n(maxNumberLength) + " characters the JSON reader accepts "
                    + "(write such values as JSON strings)";
        }
        if (m.startsWith("Document nesting depth") || m.contains("nesting depth")) {
            return "objects and arrays are nested deeper than the " + n(maxNestingDepth)
                    + " levels the JSON reader accepts";
        }
        if (m.startsWith("Name length") || m.startsWith("Name value length")) {
            return "a field name is longer than the " + n(maxNameLength) + " characters the JSON reader accepts";
        }
        int nl = m.indexOf('\n');
        return "the record is past a bound of the JSON reader: " + (nl < 0 ? m : m.substring(0, nl));
    }

    private static String n(int v) {
        return String.format(Locale.ROOT, "%,d", v);
    }
}
