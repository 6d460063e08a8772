package io.sluice.parquet;

import com.github.luben.zstd.Zstd;
import io.airlift.compress.lz4.Lz4Compressor;
import io.airlift.compress.lz4.Lz4Decompressor;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.compression.CompressionCodecFactory;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.xerial.snappy.Snappy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;

/**
 * Parquet's page codecs without Hadoop: parquet-java's own {@code CodecFactory} goes through Hadoop's
 * {@code CompressionCodec} classes, so Sluice hands the reader and writer this factory instead. snappy
 * (snappy-java), zstd (zstd-jni, level 3 as parquet-java's default), gzip (the JDK), lz4_raw (aircompressor) and
 * lz4 (Hadoop's framing of LZ4 blocks, which Spark writes for {@code lz4}). lzo and brotli have no codec here.
 * Stateless and thread-safe.
 */
final class ParquetCodecs implements CompressionCodecFactory {
    static final ParquetCodecs INSTANCE = new ParquetCodecs();
    private static final int ZSTD_LEVEL = 3;
    /** Hadoop's Lz4Codec default buffer: the uncompressed size of one frame. */
    private static final int HADOOP_LZ4_BLOCK = 256 * 1024;

    private ParquetCodecs() {
    }

    static boolean supports(CompressionCodecName codec) {
        return switch (codec) {
            case UNCOMPRESSED, SNAPPY, GZIP, ZSTD, LZ4, LZ4_RAW -> true;
            default -> false;
        };
    }

    @Override
    public BytesInputCompressor getCompressor(CompressionCodecName codec) {
        return new BytesInputCompressor() {
            @Override
            public BytesInput compress(BytesInput bytes) throws IOException {
                return codec == CompressionCodecName.UNCOMPRESSED ? bytes
                        : BytesInput.from(ParquetCodecs.compress(codec, bytes.toByteArray()));
            }

            @Override
            public CompressionCodecName getCodecName() {
                return codec;
            }

            @Override
            public void release() {
            }
        };
    }

    @Override
    public BytesInputDecompressor getDecompressor(CompressionCodecName codec) {
        return new BytesInputDecompressor() {
            @Override
            public BytesInput decompress(BytesInput bytes, int uncompressedSize) throws IOException {
                return codec == CompressionCodecName.UNCOMPRESSED ? bytes
                        : BytesInput.from(ParquetCodecs.decompress(codec, bytes.toByteArray(), uncompressedSize));
            }

            @Override
            public void decompress(ByteBuffer input, int compressedSize, ByteBuffer output, int uncompressedSize)
                    throws IOException {
                byte[] in = new byte[compressedSize];
                input.get(in);
                output.put(codec == CompressionCodecName.UNCOMPRESSED ? in
                        : ParquetCodecs.decompress(codec, in, uncompressedSize));
            }

            @Override
            public void release() {
            }
        };
    }

    @Override
    public void release() {
    }

    static byte[] compress(CompressionCodecName codec, byte[] in) throws IOException {
        switch (codec) {
            case SNAPPY:
                return Snappy.compress(in);
            case ZSTD:
                return Zstd.compress(in, ZSTD_LEVEL);
            case GZIP: {
                ByteArrayOutputStream out = new ByteArrayOutputStream(in.length / 2 + 64);
                try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
                    gz.write(in);
                }
                return out.toByteArray();
            }
            case LZ4_RAW:
                return lz4(in, 0, in.length);
            case LZ4:
                return hadoopLz4(in);
            default:
                throw new IOException("No codec for " + codec);
        }
    }

    static byte[] decompress(CompressionCodecName codec, byte[] in, int size) throws IOException {
        switch (codec) {
            case SNAPPY:
                return Snappy.uncompress(in);
            case ZSTD:
                return Zstd.decompress(in, size);
            case GZIP: {
                try (GZIPInputStream gz = new GZIPInputStream(new java.io.ByteArrayInputStream(in))) {
                    return gz.readNBytes(size);
                }
            }
            case LZ4_RAW: {
                byte[] out = new byte[size];
                int n = new Lz4Decompressor().decompress(in, 0, in.length, out, 0, size);
                if (n != size) {
                    throw new IOException("lz4_raw page: " + n + " bytes decompressed, " + size + " expected");
                }
                return out;
            }
            case LZ4:
                return hadoopLz4Decompress(in, size);
            default:
                throw new IOException("No codec for " + codec + ": snappy, gzip, zstd, lz4 and lz4_raw are read");
        }
    }

    private static byte[] lz4(byte[] in, int off, int len) {
        Lz4Compressor c = new Lz4Compressor();
        byte[] out = new byte[c.maxCompressedLength(len)];
        int n = c.compress(in, off, len, out, 0, out.length);
        return java.util.Arrays.copyOf(out, n);
    }

    /** Hadoop's BlockCompressorStream: per frame, the uncompressed size, then one (compressed size, block). */
    private static byte[] hadoopLz4(byte[] in) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(in.length / 2 + 64);
        for (int off = 0; off < in.length || (off == 0 && in.length == 0); off += HADOOP_LZ4_BLOCK) {
            int len = Math.min(HADOOP_LZ4_BLOCK, in.length - off);
            byte[] block = lz4(in, off, len);
            writeInt(out, len);
            writeInt(out, block.length);
            out.write(block, 0, block.length);
            if (in.length == 0) {
                break;
            }
        }
        return out.toByteArray();
    }

    private static byte[] hadoopLz4Decompress(byte[] in, int size) throws IOException {
        byte[] out = new byte[size];
        int pos = 0;
        int outPos = 0;
        ByteBuffer b = ByteBuffer.wrap(in);
        while (b.remaining() >= 8 && outPos < size) {
            int frameSize = b.getInt();
            int frameEnd = outPos + frameSize;
            while (outPos < frameEnd) {
                int blockLen = b.getInt();
                pos = b.position();
                outPos += new Lz4Decompressor().decompress(in, pos, blockLen, out, outPos, size - outPos);
                b.position(pos + blockLen);
            }
        }
        if (outPos != size) {
            throw new IOException("lz4 page: " + outPos + " bytes decompressed, " + size + " expected");
        }
        return out;
    }

    private static void writeInt(ByteArrayOutputStream out, int v) {
        out.write(v >>> 24);
        out.write(v >>> 16);
        out.write(v >>> 8);
        out.write(v);
    }
}
