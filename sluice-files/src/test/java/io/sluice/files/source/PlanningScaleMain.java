package io.sluice.files.source;

import io.sluice.api.Offset;
import io.sluice.api.Options;
import io.sluice.api.SluiceClock;
import io.sluice.api.source.InputPartition;
import io.sluice.api.source.StreamContext;
import io.sluice.api.types.StructType;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Times the file source's planning over a folder of N real empty files ({@code PlanningScaleMain [N] [workDir]},
 * default 100,000): the first trigger (list, select all, log N entries, plan), a trigger that finds nothing new
 * (list and filter N seen files), a restart followed by such a trigger, and a rate-limited query's first trigger and
 * cached second trigger.
 */
public final class PlanningScaleMain {
    private PlanningScaleMain() {
    }

    public static void main(String[] args) throws Exception {
        int n = Integer.parseInt(args.length > 0 ? args[0] : "100000");
        Path work = args.length > 1 ? Path.of(args[1]) : Files.createTempDirectory("sluice-plan-scale-");
        Path in = work.resolve("in");
        Files.createDirectories(in);
        long c0 = System.nanoTime();
        for (int i = 0; i < n; i++) {
            Files.createFile(in.resolve(String.format("events-%07d.json", i)));
        }
        System.out.printf("created %,d empty files in %,d ms%n", n, ms(c0));
        try {
            run(in, work.resolve("chk-all/sources/0"), Map.of(), n);
            run(in, work.resolve("chk-capped/sources/0"), Map.of("maxFilesPerTrigger", "1000"), n);
        } finally {
            if (args.length <= 1) {
                try (Stream<Path> s = Files.walk(work)) {
                    s.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
                }
            }
        }
    }

    private static FileStreamSource open(Path in, Path meta, Map<String, String> extra) throws Exception {
        Files.createDirectories(meta);
        var options = new java.util.LinkedHashMap<String, String>(extra);
        options.put("path", in.toString());
        Options o = Options.of(options);
        var provider = TestProviders.json();
        StructType schema = provider.resolveSchema(o, Optional.of(StructType.fromDDL("id long")));
        return (FileStreamSource) provider.createStream(new StreamContext(o, schema, meta, SluiceClock.system(), "q",
                0));
    }

    private static void run(Path in, Path meta, Map<String, String> extra, int n) throws Exception {
        System.out.println(extra.isEmpty() ? "all available:" : "with " + extra + ":");
        for (int round = 0; round < 2; round++) {
            // Two rounds: the second shows the JIT-warm figure; each starts from a fresh checkpoint.
            deleteAll(meta);
            long t0 = System.nanoTime();
            FileStreamSource s = open(in, meta, extra);
            long openMs = ms(t0);
            long t1 = System.nanoTime();
            Offset start = s.initialOffset();
            Offset end = s.latestOffset(start, s.defaultReadLimit());
            long latestMs = ms(t1);
            long t2 = System.nanoTime();
            List<InputPartition> parts = s.planPartitions(start, end);
            long planMs = ms(t2);
            s.commit(end);
            Offset again = end;
            StringBuilder steady = new StringBuilder();
            for (int k = 0; k < 3; k++) {
                long t3 = System.nanoTime();
                again = s.latestOffset(again, s.defaultReadLimit());
                steady.append(k == 0 ? "" : ", ").append(ms(t3));
            }
            String secondMs = steady.toString();
            s.stop();
            long t4 = System.nanoTime();
            FileStreamSource restarted = open(in, meta, extra);
            long restartMs = ms(t4);
            long t5 = System.nanoTime();
            Offset afterRestart = restarted.latestOffset(again, restarted.defaultReadLimit());
            long afterRestartMs = ms(t5);
            restarted.stop();
            System.out.printf("  round %d: open %d ms; first trigger latestOffset %,d ms (%s) + planPartitions %,d ms "
                            + "(%d partitions, %,d files); next 3 triggers %s ms (%s); restart %,d ms, then a trigger "
                            + "%,d ms (%s)%n", round + 1, openMs, latestMs, end, planMs, parts.size(),
                    parts.stream().mapToInt(p -> ((FilePartition) p).files().size()).sum(), secondMs, again, restartMs,
                    afterRestartMs, afterRestart);
        }
    }

    private static void deleteAll(Path dir) throws Exception {
        if (Files.exists(dir)) {
            try (Stream<Path> s = Files.walk(dir)) {
                s.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
            }
        }
    }

    private static long ms(long startNanos) {
        return (System.nanoTime() - startNanos) / 1_000_000;
    }
}
