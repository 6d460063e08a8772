package io.sluice.files.source;

import io.sluice.files.fs.FileStorage;

/**
 * The {@code text} file source: reads text files, one row per line in the single column {@code value string}
 * (plus any partition columns) from a directory or glob as they appear, with Spark's
 * FileStreamSource options, defaults, messages and checkpoint layout (docs/sources/file.md). Found through
 * {@code META-INF/services/io.sluice.api.source.SourceProvider}; stateless and thread-safe.
 */
public final class TextFileSourceProvider extends FileSourceProvider {

    public TextFileSourceProvider() {
        super("text", Formats.DEFAULT, FileStorage.local());
    }
}
