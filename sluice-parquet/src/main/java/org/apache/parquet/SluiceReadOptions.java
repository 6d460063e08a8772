package org.apache.parquet;

import org.apache.parquet.bytes.HeapByteBufferAllocator;
import org.apache.parquet.compression.CompressionCodecFactory;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.filter2.compat.FilterCompat;
import org.apache.parquet.format.converter.ParquetMetadataConverter;

import java.util.Map;

/**
 * Sluice's way to {@link ParquetReadOptions} without Hadoop. parquet-java's {@code ParquetReadOptions.Builder}
 * always loads Hadoop classes (its constructor asks {@code ParquetInputFormat} for a filter and
 * {@code HadoopCodecs} for a codec factory), and the options' own constructor is package-private: hence this one
 * class in parquet's package (a split package on the class path, which is where Sluice runs). Not public API.
 */
public final class SluiceReadOptions {
    /** parquet-java's default {@code parquet.read.allocation.size}. */
    private static final int MAX_ALLOCATION = 8 * 1024 * 1024;

    private SluiceReadOptions() {
    }

    /** parquet-java's default read options, with this codec factory and no Hadoop. */
    public static ParquetReadOptions of(CompressionCodecFactory codecs) {
        return new ParquetReadOptions(false, true, true, true, true, false, true, false, false, FilterCompat.NOOP,
                ParquetMetadataConverter.NO_FILTER, codecs, new HeapByteBufferAllocator(), MAX_ALLOCATION, Map.of(),
                null, null, new PlainParquetConfiguration());
    }
}
