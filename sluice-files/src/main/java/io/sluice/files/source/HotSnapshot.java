package io.sluice.files.source;

import io.sluice.api.io.DurableFiles;

import java.io.BufferedOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.zip.CRC32;

/**
 * The compact form of the seen-files hot set: {@code sources/<i>/<N>.hot}, one binary file holding every file
 * seen up to log offset N whose modification time is at or after the watermark, sorted by {@link PathHash}.
 * Opened by memory-mapping, so a restart reads the 64-byte header and nothing else; lookups touch a few pages
 * (interpolation search over uniformly distributed hashes). The mapping lives outside the Java heap.
 *
 * <p>Layout (big-endian): magic {@code SLUICEHS}, version int (1), flags int (bit 0: fileNameOnly), log offset N,
 * newest modification time seen, watermark, record count, maxFileAge in ms, CRC32 of the preceding 56 bytes;
 * then per record h1, h2, modification time, size (-1 when unknown): 32 bytes.
 */
final class HotSnapshot {
    static final String SUFFIX = ".hot";
    static final int HEADER = 64;
    static final int RECORD = 32;
    private static final long MAGIC = 0x534C55494345_4853L; // "SLUICEHS"
    private static final int VERSION = 1;
    /** Records per mapped chunk: 2^25 records = 1 GiB, under the 2 GiB limit of one mapping. */
    private static final int CHUNK_RECORDS = 1 << 25;

    final Path file;
    final long logOffset;
    final long maxTimestamp;
    final long watermark;
    final long count;
    final long maxFileAgeMs;
    final boolean fileNameOnly;
    private final MappedByteBuffer[] chunks;

    private HotSnapshot(Path file, long logOffset, long maxTimestamp, long watermark, long count,
                        long maxFileAgeMs, boolean fileNameOnly, MappedByteBuffer[] chunks) {
        this.file = file;
        this.logOffset = logOffset;
        this.maxTimestamp = maxTimestamp;
        this.watermark = watermark;
        this.count = count;
        this.maxFileAgeMs = maxFileAgeMs;
        this.fileNameOnly = fileNameOnly;
        this.chunks = chunks;
    }

    /**
     * Opens and maps a snapshot.
     *
     * @throws IOException naming the file and what is wrong, when it is not a whole, valid snapshot
     */
    static HotSnapshot open(Path file) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            long length = ch.size();
            if (length < HEADER) {
                throw new IOException(file + " is not a seen-files snapshot: only " + length + " bytes");
            }
            ByteBuffer h = ByteBuffer.allocate(HEADER);
            while (h.hasRemaining()) {
                if (ch.read(h, h.position()) < 0) {
                    throw new IOException(file + " ended inside its header");
                }
            }
            h.flip();
            if (h.getLong(0) != MAGIC) {
                throw new IOException(file + " is not a seen-files snapshot (bad magic number)");
            }
            CRC32 crc = new CRC32();
            crc.update(h.array(), 0, 56);
            if (crc.getValue() != h.getLong(56)) {
                throw new IOException(file + " has a corrupt header (checksum mismatch)");
            }
            int version = h.getInt(8);
            if (version != VERSION) {
                throw new IOException(file + " has snapshot version " + version + "; this Sluice reads version "
                        + VERSION);
            }
            int flags = h.getInt(12);
            long logOffset = h.getLong(16);
            long maxTs = h.getLong(24);
            long watermark = h.getLong(32);
            long count = h.getLong(40);
            long maxAge = h.getLong(48);
            if (count < 0 || length != HEADER + count * RECORD) {
                throw new IOException(file + " is truncated or corrupt: " + count + " records need "
                        + (HEADER + count * RECORD) + " bytes but the file has " + length);
            }
            int n = (int) ((count + CHUNK_RECORDS - 1) / CHUNK_RECORDS);
            MappedByteBuffer[] chunks = new MappedByteBuffer[n];
            for (int i = 0; i < n; i++) {
                long first = (long) i * CHUNK_RECORDS;
                long records = Math.min(CHUNK_RECORDS, count - first);
                chunks[i] = ch.map(FileChannel.MapMode.READ_ONLY, HEADER + first * RECORD, records * RECORD);
            }
            return new HotSnapshot(file, logOffset, maxTs, watermark, count, maxAge, (flags & 1) != 0, chunks);
        }
    }

    private long longAt(long record, int field) {
        MappedByteBuffer b = chunks[(int) (record / CHUNK_RECORDS)];
        return b.getLong((int) (record % CHUNK_RECORDS) * RECORD + field * 8);
    }

    long h1(long i) {
        return longAt(i, 0);
    }

    long h2(long i) {
        return longAt(i, 1);
    }

    long timestamp(long i) {
        return longAt(i, 2);
    }

    long size(long i) {
        return longAt(i, 3);
    }

    /**
     * The record index of the hash, or -1. Hashes are uniform, so the position is first estimated from h1 and
     * only a small window around it is searched; the whole range is the fallback.
     */
    long find(long h1, long h2) {
        if (count == 0) {
            return -1;
        }
        double fraction = unsignedToDouble(h1 ^ Long.MIN_VALUE) / 18446744073709551616.0;
        long guess = Math.min(count - 1, Math.max(0, (long) (fraction * count)));
        long window = 64 + 4 * (long) Math.sqrt(count);
        long lo = Math.max(0, guess - window);
        long hi = Math.min(count - 1, guess + window);
        if (PathHash.compare(h1(lo), h2(lo), h1, h2) > 0) {
            lo = 0;
        }
        if (PathHash.compare(h1(hi), h2(hi), h1, h2) < 0) {
            hi = count - 1;
        }
        while (lo <= hi) {
            long mid = (lo + hi) >>> 1;
            int c = PathHash.compare(h1(mid), h2(mid), h1, h2);
            if (c == 0) {
                return mid;
            }
            if (c < 0) {
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        return -1;
    }

    private static double unsignedToDouble(long v) {
        double d = (double) (v >>> 1) * 2.0;
        return d + (v & 1);
    }

    /** A source of records in hash order, for {@link #write}. */
    interface Records {
        /** Advances; false at the end. */
        boolean next();

        long h1();

        long h2();

        long timestamp();

        long size();
    }

    /**
     * Writes a snapshot atomically (temp file, fsync, rename, folder fsync). {@code records} must come in hash
     * order without duplicates. Returns the number of records written.
     */
    static long write(Path file, long logOffset, long maxTimestamp, long watermark, long maxFileAgeMs,
                      boolean fileNameOnly, Records records) throws IOException {
        long[] written = {0};
        DurableFiles.replaceWithChannel(file, ch -> {
            ch.position(HEADER);
            DataOutputStream out = new DataOutputStream(new BufferedOutputStream(Channels.newOutputStream(ch),
                    1 << 16));
            long n = 0;
            while (records.next()) {
                out.writeLong(records.h1());
                out.writeLong(records.h2());
                out.writeLong(records.timestamp());
                out.writeLong(records.size());
                n++;
            }
            out.flush();
            // The count is known only now: the header goes in last.
            ByteBuffer h = ByteBuffer.allocate(HEADER);
            h.putLong(0, MAGIC);
            h.putInt(8, VERSION);
            h.putInt(12, fileNameOnly ? 1 : 0);
            h.putLong(16, logOffset);
            h.putLong(24, maxTimestamp);
            h.putLong(32, watermark);
            h.putLong(40, n);
            h.putLong(48, maxFileAgeMs);
            CRC32 crc = new CRC32();
            crc.update(h.array(), 0, 56);
            h.putLong(56, crc.getValue());
            int pos = 0;
            while (h.hasRemaining()) {
                pos += ch.write(h, pos);
            }
            written[0] = n;
        });
        return written[0];
    }

    static String name(long logOffset) {
        return logOffset + SUFFIX;
    }
}
