package io.sluice.files.source;

import java.nio.charset.StandardCharsets;

/**
 * The 128-bit identity of a file in the seen-files state: MurmurHash3 x64 128 (seed 0) of the UTF-8 bytes of its
 * URI (or of its name, with fileNameOnly). Persisted in the hot-set snapshot, so the function must never change.
 * With 128 bits, two of ten million files collide with a probability near 10^-25.
 */
record PathHash(long h1, long h2) {
    private static final long C1 = 0x87c37b91114253d5L;
    private static final long C2 = 0x4cf5ad432745937fL;

    static PathHash of(String s) {
        return of(s.getBytes(StandardCharsets.UTF_8));
    }

    @SuppressWarnings("fallthrough") // MurmurHash3's tail: each case adds one more byte
    static PathHash of(byte[] data) {
        int len = data.length;
        long h1 = 0;
        long h2 = 0;
        int blocks = len / 16;
        for (int i = 0; i < blocks; i++) {
            long k1 = getLong(data, i * 16);
            long k2 = getLong(data, i * 16 + 8);
            k1 *= C1;
            k1 = Long.rotateLeft(k1, 31);
            k1 *= C2;
            h1 ^= k1;
            h1 = Long.rotateLeft(h1, 27);
            h1 += h2;
            h1 = h1 * 5 + 0x52dce729;
            k2 *= C2;
            k2 = Long.rotateLeft(k2, 33);
            k2 *= C1;
            h2 ^= k2;
            h2 = Long.rotateLeft(h2, 31);
            h2 += h1;
            h2 = h2 * 5 + 0x38495ab5;
        }
        int tail = blocks * 16;
        long k1 = 0;
        long k2 = 0;
        switch (len & 15) {
            case 15: k2 ^= (long) (data[tail + 14] & 0xff) << 48; // fall through
            case 14: k2 ^= (long) (data[tail + 13] & 0xff) << 40; // fall through
            case 13: k2 ^= (long) (data[tail + 12] & 0xff) << 32; // fall through
            case 12: k2 ^= (long) (data[tail + 11] & 0xff) << 24; // fall through
            case 11: k2 ^= (long) (data[tail + 10] & 0xff) << 16; // fall through
            case 10: k2 ^= (long) (data[tail + 9] & 0xff) << 8; // fall through
            case 9:
                k2 ^= data[tail + 8] & 0xff;
                k2 *= C2;
                k2 = Long.rotateLeft(k2, 33);
                k2 *= C1;
                h2 ^= k2;
                // fall through
            case 8: k1 ^= (long) (data[tail + 7] & 0xff) << 56; // fall through
            case 7: k1 ^= (long) (data[tail + 6] & 0xff) << 48; // fall through
            case 6: k1 ^= (long) (data[tail + 5] & 0xff) << 40; // fall through
            case 5: k1 ^= (long) (data[tail + 4] & 0xff) << 32; // fall through
            case 4: k1 ^= (long) (data[tail + 3] & 0xff) << 24; // fall through
            case 3: k1 ^= (long) (data[tail + 2] & 0xff) << 16; // fall through
            case 2: k1 ^= (long) (data[tail + 1] & 0xff) << 8; // fall through
            case 1:
                k1 ^= data[tail] & 0xff;
                k1 *= C1;
                k1 = Long.rotateLeft(k1, 31);
                k1 *= C2;
                h1 ^= k1;
                break;
            default:
                break;
        }
        h1 ^= len;
        h2 ^= len;
        h1 += h2;
        h2 += h1;
        h1 = fmix(h1);
        h2 = fmix(h2);
        h1 += h2;
        h2 += h1;
        if (h1 == 0 && h2 == 0) {
            h2 = 1; // (0, 0) marks an empty slot in the in-memory index
        }
        return new PathHash(h1, h2);
    }

    private static long getLong(byte[] b, int i) {
        return (b[i] & 0xffL) | (b[i + 1] & 0xffL) << 8 | (b[i + 2] & 0xffL) << 16 | (b[i + 3] & 0xffL) << 24
                | (b[i + 4] & 0xffL) << 32 | (b[i + 5] & 0xffL) << 40 | (b[i + 6] & 0xffL) << 48
                | (b[i + 7] & 0xffL) << 56;
    }

    private static long fmix(long k) {
        k ^= k >>> 33;
        k *= 0xff51afd7ed558ccdL;
        k ^= k >>> 33;
        k *= 0xc4ceb9fe1a85ec53L;
        k ^= k >>> 33;
        return k;
    }

    /** Orders by h1 then h2, both signed: the order of the snapshot's records. */
    static int compare(long a1, long a2, long b1, long b2) {
        int c = Long.compare(a1, b1);
        return c != 0 ? c : Long.compare(a2, b2);
    }
}
