package io.sluice.files.source;

import io.sluice.files.fs.FileStorage;

/**
 * The {@code csv} file source: reads CSV files from a directory or glob as they appear, with Spark's
 * FileStreamSource options, defaults, messages and checkpoint layout (docs/sources/file.md). Found through
 * {@code META-INF/services/io.sluice.api.source.SourceProvider}; stateless and thread-safe.
 */
public final class CsvFileSourceProvider extends FileSourceProvider {

    public CsvFileSourceProvider() {
        super("csv", Formats.DEFAULT, FileStorage.local());
    }
}
