package io.sluice.parquet;

import io.sluice.api.InvalidOptionException;
import io.sluice.api.OptionDef;
import io.sluice.api.OptionSet;
import io.sluice.api.Options;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The Parquet sink's options (docs/formats/parquet.md), declared and checked with Spark's names, defaults and
 * messages: {@code compression} (or {@code parquet.compression}; snappy), {@code parquet.block.size} (the row
 * group size, 128 MiB), {@code parquet.page.size} (1 MiB), {@code parquet.enable.dictionary} (true) and
 * {@code spark.sql.parquet.outputTimestampType} (INT96); the open files' memory budget
 * {@code parquet.memory.pool.ratio} (0.3 of the heap) and {@code parquet.memory.min.chunk.size} (256 KiB)
 * ({@link ParquetMemory}).
 */
record ParquetSinkSettings(CompressionCodecName codec, long blockSize, int pageSize, boolean dictionary,
                           ParquetSchemas.TimestampOutput timestamps, double poolRatio, long minChunk) {
    static final String COMPRESSION = "compression";
    static final String PARQUET_COMPRESSION = "parquet.compression";
    static final String BLOCK_SIZE = "parquet.block.size";
    static final String PAGE_SIZE = "parquet.page.size";
    static final String DICTIONARY = "parquet.enable.dictionary";
    static final String TIMESTAMP_TYPE = "spark.sql.parquet.outputTimestampType";
    static final String POOL_RATIO = "parquet.memory.pool.ratio";
    static final String MIN_CHUNK = "parquet.memory.min.chunk.size";
    /** Lower than parquet-java's 0.95: its pool counts the encoded bytes only, not the rows and dictionaries. */
    static final double DEFAULT_POOL_RATIO = 0.3;
    static final long DEFAULT_MIN_CHUNK = 256 * 1024;
    static final long DEFAULT_BLOCK_SIZE = 128L * 1024 * 1024;
    static final int DEFAULT_PAGE_SIZE = 1024 * 1024;
    /** Spark's short names, in Spark's order; lzo and brotli are Spark's too but have no codec here. */
    private static final Map<String, CompressionCodecName> CODECS = Map.of("none", CompressionCodecName.UNCOMPRESSED,
            "uncompressed", CompressionCodecName.UNCOMPRESSED, "snappy", CompressionCodecName.SNAPPY,
            "gzip", CompressionCodecName.GZIP, "lz4", CompressionCodecName.LZ4,
            "lz4_raw", CompressionCodecName.LZ4_RAW, "zstd", CompressionCodecName.ZSTD);
    private static final List<String> CODEC_NAMES = List.of("none", "uncompressed", "snappy", "gzip", "lz4",
            "lz4_raw", "zstd");

    static final OptionSet OPTIONS = OptionSet.of(
            OptionDef.oneOf(COMPRESSION, "snappy", CODEC_NAMES, "the codec of the files' pages"),
            OptionDef.oneOf(PARQUET_COMPRESSION, "snappy", CODEC_NAMES, "the codec, when compression is not set"),
            OptionDef.longValue(BLOCK_SIZE, DEFAULT_BLOCK_SIZE, "the row group size in bytes"),
            OptionDef.integer(PAGE_SIZE, DEFAULT_PAGE_SIZE, "the page size in bytes"),
            OptionDef.bool(DICTIONARY, true, "dictionary encoding"),
            OptionDef.oneOf(TIMESTAMP_TYPE, "INT96", List.of("INT96", "TIMESTAMP_MICROS", "TIMESTAMP_MILLIS"),
                    "how timestamps are written"),
            OptionDef.of(POOL_RATIO, OptionDef.Type.DOUBLE, "the share of the heap the open files' row groups may "
                    + "buffer").withDefault(Double.toString(DEFAULT_POOL_RATIO)),
            OptionDef.longValue(MIN_CHUNK, DEFAULT_MIN_CHUNK, "the smallest row group an open file is cut to"));

    static ParquetSinkSettings of(Options o) {
        String key = o.contains(COMPRESSION) ? COMPRESSION : PARQUET_COMPRESSION;
        String name = o.get(key).orElse("snappy").trim().toLowerCase(Locale.ROOT);
        CompressionCodecName codec = CODECS.get(name);
        if (codec == null) {
            throw new InvalidOptionException(key, name, "[CODEC_NOT_AVAILABLE.WITH_AVAILABLE_CODECS_SUGGESTION] "
                    + "The codec " + name + " is not available. Available codecs are "
                    + String.join(", ", CODEC_NAMES) + ". SQLSTATE: 56038", true);
        }
        long block = o.getLong(BLOCK_SIZE, DEFAULT_BLOCK_SIZE);
        if (block <= 0) {
            throw new InvalidOptionException(BLOCK_SIZE, Long.toString(block), "a positive size in bytes is accepted");
        }
        int page = o.getInt(PAGE_SIZE, DEFAULT_PAGE_SIZE);
        if (page <= 0) {
            throw new InvalidOptionException(PAGE_SIZE, Integer.toString(page), "a positive size in bytes is accepted");
        }
        String ts = o.get(TIMESTAMP_TYPE).orElse("INT96").trim().toUpperCase(Locale.ROOT);
        ParquetSchemas.TimestampOutput out;
        try {
            out = ParquetSchemas.TimestampOutput.valueOf(ts);
        } catch (IllegalArgumentException e) {
            throw new InvalidOptionException(TIMESTAMP_TYPE, ts, "INT96, TIMESTAMP_MICROS or TIMESTAMP_MILLIS is "
                    + "accepted");
        }
        String ratioText = o.get(POOL_RATIO).orElse(Double.toString(DEFAULT_POOL_RATIO)).trim();
        double ratio;
        try {
            ratio = Double.parseDouble(ratioText);
        } catch (NumberFormatException e) {
            ratio = Double.NaN;
        }
        if (!(ratio > 0 && ratio <= 1)) {
            throw new InvalidOptionException(POOL_RATIO, ratioText, "a fraction of the heap above 0 and at most 1 "
                    + "is accepted");
        }
        long minChunk = o.getLong(MIN_CHUNK, DEFAULT_MIN_CHUNK);
        if (minChunk <= 0) {
            throw new InvalidOptionException(MIN_CHUNK, Long.toString(minChunk), "a positive size in bytes is "
                    + "accepted");
        }
        return new ParquetSinkSettings(codec, block, page, o.getBoolean(DICTIONARY, true), out, ratio, minChunk);
    }

    /** Spark's file name part of the codec: {@code .snappy}, {@code .zstd}, none for uncompressed. */
    String extension() {
        return codec.getExtension() + ".parquet";
    }
}
