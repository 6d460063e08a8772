package io.sluice.files.source;

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
        sort(a1, a2, at, as, 0, n - 1);
        long[][] out = {a1, a2, at, as};
        return out;
    }

    /** Sorts the four parallel arrays by (a1, a2) in place: quicksort, insertion sort for short ranges. */
    private static void sort(long[] a1, long[] a2, long[] at, long[] as, int lo, int hi) {
        while (hi - lo > 16) {
            int mid = (lo + hi) >>> 1;
            long p1 = a1[mid];
            long p2 = a2[mid];
            int i = lo;
            int j = hi;
            while (i <= j) {
                while (PathHash.compare(a1[i], a2[i], p1, p2) < 0) {
                    i++;
                }
                while (PathHash.compare(a1[j], a2[j], p1, p2) > 0) {
                    j--;
                }
                if (i <= j) {
                    swap(a1, a2, at, as, i++, j--);
                }
            }
            // Recurse into the smaller side, loop on the larger: the stack stays logarithmic.
            if (j - lo < hi - i) {
                sort(a1, a2, at, as, lo, j);
                lo = i;
            } else {
                sort(a1, a2, at, as, i, hi);
                hi = j;
            }
        }
        for (int i = lo + 1; i <= hi; i++) {
            for (int k = i; k > lo && PathHash.compare(a1[k - 1], a2[k - 1], a1[k], a2[k]) > 0; k--) {
                swap(a1, a2, at, as, k, k - 1);
            }
        }
    }

    private static void swap(long[] a1, long[] a2, long[] at, long[] as, int i, int j) {
        long t = a1[i];
        a1[i] = a1[j];
        a1[j] = t;
        t = a2[i];
        a2[i] = a2[j];
        a2[j] = t;
        t = at[i];
        at[i] = at[j];
        at[j] = t;
        t = as[i];
        as[i] = as[j];
        as[j] = t;
    }
}
