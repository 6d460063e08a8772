package io.sluice.files.source;

import java.util.Arrays;

/**
 * An open-addressing map from a 128-bit {@link PathHash} to a file's modification time and size, in four
 * parallel {@code long} arrays: about 64 bytes per entry at most, no object per entry. Not thread-safe.
 */
final class HashIndex {
    private static final double MAX_LOAD = 0.6;
    private long[] k1;
    private long[] k2;
    private long[] ts;
    private long[] size;
    private int mask;
    private int count;

    HashIndex() {
        this(16);
    }

    HashIndex(int expected) {
        int cap = 16;
        while (cap < (1 << 30) && cap * MAX_LOAD < expected) {
            cap <<= 1;
        }
        allocate(cap);
    }

    private void allocate(int capacity) {
        k1 = new long[capacity];
        k2 = new long[capacity];
        ts = new long[capacity];
        size = new long[capacity];
        mask = capacity - 1;
        count = 0;
    }

    int size() {
        return count;
    }

    private int slot(long h1, long h2) {
        int i = (int) (h1 ^ (h1 >>> 32)) & mask;
        while (true) {
            if (k1[i] == h1 && k2[i] == h2) {
                return i;
            }
            if (k1[i] == 0 && k2[i] == 0) {
                return -1 - i;
            }
            i = (i + 1) & mask;
        }
    }

    /** Adds or replaces the entry of this hash. */
    void put(long h1, long h2, long timestamp, long bytes) {
        int s = slot(h1, h2);
        if (s >= 0) {
            ts[s] = timestamp;
            size[s] = bytes;
            return;
        }
        if (count + 1 > (mask + 1) * MAX_LOAD) {
            grow();
            s = slot(h1, h2);
        }
        int i = -1 - s;
        k1[i] = h1;
        k2[i] = h2;
        ts[i] = timestamp;
        size[i] = bytes;
        count++;
    }

    /** The slot of the hash, or -1. */
    int find(long h1, long h2) {
        int s = slot(h1, h2);
        return s >= 0 ? s : -1;
    }

    long timestampAt(int slot) {
        return ts[slot];
    }

    long sizeAt(int slot) {
        return size[slot];
    }

    private void grow() {
        long[] o1 = k1;
        long[] o2 = k2;
        long[] ot = ts;
        long[] os = size;
        allocate((mask + 1) * 2);
        for (int i = 0; i < o1.length; i++) {
            if (o1[i] != 0 || o2[i] != 0) {
                put(o1[i], o2[i], ot[i], os[i]);
            }
        }
    }

    void clear() {
        allocate(16);
    }

    /**
     * The entries as four arrays sorted by hash ({@link PathHash#compare}), for writing a snapshot:
     * {@code [h1[], h2[], timestamp[], size[]]}.
     */
    long[][] sorted() {
        int n = count;
        long[] a1 = new long[n];
        long[] a2 = new long[n];
        long[] at = new long[n];
        long[] as = new long[n];
        int j = 0;
        for (int i = 0; i <= mask; i++) {
            if (k1[i] != 0 || k2[i] != 0) {
                a1[j] = k1[i];
                a2[j] = k2[i];
                at[j] = ts[i];
                as[j] = size[i];
                j++;
            }
        }
        Integer[] order = new Integer[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (x, y) -> PathHash.compare(a1[x], a2[x], a1[y], a2[y]));
        long[][] out = new long[4][n];
        for (int i = 0; i < n; i++) {
            int o = order[i];
            out[0][i] = a1[o];
            out[1][i] = a2[o];
            out[2][i] = at[o];
            out[3][i] = as[o];
        }
        return out;
    }
}
