package io.sluice.files.source;

import io.sluice.files.fs.FileStorage;

/**
 * The {@code json} file source: reads JSON lines files (one JSON object per line; whole-file JSON with the
 * format's multiLine option) from a directory or glob as they appear, with Spark's
 * FileStreamSource options, defaults, messages and checkpoint layout (docs/sources/file.md). Found through
 * {@code META-INF/services/io.sluice.api.source.SourceProvider}; stateless and thread-safe.
 */
public final class JsonFileSourceProvider extends FileSourceProvider {

    public JsonFileSourceProvider() {
        super("json", Formats.DEFAULT, FileStorage.local());
    }
}
