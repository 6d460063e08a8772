package io.sluice.files.sink;

import io.sluice.api.Durations;
import io.sluice.api.InvalidOptionException;
import io.sluice.api.Options;
import io.sluice.files.format.FileFormat;
import io.sluice.values.DateTimePatterns;
import io.sluice.values.DateTimeWriter;
import io.sluice.values.SparkTimestamps;
import io.sluice.api.io.LocalPaths;
import io.sluice.api.io.Storages;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The file sink's options, parsed and checked once. Every bad value fails here, in {@code validate} or
 * {@code createSink}, before the query starts. Unknown options are ignored, as Spark ignores them.
 */
final class FileSinkOptions {
    static final String DEFAULT_DATE_FORMAT = DateTimeWriter.DEFAULT_DATE_FORMAT;
    /** Spark 3+/4 write default: the optional sections print whenever the value has them. */
    static final String DEFAULT_TIMESTAMP_FORMAT = DateTimeWriter.DEFAULT_TIMESTAMP_FORMAT;
    static final int DEFAULT_COMPACT_INTERVAL = 10;
    static final long DEFAULT_CLEANUP_DELAY_MS = 10 * 60_000L;
    static final int DEFAULT_MIN_BATCHES_TO_RETAIN = 100;

    final FileFormat format;
    /** The format's file sink side. */
    final FileFormat.Writing writing;
    /** The path as the user gave it (for the sink's description, as Spark's {@code FileSink[path]}). */
    final String pathOption;
    /** The local output folder; null when {@code path} is on an object store ({@link #outputUri}). */
    final Path outputDir;
    /** The output folder's URI when it is on an object store (no trailing '/'); null for a local one. */
    final String outputUri;
    final List<String> partitionBy;
    final boolean gzip;
    /** Long.MAX_VALUE when no retention is set. */
    final long retentionMs;
    final int compactInterval;
    final long cleanupDelayMs;
    final int minBatchesToRetain;
    final ZoneId zone;
    final String dateFormat;
    final String timestampFormat;
    final String lineSep;
    final boolean ignoreNullFields;
    /** The options as given, for the format's encoder's own settings ({@link #csvSettings}). */
    final Options raw;

    /** CSV writing settings, Spark's defaults (which are univocity's writer settings as Spark sets them). */
    record Csv(boolean header, char sep, char quote, char escape, char escapeEscape, boolean quoteAll,
               boolean escapeQuotes, String nullValue, String emptyValue, boolean ignoreLeadingWhiteSpace,
               boolean ignoreTrailingWhiteSpace) {
    }

    private FileSinkOptions(FileFormat format, Options o, ZoneId sessionZone) {
        this.format = format;
        this.writing = format.writing().orElseThrow(() -> new IllegalArgumentException("The file sink cannot "
                + "write format " + format.name()));
        this.pathOption = o.get("path").filter(p -> !p.isBlank()).orElseThrow(() ->
                new InvalidOptionException("path", null, "'path' is not specified", true));
        if (Storages.isLocal(pathOption)) {
            this.outputDir = toPath(pathOption);
            this.outputUri = null;
        } else {
            // Refused here, before the query starts, when no module on the class path serves the scheme.
            Storages.check("path", pathOption, Thread.currentThread().getContextClassLoader());
            this.outputDir = null;
            this.outputUri = pathOption.endsWith("/") ? pathOption.substring(0, pathOption.length() - 1)
                    : pathOption;
        }
        this.partitionBy = parsePartitionBy(o.get("partitionBy").orElse(""));
        String codec = writing.compressesItself() ? "none"
                : o.get("compression").or(() -> o.get("codec")).orElse("none").trim().toLowerCase(Locale.ROOT);
        switch (codec) {
            case "none", "uncompressed" -> this.gzip = false;
            case "gzip" -> this.gzip = true;
            default -> throw new InvalidOptionException(o.contains("compression") ? "compression" : "codec",
                    codec, "none, uncompressed or gzip is accepted");
        }
        this.retentionMs = o.get("retention").map(v -> Durations.timeStringAsMs("retention", v)).orElse(Long.MAX_VALUE);
        this.compactInterval = o.getInt("compactInterval", DEFAULT_COMPACT_INTERVAL);
        if (compactInterval < 1) {
            throw new InvalidOptionException("compactInterval", Integer.toString(compactInterval),
                    "a positive whole number is accepted");
        }
        this.cleanupDelayMs = o.get("cleanupDelay").map(v -> Durations.timeStringAsMs("cleanupDelay", v))
                .orElse(DEFAULT_CLEANUP_DELAY_MS);
        // Read by the engine too (and checked there); the manifest keeps at least this many batches' files.
        this.minBatchesToRetain = Math.max(1, o.getInt("minBatchesToRetain", DEFAULT_MIN_BATCHES_TO_RETAIN));
        this.zone = o.get("timeZone").map(FileSinkOptions::zone).orElse(sessionZone);
        this.dateFormat = o.get("dateFormat").map(p -> pattern("dateFormat", p)).orElse(DEFAULT_DATE_FORMAT);
        this.timestampFormat = o.get("timestampFormat").map(p -> pattern("timestampFormat", p))
                .orElse(DEFAULT_TIMESTAMP_FORMAT);
        this.lineSep = o.get("lineSep").map(FileSinkOptions::lineSep).orElse("\n");
        o.get("encoding").or(() -> o.get("charset")).ifPresent(FileSinkOptions::utf8Only);
        this.ignoreNullFields = o.getBoolean("ignoreNullFields", true);
        this.raw = o;
        // The format's encoder's own settings are checked here too, so that validate() refuses them.
        SinkEncoders.checkOptions(format, o);
    }

    /** The options as {@code validate} checks them (no timestamp is written: the zone default does not matter). */
    static FileSinkOptions parse(FileFormat format, Options options) {
        return parse(format, options, ZoneId.systemDefault());
    }

    /** The options of a sink writing in {@code sessionZone} when {@code timeZone} is not given, as Spark's sink. */
    static FileSinkOptions parse(FileFormat format, Options options, ZoneId sessionZone) {
        return new FileSinkOptions(format, options, sessionZone);
    }

    /** The CSV writer's settings ({@link CsvEncoders}), checked with Spark's messages. */
    static Csv csvSettings(Options o) {
        char sep = delimiter(o.get("sep").or(() -> o.get("delimiter")).orElse(","),
                o.contains("sep") ? "sep" : "delimiter");
        char quote = oneChar(o, "quote", '"');
        char escape = oneChar(o, "escape", '\\');
        // univocity's default: the escape character escapes itself inside quotes, unless it is the quote.
        char escapeEscape = o.get("charToEscapeQuoteEscaping").map(v -> {
            if (v.length() > 1) {
                throw new InvalidOptionException("charToEscapeQuoteEscaping", v,
                        "charToEscapeQuoteEscaping cannot be more than one character.", true);
            }
            return v.isEmpty() ? '\0' : v.charAt(0);
        }).orElse(quote == escape ? '\0' : escape);
        return new Csv(o.getBoolean("header", false), sep, quote, escape, escapeEscape,
                o.getBoolean("quoteAll", false), o.getBoolean("escapeQuotes", true), o.get("nullValue", ""),
                o.get("emptyValue", "\"\""), o.getBoolean("ignoreLeadingWhiteSpace", true),
                o.getBoolean("ignoreTrailingWhiteSpace", true));
    }

    /** Spark's getChar: empty means the NUL character (no quoting / no escaping). */
    private static char oneChar(Options o, String key, char defaultValue) {
        String v = o.get(key).orElse(null);
        if (v == null) {
            return defaultValue;
        }
        if (v.isEmpty()) {
            return '\0';
        }
        if (v.length() > 1) {
            throw new InvalidOptionException(key, v, key + " cannot be more than one character.", true);
        }
        return v.charAt(0);
    }

    /** One character, or an escape as Spark's CSVExprUtils.toChar reads it: {@code \t}, {@code \u0001}... */
    private static char delimiter(String v, String key) {
        if (v.length() == 1) {
            return v.charAt(0);
        }
        switch (v) {
            case "\\t" -> { return '\t'; }
            case "\\n" -> { return '\n'; }
            case "\\r" -> { return '\r'; }
            case "\\b" -> { return '\b'; }
            case "\\f" -> { return '\f'; }
            case "\\\"" -> { return '"'; }
            case "\\'" -> { return '\''; }
            case "\\\\" -> { return '\\'; }
            default -> { }
        }
        if (v.startsWith("\\u") && v.length() == 6) {
            try {
                return (char) Integer.parseInt(v.substring(2), 16);
            } catch (NumberFormatException e) {
                // fall through to the error
            }
        }
        if (v.isEmpty()) {
            throw new InvalidOptionException(key, v, "Delimiter cannot be empty string", true);
        }
        throw new InvalidOptionException(key, v,
                "one character is accepted, or an escape such as \\t or \\u0001");
    }

    private static List<String> parsePartitionBy(String v) {
        List<String> cols = new ArrayList<>();
        if (v.isBlank()) {
            return List.of();
        }
        for (String part : v.split(",", -1)) {
            String c = part.trim();
            if (c.isEmpty()) {
                throw new InvalidOptionException("partitionBy", v, "comma-separated column names are accepted");
            }
            cols.add(c);
        }
        return List.copyOf(cols);
    }

    private static Path toPath(String p) {
        return LocalPaths.of("path", p).normalize();
    }

    private static ZoneId zone(String v) {
        ZoneId z = SparkTimestamps.zoneId(v.trim()); // Spark's getZoneId, as the readers' timeZone
        if (z == null) {
            throw new InvalidOptionException("timeZone", v,
                    "a region ID such as 'America/Los_Angeles' or an offset such as '+01:00' is accepted");
        }
        return z;
    }

    private static String pattern(String key, String p) {
        try {
            DateTimePatterns.formatter(p, Locale.US, ZoneOffset.UTC);
            return p;
        } catch (IllegalArgumentException e) {
            throw new InvalidOptionException(key, p, "a datetime pattern is accepted (" + e.getMessage() + ")");
        }
    }

    private static String lineSep(String v) {
        if (v.isEmpty()) {
            throw new InvalidOptionException("lineSep", v, "requirement failed: 'lineSep' cannot be an empty string.",
                    true);
        }
        return v;
    }

    private static void utf8Only(String v) {
        Charset c;
        try {
            c = Charset.forName(v.trim());
        } catch (IllegalArgumentException e) {
            c = null;
        }
        if (!StandardCharsets.UTF_8.equals(c)) {
            throw new InvalidOptionException("encoding", v, "only UTF-8 is accepted");
        }
    }
}
