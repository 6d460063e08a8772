package io.sluice.files.source;

import io.sluice.files.fs.FileStorage;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * Measures a restart of the file source's seen-files state holding N entries.
 *
 * <p>{@code SeenFilesScaleMain <N> [hot|aged] [batchSize] [workDir]} builds the state in a checkpoint folder through
 * the source's own code path ({@link SeenFilesLog#append} then {@link SeenFilesLog#committed}, as batches do), then
 * starts a child JVM with {@code -Xmx256m} that restores it and looks files up, and prints the child's figures:
 * restore time, lookup time, heap used after a full GC, and the state's size on disk. Before restarting it logs,
 * without committing, as many more files as the compaction policy lets pile up after the snapshot: the worst
 * moment to restart.
 *
 * <ul>
 *   <li>{@code hot}: every file within maxFileAge (7 days) of the newest, so all N stay in the hot set: the worst
 *       case, a snapshot of N entries (32 bytes each, memory-mapped, not on the heap).</li>
 *   <li>{@code aged}: one file every 3.6 s with maxFileAge 1h, so about 1000 stay hot and the rest are retired
 *       behind the watermark: restart cost as for a query that has only ever seen 1000 files.</li>
 * </ul>
 */
public final class SeenFilesScaleMain {
    static final long T = 1_700_000_000_000L;

    private SeenFilesScaleMain() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length >= 2 && args[0].equals("--restart")) {
            restart(Path.of(args[1]), Long.parseLong(args[2]), Long.parseLong(args[3]));
            return;
        }
        long n = Long.parseLong(args.length > 0 ? args[0] : "1000000");
        boolean hot = args.length < 2 || args[1].equals("hot");
        int batch = Integer.parseInt(args.length > 2 ? args[2] : "10000");
        Path work = args.length > 3 ? Path.of(args[3]) : Files.createTempDirectory("sluice-seen-scale-");
        Path dir = work.resolve("sources/0");
        long maxAge = hot ? 7 * 86_400_000L : 3_600_000L;
        long step = hot ? 1 : 3_600;
        long t0 = System.nanoTime();
        SeenFilesLog log = SeenFilesLog.open(dir, maxAge, false, FileStorage.local());
        List<SeenFilesLog.NewFile> files = new ArrayList<>(batch);
        long done = 0;
        long id = -1;
        while (done < n) {
            files.clear();
            int size = (int) Math.min(batch, n - done);
            for (int i = 0; i < size; i++) {
                long k = done + i;
                String uri = "file:///data/landing/2026/11/" + (k % 100) + "/events-" + k + ".json";
                files.add(new SeenFilesLog.NewFile(uri, null, 4096, T + k * step));
            }
            id = log.append(files);
            log.committed(id, id);
            done += size;
        }
        long buildMs = (System.nanoTime() - t0) / 1_000_000;
        System.out.printf("built %,d entries (%s, %,d per batch, %d log offsets) in %,d ms: snapshot %,d entries + "
                        + "%,d after it%n", n, hot ? "hot" : "aged", batch, id + 1, buildMs, log.seen().snapshotSize(),
                log.seen().recentSize());
        int rc = child(dir, maxAge, n);
        // The worst moment to restart: just before the next snapshot, with as many entries after the snapshot as
        // the policy allows, logged but not committed (a crash), so the restart must parse them all.
        long tail = Math.max(0, log.compactionThreshold() - 1 - log.seen().recentSize());
        long extra = 0;
        while (extra < tail) {
            files.clear();
            int size = (int) Math.min(batch, tail - extra);
            for (int i = 0; i < size; i++) {
                long k = done + extra + i;
                String uri = "file:///data/landing/2026/11/" + (k % 100) + "/events-" + k + ".json";
                files.add(new SeenFilesLog.NewFile(uri, null, 4096, T + k * step));
            }
            id = log.append(files);
            extra += size;
        }
        n += extra;
        long bytes;
        try (Stream<Path> s = Files.list(dir)) {
            bytes = s.mapToLong(p -> p.toFile().length()).sum();
        }
        System.out.printf("then %,d more logged but not committed (the most the policy lets pile up): state on "
                        + "disk %,d bytes, snapshot %,d entries + %,d after it%n", extra, bytes,
                log.seen().snapshotSize(), log.seen().recentSize());
        rc |= child(dir, maxAge, n);

        if (args.length <= 3) {
            try (Stream<Path> s = Files.walk(work)) {
                s.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
            }
        }
        System.exit(rc);
    }

    /** Restores the state in a child JVM with a 256 MB heap and prints what it reports; returns its exit code. */
    private static int child(Path dir, long maxAge, long n) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(java, "-Xmx256m", "-cp", System.getProperty("java.class.path"),
                "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn", SeenFilesScaleMain.class.getName(), "--restart",
                dir.toString(), Long.toString(maxAge), Long.toString(n)).redirectErrorStream(true).start();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream()))) {
            String line;
            while ((line = r.readLine()) != null) {
                System.out.println("  " + line);
            }
        }
        return p.waitFor();
    }

    /** In the child JVM: restore, look up, report. */
    private static void restart(Path dir, long maxAge, long n) throws IOException {
        long t0 = System.nanoTime();
        SeenFilesLog log = SeenFilesLog.open(dir, maxAge, false, FileStorage.local());
        long restoreNs = System.nanoTime() - t0;
        int lookups = 100_000;
        long found = 0;
        long t1 = System.nanoTime();
        for (int i = 0; i < lookups; i++) {
            long k = n - 1 - (i * 7919L % Math.min(n, 1000));
            String uri = "file:///data/landing/2026/11/" + (k % 100) + "/events-" + k + ".json";
            if (log.seen().lookup(log.key(uri)) != null) {
                found++;
            }
            String missing = "file:///data/landing/2026/11/x/events-" + i + ".json";
            if (log.seen().lookup(log.key(missing)) != null) {
                throw new IllegalStateException("found a file never seen: " + missing);
            }
        }
        long lookupNs = System.nanoTime() - t1;
        if (found != lookups) {
            throw new IllegalStateException("recent files not found: " + found + " of " + lookups);
        }
        System.gc();
        long heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
        System.out.printf("restart (-Xmx256m): restore %,d ms; %,d lookups (half present, half absent) %,d ms; heap "
                        + "used after GC %,d KB; log offset %d, snapshot %,d entries, %,d after it%n",
                restoreNs / 1_000_000, 2 * lookups, lookupNs / 1_000_000, heap / 1024, log.current(),
                log.seen().snapshotSize(), log.seen().recentSize());
    }
}
