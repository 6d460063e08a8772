package io.sluice.files.source;

import io.sluice.api.Durations;
import io.sluice.api.InvalidOptionException;
import io.sluice.api.Options;
import io.sluice.api.io.LocalPaths;

import java.util.Locale;
import java.util.Optional;

/**
 * The file source's own options, parsed and checked with Spark's {@code FileStreamOptions} defaults and messages.
 * Format options (mode, sep...) are the format's business ({@code FileFormats.validate}).
 */
record FileSourceOptions(
        String path,
        Optional<Integer> maxFilesPerTrigger,
        Optional<Long> maxBytesPerTrigger,
        boolean latestFirst,
        long maxFileAgeMs,
        boolean fileNameOnly,
        int maxCachedFiles,
        float discardCachedInputRatio,
        CleanSource cleanSource,
        Optional<String> sourceArchiveDir,
        boolean inferSchema,
        boolean failOnFileChange,
        Optional<String> pathGlobFilter,
        boolean recursiveFileLookup,
        boolean ignoreCorruptFiles,
        boolean ignoreMissingFiles,
        boolean useIncrementalListing,
        boolean useNotifications,
        Optional<String> queueUrl,
        long backfillIntervalMs) {

    static final String PATH = "path";
    static final String MAX_FILES_PER_TRIGGER = "maxFilesPerTrigger";
    static final String MAX_BYTES_PER_TRIGGER = "maxBytesPerTrigger";
    static final String LATEST_FIRST = "latestFirst";
    static final String MAX_FILE_AGE = "maxFileAge";
    static final String FILE_NAME_ONLY = "fileNameOnly";
    static final String MAX_CACHED_FILES = "maxCachedFiles";
    static final String DISCARD_CACHED_INPUT_RATIO = "discardCachedInputRatio";
    static final String CLEAN_SOURCE = "cleanSource";
    static final String SOURCE_ARCHIVE_DIR = "sourceArchiveDir";
    static final String INFER_SCHEMA = "inferSchema";
    static final String FAIL_ON_FILE_CHANGE = "failOnFileChange";
    static final String PATH_GLOB_FILTER = "pathGlobFilter";
    static final String RECURSIVE_FILE_LOOKUP = "recursiveFileLookup";
    static final String IGNORE_CORRUPT_FILES = "ignoreCorruptFiles";
    static final String IGNORE_MISSING_FILES = "ignoreMissingFiles";
    static final String USE_INCREMENTAL_LISTING = "useIncrementalListing";
    static final String USE_NOTIFICATIONS = "useNotifications";
    static final String QUEUE_URL = "queueUrl";
    static final String BACKFILL_INTERVAL = "backfillInterval";

    static final String DEFAULT_MAX_FILE_AGE = "7d";
    static final int DEFAULT_MAX_CACHED_FILES = 10_000;
    static final float DEFAULT_DISCARD_CACHED_INPUT_RATIO = 0.2f;
    static final String DEFAULT_BACKFILL_INTERVAL = "1h";

    /** What happens to a file once the batch that read it has committed. */
    enum CleanSource {
        ARCHIVE, DELETE, OFF
    }

    /** Parses and checks every option, in Spark's order, so the first problem reported is Spark's first. */
    static FileSourceOptions parse(Options o) {
        for (String refused : new String[]{"modifiedBefore", "modifiedAfter"}) {
            if (o.contains(refused)) {
                throw new InvalidOptionException(refused, o.get(refused).orElse(null),
                        "option '" + refused + "' is not allowed in file stream sources: a stream keeps finding "
                                + "files that appear after it started, so a fixed modification-time window would "
                                + "drop them silently; use maxFileAge to skip old files", true);
            }
        }
        Optional<Integer> maxFiles = o.get(MAX_FILES_PER_TRIGGER).map(s -> {
            Integer v = parseIntOrNull(s);
            if (v == null || v <= 0) {
                throw new InvalidOptionException(MAX_FILES_PER_TRIGGER, s, "Invalid value '" + s
                        + "' for option 'maxFilesPerTrigger', must be a positive integer", true);
            }
            return v;
        });
        Optional<Long> maxBytes = o.get(MAX_BYTES_PER_TRIGGER).map(s -> {
            Long v = parseLongOrNull(s);
            if (v == null || v <= 0) {
                throw new InvalidOptionException(MAX_BYTES_PER_TRIGGER, s, "Invalid value '" + s
                        + "' for option 'maxBytesPerTrigger', must be a positive integer", true);
            }
            if (maxFiles.isPresent()) {
                throw new InvalidOptionException(MAX_BYTES_PER_TRIGGER, s, "Options 'maxFilesPerTrigger' and "
                        + "'maxBytesPerTrigger' can't be both set at the same time", true);
            }
            return v;
        });
        String ageText = o.get(MAX_FILE_AGE, DEFAULT_MAX_FILE_AGE);
        long maxFileAgeMs = Durations.timeStringAsMs(MAX_FILE_AGE, ageText);
        boolean latestFirst = bool(o, LATEST_FIRST);
        boolean fileNameOnly = bool(o, FILE_NAME_ONLY);
        Optional<String> archiveDir = o.get(SOURCE_ARCHIVE_DIR);
        // Checked even when cleanSource is off: a scheme no module serves is a mistake either way.
        archiveDir.ifPresent(d -> io.sluice.api.io.Storages.check(SOURCE_ARCHIVE_DIR, d,
                Thread.currentThread().getContextClassLoader()));
        CleanSource clean = o.get(CLEAN_SOURCE).map(v -> {
            for (CleanSource c : CleanSource.values()) {
                if (c.name().equals(v.toUpperCase(Locale.ROOT))) {
                    return c;
                }
            }
            throw new InvalidOptionException(CLEAN_SOURCE, v, "Invalid mode for clean source option " + v
                    + ". Must be one of ARCHIVE,DELETE,OFF", true);
        }).orElse(CleanSource.OFF);
        if (clean == CleanSource.ARCHIVE && archiveDir.isEmpty()) {
            throw new InvalidOptionException(SOURCE_ARCHIVE_DIR, null,
                    "Archive mode must be used with 'sourceArchiveDir' option.", true);
        }
        int maxCached = o.get(MAX_CACHED_FILES).map(s -> {
            Integer v = parseIntOrNull(s);
            if (v == null || v < 0) {
                throw new InvalidOptionException(MAX_CACHED_FILES, s, "Invalid value '" + s
                        + "' for option 'maxCachedFiles', must be an integer greater than or equal to 0", true);
            }
            return v;
        }).orElse(DEFAULT_MAX_CACHED_FILES);
        float ratio = o.get(DISCARD_CACHED_INPUT_RATIO).map(s -> {
            float v;
            try {
                v = Float.parseFloat(s);
            } catch (NumberFormatException e) {
                v = Float.NaN;
            }
            if (!(v >= 0 && v <= 1)) {
                throw new InvalidOptionException(DISCARD_CACHED_INPUT_RATIO, s, "Invalid value '" + s
                        + "' for option 'discardCachedInputRatio', must be a positive float between 0 and 1", true);
            }
            return v;
        }).orElse(DEFAULT_DISCARD_CACHED_INPUT_RATIO);
        boolean infer = bool(o, INFER_SCHEMA);
        boolean failOnChange = bool(o, FAIL_ON_FILE_CHANGE);
        Optional<String> globFilter = o.get(PATH_GLOB_FILTER);
        globFilter.ifPresent(g -> SourcePath.nameFilter(PATH_GLOB_FILTER, g));
        boolean recursive = bool(o, RECURSIVE_FILE_LOOKUP);
        String path = o.get(PATH).orElseThrow(
                () -> new InvalidOptionException(PATH, null, "'path' is not specified", true));
        boolean incremental = bool(o, USE_INCREMENTAL_LISTING);
        boolean notifications = bool(o, USE_NOTIFICATIONS);
        Optional<String> queueUrl = o.get(QUEUE_URL).map(String::trim);
        if (notifications && queueUrl.filter(q -> !q.isEmpty()).isEmpty()) {
            throw new InvalidOptionException(QUEUE_URL, queueUrl.orElse(null), "Option 'queueUrl' is missing: "
                    + "useNotifications=true reads S3 event notifications from an SQS queue; give its URL, such as "
                    + "https://sqs.us-east-1.amazonaws.com/123456789012/landing-events", true);
        }
        queueUrl.filter(q -> !q.isEmpty()).ifPresent(q -> {
            java.net.URI u;
            try {
                u = new java.net.URI(q);
            } catch (java.net.URISyntaxException e) {
                u = null;
            }
            if (u == null || u.getHost() == null || u.getScheme() == null
                    || !(u.getScheme().equalsIgnoreCase("https") || u.getScheme().equalsIgnoreCase("http"))) {
                throw new InvalidOptionException(QUEUE_URL, q, "an SQS queue URL such as "
                        + "https://sqs.us-east-1.amazonaws.com/123456789012/landing-events");
            }
        });
                if (notifications && incremental) {
            throw new InvalidOptionException(USE_INCREMENTAL_LISTING, "true", "Options 'useIncrementalListing' "
                    + "and 'useNotifications' can't be both true: with notifications the source lists only at start "
                    + "and every backfillInterval; set one of them", true);
        }
        String backfillText = o.get(BACKFILL_INTERVAL, DEFAULT_BACKFILL_INTERVAL);
        long backfillMs = Durations.timeStringAsMs(BACKFILL_INTERVAL, backfillText);
        if (backfillMs <= 0) {
            throw new InvalidOptionException(BACKFILL_INTERVAL, backfillText, "a positive duration such as 30m, "
                    + "1h or 1d is accepted (the time between two full listings)");
        }
        return new FileSourceOptions(path, maxFiles, maxBytes, latestFirst, maxFileAgeMs, fileNameOnly, maxCached,
                ratio, clean, archiveDir, infer, failOnChange, globFilter, recursive, bool(o, IGNORE_CORRUPT_FILES),
                bool(o, IGNORE_MISSING_FILES), incremental, notifications, queueUrl, backfillMs);
    }

    /**
     * The age limit actually applied: infinite when latestFirst is combined with a per-trigger cap, as in Spark
     * (SPARK-19813: the cap would otherwise push older, valid files out of the window before they are read).
     */
    long effectiveMaxFileAgeMs() {
        return latestFirst && (maxFilesPerTrigger.isPresent() || maxBytesPerTrigger.isPresent())
                ? Long.MAX_VALUE : maxFileAgeMs;
    }

    private static boolean bool(Options o, String key) {
        return o.get(key).map(s -> {
            if (s.equalsIgnoreCase("true")) {
                return true;
            }
            if (s.equalsIgnoreCase("false")) {
                return false;
            }
            throw new InvalidOptionException(key, s, "Invalid value '" + s + "' for option '" + key
                    + "', must be 'true' or 'false'", true);
        }).orElse(false);
    }

    private static Integer parseIntOrNull(String s) {
        try {
            return Integer.parseInt(s);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static Long parseLongOrNull(String s) {
        try {
            return Long.parseLong(s);
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
