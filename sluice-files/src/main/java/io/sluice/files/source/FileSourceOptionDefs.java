package io.sluice.files.source;

import io.sluice.api.OptionDef;
import io.sluice.api.OptionSet;

import java.util.List;

import static io.sluice.api.OptionDef.bool;
import static io.sluice.api.OptionDef.string;
import static io.sluice.files.source.FileSourceOptions.BACKFILL_INTERVAL;
import static io.sluice.files.source.FileSourceOptions.CLEAN_SOURCE;
import static io.sluice.files.source.FileSourceOptions.DEFAULT_BACKFILL_INTERVAL;
import static io.sluice.files.source.FileSourceOptions.DEFAULT_DISCARD_CACHED_INPUT_RATIO;
import static io.sluice.files.source.FileSourceOptions.DEFAULT_MAX_CACHED_FILES;
import static io.sluice.files.source.FileSourceOptions.DEFAULT_MAX_FILE_AGE;
import static io.sluice.files.source.FileSourceOptions.DISCARD_CACHED_INPUT_RATIO;
import static io.sluice.files.source.FileSourceOptions.FAIL_ON_FILE_CHANGE;
import static io.sluice.files.source.FileSourceOptions.FILE_NAME_ONLY;
import static io.sluice.files.source.FileSourceOptions.IGNORE_CORRUPT_FILES;
import static io.sluice.files.source.FileSourceOptions.IGNORE_MISSING_FILES;
import static io.sluice.files.source.FileSourceOptions.INFER_SCHEMA;
import static io.sluice.files.source.FileSourceOptions.LATEST_FIRST;
import static io.sluice.files.source.FileSourceOptions.MAX_BYTES_PER_TRIGGER;
import static io.sluice.files.source.FileSourceOptions.MAX_CACHED_FILES;
import static io.sluice.files.source.FileSourceOptions.MAX_FILES_PER_TRIGGER;
import static io.sluice.files.source.FileSourceOptions.MAX_FILE_AGE;
import static io.sluice.files.source.FileSourceOptions.PATH;
import static io.sluice.files.source.FileSourceOptions.PATH_GLOB_FILTER;
import static io.sluice.files.source.FileSourceOptions.QUEUE_URL;
import static io.sluice.files.source.FileSourceOptions.RECURSIVE_FILE_LOOKUP;
import static io.sluice.files.source.FileSourceOptions.SOURCE_ARCHIVE_DIR;
import static io.sluice.files.source.FileSourceOptions.USE_INCREMENTAL_LISTING;
import static io.sluice.files.source.FileSourceOptions.USE_NOTIFICATIONS;

/**
 * The file source's own options, declared once for the engine's name checks and the docs (docs/sources/file.md);
 * {@link FileSourceOptions#parse} checks the values with Spark's messages. The format's reading options are added
 * by {@link FileSourceProvider#options()}.
 */
final class FileSourceOptionDefs {
    static final OptionSet SOURCE = OptionSet.of(
            string(PATH, "the directory, file or glob to read").asRequired(),
            OptionDef.of(MAX_FILES_PER_TRIGGER, OptionDef.Type.INT, "the most new files a batch takes"),
            OptionDef.of(MAX_BYTES_PER_TRIGGER, OptionDef.Type.LONG, "the most new bytes a batch takes"),
            bool(LATEST_FIRST, false, "take the newest files first"),
            OptionDef.of(MAX_FILE_AGE, OptionDef.Type.DURATION, "files older than the newest by more are skipped")
                    .withDefault(DEFAULT_MAX_FILE_AGE),
            bool(FILE_NAME_ONLY, false, "a file is known by its name alone"),
            OptionDef.integer(MAX_CACHED_FILES, DEFAULT_MAX_CACHED_FILES, "files listed and kept for later batches"),
            OptionDef.of(DISCARD_CACHED_INPUT_RATIO, OptionDef.Type.DOUBLE, "the cache share below which it is "
                    + "discarded").withDefault(Float.toString(DEFAULT_DISCARD_CACHED_INPUT_RATIO)),
            OptionDef.oneOf(CLEAN_SOURCE, "off", List.of("archive", "delete", "off"),
                    "what happens to a file once its batch committed"),
            string(SOURCE_ARCHIVE_DIR, "where cleanSource=archive moves files"),
            string("modifiedBefore", "refused in a stream").withDefaultText("-"),
            string("modifiedAfter", "refused in a stream").withDefaultText("-"),
            bool(INFER_SCHEMA, false, "infer the schema from the files present at start"),
            bool(FAIL_ON_FILE_CHANGE, false, "fail when a file changes after it was read"),
            string(PATH_GLOB_FILTER, "only files whose name matches this glob are read").withDefaultText("none"),
            bool(RECURSIVE_FILE_LOOKUP, false, "read every subfolder, with partition inference off"),
            bool(IGNORE_CORRUPT_FILES, false, "skip the rest of a file that cannot be read"),
            bool(IGNORE_MISSING_FILES, false, "skip a logged file that is gone when read"),
            bool(USE_INCREMENTAL_LISTING, false, "object stores: list from the last key seen (StartAfter), with "
                    + "a full listing every backfillInterval"),
            bool(USE_NOTIFICATIONS, false, "object stores: find new objects from S3 event notifications in an "
                    + "SQS queue, with a full listing at start and every backfillInterval"),
            string(QUEUE_URL, "the SQS queue of useNotifications").withDefaultText("none"),
            OptionDef.of(BACKFILL_INTERVAL, OptionDef.Type.DURATION, "time between two full listings of "
                    + "useIncrementalListing and useNotifications").withDefault(DEFAULT_BACKFILL_INTERVAL));

    private FileSourceOptionDefs() {
    }
}
