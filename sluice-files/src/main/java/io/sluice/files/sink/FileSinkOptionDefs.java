package io.sluice.files.sink;

import io.sluice.api.OptionDef;
import io.sluice.api.OptionSet;
import io.sluice.files.format.FileFormat;

import java.util.List;

import static io.sluice.api.OptionDef.string;

/**
 * The file sink's options, declared once per format for the engine's name checks and the docs
 * (docs/sinks/file.md): the sink's own here, each format's from its {@link FileFormat.Writing#options()};
 * {@link FileSinkOptions} checks the values. The engine's writer options
 * ({@code checkpointLocation}, {@code minBatchesToRetain}...) are the engine's declarations.
 */
final class FileSinkOptionDefs {
    /** The sink's own compression, for formats that do not compress inside their files. */
    private static final OptionSet COMPRESSION = OptionSet.of(
            OptionDef.oneOf("compression", "none", List.of("none", "uncompressed", "gzip"),
                    "the files' compression"),
            OptionDef.oneOf("codec", "none", List.of("none", "uncompressed", "gzip"), "alias of compression"));
    private static final OptionSet FIRST = OptionSet.of(
            string("path", "the output folder").asRequired(),
            string("partitionBy", "comma-separated partition columns"));
    private static final OptionSet ALL_FORMATS = OptionSet.of(
            OptionDef.of("retention", OptionDef.Type.DURATION, "how long manifest entries are kept"),
            OptionDef.integer("compactInterval", FileSinkOptions.DEFAULT_COMPACT_INTERVAL,
                    "every how many batches the manifest is compacted"),
            OptionDef.of("cleanupDelay", OptionDef.Type.DURATION, "how long old manifest files are kept")
                    .withDefault("10m"),
            string("timeZone", "how timestamps are written").withDefaultText("the session time zone"),
            string("timestampFormat", "the pattern timestamps are written with")
                    .withDefault(FileSinkOptions.DEFAULT_TIMESTAMP_FORMAT),
            string("dateFormat", "the pattern dates are written with").withDefault(FileSinkOptions.DEFAULT_DATE_FORMAT),
            string("lineSep", "written after each record").withDefault("\\n"),
            string("encoding", "the files' charset: UTF-8 only").withDefault("UTF-8"),
            string("charset", "alias of encoding").withDefault("UTF-8"));

    private FileSinkOptionDefs() {
    }

    /** The options of the sink of this format. */
    static OptionSet of(FileFormat format) {
        OptionSet own = format.writing().map(FileFormat.Writing::options).orElse(OptionSet.none());
        boolean compressesItself = format.writing().map(FileFormat.Writing::compressesItself).orElse(false);
        return (compressesItself ? FIRST : FIRST.and(COMPRESSION)).and(ALL_FORMATS).and(own);
    }
}
