package io.sluice.delta;

import io.sluice.api.InvalidOptionException;
import io.sluice.api.OptionDef;
import io.sluice.api.OptionSet;
import io.sluice.api.Options;

import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalLong;

import static io.sluice.api.OptionDef.bool;
import static io.sluice.api.OptionDef.string;

/**
 * The Delta source's options (delta-spark's DeltaOptions names), declared once, and their parsed values.
 *
 * @param startingVersion    empty, {@code -1} for {@code latest}, else the first version read
 * @param startingTimestampMs empty, or the instant of {@code startingTimestamp}
 */
record DeltaSourceOptions(String path, int maxFilesPerTrigger, OptionalLong maxBytesPerTrigger,
                          OptionalLong startingVersion, Optional<Instant> startingTimestamp, String startingTimestampText,
                          boolean ignoreDeletes, boolean ignoreChanges, boolean skipChangeCommits,
                          boolean failOnDataLoss) {

    static final String PATH = "path";
    static final String MAX_FILES_PER_TRIGGER = "maxFilesPerTrigger";
    static final String MAX_BYTES_PER_TRIGGER = "maxBytesPerTrigger";
    static final String STARTING_VERSION = "startingVersion";
    static final String STARTING_TIMESTAMP = "startingTimestamp";
    static final String IGNORE_DELETES = "ignoreDeletes";
    static final String IGNORE_CHANGES = "ignoreChanges";
    static final String SKIP_CHANGE_COMMITS = "skipChangeCommits";
    static final String FAIL_ON_DATA_LOSS = "failOnDataLoss";
    static final int DEFAULT_MAX_FILES = 1000;

    static final OptionSet DEFS = OptionSet.of(
            string(PATH, "the table's folder").asRequired(),
            OptionDef.integer(MAX_FILES_PER_TRIGGER, DEFAULT_MAX_FILES, "the most new files a batch takes")
                    .validatedBy(DeltaSourceOptions::positiveInt),
            string(MAX_BYTES_PER_TRIGGER, "the most new bytes a batch takes (soft: a file that crosses it is taken)")
                    .validatedBy((n, v) -> bytes(n, v)),
            string(STARTING_VERSION, "the first version read (`latest`: only commits after start); no snapshot")
                    .validatedBy((n, v) -> version(v)),
            string(STARTING_TIMESTAMP, "read from the first commit at or after this time; no snapshot")
                    .validatedBy((n, v) -> timestamp(v, ZoneId.of("UTC"))),
            bool(IGNORE_DELETES, false, "pass commits that only remove data"),
            bool(IGNORE_CHANGES, false, "pass commits that remove data, re-reading the files they add"),
            bool(SKIP_CHANGE_COMMITS, false, "skip every commit that removes data, with its added files"),
            bool(FAIL_ON_DATA_LOSS, true, "fail when log files the stream needs are gone"))
            // fs.s3a.* (and spark.hadoop.fs.s3a.*) configure the object store of an s3a:// table, which declares
            // and checks them.
            .withPrefixes("fs.", "spark.hadoop.");

    static DeltaSourceOptions parse(Options o, ZoneId zone) {
        DEFS.validate(o);
        String path = DEFS.require(o, PATH);
        OptionalLong sv = o.get(STARTING_VERSION).map(v -> OptionalLong.of(version(v))).orElse(OptionalLong.empty());
        Optional<String> ts = o.get(STARTING_TIMESTAMP);
        if (sv.isPresent() && ts.isPresent()) {
            throw new InvalidOptionException(STARTING_TIMESTAMP, ts.get(),
                    "[DELTA_STARTING_VERSION_AND_TIMESTAMP_BOTH_SET] Please either provide 'startingVersion' or "
                            + "'startingTimestamp'", true);
        }
        OptionalLong maxBytes = o.get(MAX_BYTES_PER_TRIGGER).map(v -> OptionalLong.of(bytes(MAX_BYTES_PER_TRIGGER, v)))
                .orElse(OptionalLong.empty());
        return new DeltaSourceOptions(path, DEFS.getInt(o, MAX_FILES_PER_TRIGGER), maxBytes, sv,
                ts.map(t -> timestamp(t, zone)), ts.orElse(null), DEFS.getBoolean(o, IGNORE_DELETES),
                DEFS.getBoolean(o, IGNORE_CHANGES), DEFS.getBoolean(o, SKIP_CHANGE_COMMITS),
                DEFS.getBoolean(o, FAIL_ON_DATA_LOSS));
    }

    private static void positiveInt(String name, String value) {
        int v;
        try {
            v = Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            v = 0;
        }
        if (v <= 0) {
            throw new InvalidOptionException(name, value, "Invalid value '" + value + "' for option '" + name
                    + "', must be a positive integer", true);
        }
    }

    /** -1 for {@code latest}, else a version ≥ 0, with delta-spark's message. */
    static long version(String v) {
        String t = v.trim();
        if (t.equalsIgnoreCase("latest")) {
            return -1;
        }
        try {
            long n = Long.parseLong(t);
            if (n >= 0) {
                return n;
            }
        } catch (NumberFormatException e) {
            // below
        }
        throw new InvalidOptionException(STARTING_VERSION, v, "Invalid value '" + v + "' for option '"
                + STARTING_VERSION + "', must be greater than or equal to 0, or 'latest' for the latest version", true);
    }

    /** A date ({@code 2026-01-01}), a local date-time in the session zone, or an ISO instant. */
    static Instant timestamp(String v, ZoneId zone) {
        String t = v.trim();
        try {
            if (t.endsWith("Z") || t.matches(".*[+-]\\d\\d:\\d\\d$")) {
                return java.time.OffsetDateTime.parse(t.replace(' ', 'T')).toInstant();
            }
            if (t.length() == 10) {
                return LocalDate.parse(t).atStartOfDay(zone).toInstant();
            }
            return LocalDateTime.parse(t.replace(' ', 'T')).atZone(zone).toInstant();
        } catch (DateTimeParseException e) {
            throw new InvalidOptionException(STARTING_TIMESTAMP, v, "The provided timestamp: " + v
                    + " cannot be converted to a valid timestamp (a date such as 2026-01-01, a date-time such as "
                    + "2026-01-01 12:00:00, or an ISO instant is accepted)", true);
        }
    }

    /** Spark's byte strings: a number with an optional b, k, m, g, t or p suffix (kb, mb... too). */
    static long bytes(String name, String value) {
        String t = value.trim().toLowerCase(Locale.ROOT);
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("(\\d+)([a-z]*)").matcher(t);
        long mult = -1;
        if (m.matches()) {
            mult = switch (m.group(2)) {
                case "", "b" -> 1L;
                case "k", "kb" -> 1L << 10;
                case "m", "mb" -> 1L << 20;
                case "g", "gb" -> 1L << 30;
                case "t", "tb" -> 1L << 40;
                case "p", "pb" -> 1L << 50;
                default -> -1L;
            };
        }
        long n = 0;
        if (mult > 0) {
            try {
                n = Math.multiplyExact(Long.parseLong(m.group(1)), mult);
            } catch (ArithmeticException | NumberFormatException e) {
                n = 0;
            }
        }
        if (n <= 0) {
            throw new InvalidOptionException(name, value, "Invalid value '" + value + "' for option '" + name
                    + "', must be a size configuration such as '10g' (a positive number of bytes, with an optional "
                    + "b, k, m, g, t or p suffix)", true);
        }
        return n;
    }
}
