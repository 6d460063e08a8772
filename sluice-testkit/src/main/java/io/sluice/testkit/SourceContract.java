package io.sluice.testkit;

import io.sluice.api.Offset;
import io.sluice.api.Options;
import io.sluice.api.ReadLimit;
import io.sluice.api.Row;
import io.sluice.api.datasource.DataSource;
import io.sluice.core.OffsetJson;
import io.sluice.api.io.DurableFiles;
import io.sluice.api.source.InputPartition;
import io.sluice.api.source.MicroBatchStream;
import io.sluice.api.source.PartitionReader;
import io.sluice.api.source.SourceProvider;
import io.sluice.api.source.StreamContext;
import io.sluice.api.types.StructType;
import io.sluice.core.Sluice;

import java.io.IOException;
import java.io.ObjectOutputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;

/**
 * Drives a source through the source contract, the way the engine does, and fails with a
 * {@link ContractViolation} naming the rule that broke and the range. For source authors' own tests (or extend
 * {@link SourceContractTest}); every built-in replayable source passes it.
 *
 * <p>What {@link #check()} does: finds the source by its format through {@link Sluice#sourceProvider(String)}
 * (a {@link DataSource} included), validates the options with {@code resolveSchema}, builds a stream on a
 * temporary checkpoint folder ({@code sources/0} as its metadata path) and plans {@link #batches(int)} batches
 * (default 3) under the source's default read limit (or {@link #readLimit}), calling {@link #beforeEachTrigger}
 * before each {@code latestOffset} so the test can make data available. Nothing is committed until every batch is
 * read. The rules, by name:
 * <ul>
 *   <li>{@code offset-json}: every offset's JSON is not empty and {@code deserializeOffset(json).json()} gives the
 *       same JSON (the offset log round trip);</li>
 *   <li>{@code end-not-before-start}: {@code latestOffset(start, limit)} is never before {@code start} by
 *       {@link OffsetJson#compare} (or by the stream's own {@code wentBackwards}, see {@link #orderedByStream()});</li>
 *   <li>{@code monotonic-latest}: latest offsets never go backwards from one trigger to the next, neither the
 *       batch ends nor {@code reportLatestOffset()};</li>
 *   <li>{@code partitions-serializable}: every planned partition survives Java serialization;</li>
 *   <li>{@code read-limit}: under {@code maxRows(n)} a batch holds at most n rows;</li>
 *   <li>{@code replayable}: the same range read twice by the same stream gives the same rows;</li>
 *   <li>{@code ranges-compose}: the batches' ranges read as one range give as many rows as the batches together:
 *       no gap and no overlap between ranges or partitions (counts only, since a row may depend on the batch it
 *       falls in, as rate's timestamps do);</li>
 *   <li>{@code replayable-after-restart}: a fresh stream built from the same options and metadata folder, as after
 *       a crash before anything was committed, reads every range back to the same rows;</li>
 *   <li>{@code resume-after-commit}: the kit records each batch ({@code commits/N} in its checkpoint folder) before
 *       it calls {@code commit(end)}; a fresh stream then given {@code commit(end)} again for the committed batches,
 *       as on a resume, still reads the uncommitted last range to the same rows;</li>
 *   <li>{@code has-data}: at least two batches with data were planned (the kit needs data to check anything).</li>
 * </ul>
 * Rows are compared as multisets: partitions may come in any order. A source that throws while a rule is checked
 * breaks that rule, with the exception as the cause.
 */
public final class SourceContract {
    /** Called before each trigger with the trigger's number (1, 2, ...), e.g. to add data or move a clock. */
    @FunctionalInterface
    public interface TriggerHook {
        void beforeTrigger(int trigger) throws Exception;
    }

    private final String format;
    private final Map<String, String> options = new LinkedHashMap<>();
    private StructType userSchema;
    private Sluice sluice;
    private final List<Object> registrations = new ArrayList<>();
    private TriggerHook hook = n -> { };
    private int batches = 3;
    private int maxTriggers = 20;
    private long awaitDataMillis;
    private ReadLimit readLimit;
    private boolean orderedByStream;

    private SourceContract(String format) {
        this.format = Objects.requireNonNull(format, "format");
    }

    /** The source found by {@code format(..)}: a short name or a class name. */
    public static SourceContract forFormat(String format) {
        return new SourceContract(format);
    }

    /** The source found by {@code format(..)}, with options. */
    public static SourceContract forProvider(String format, Map<String, String> options) {
        return forFormat(format).options(options);
    }

    /** A data source registered for the check, found by its name. */
    public static SourceContract forDataSource(DataSource source) {
        return forFormat(source.name()).register(source);
    }

    public SourceContract option(String key, Object value) {
        options.put(key, String.valueOf(value));
        return this;
    }

    public SourceContract options(Map<String, String> more) {
        options.putAll(more);
        return this;
    }

    /** A user schema, for sources that need one (json, csv). */
    public SourceContract schema(String ddl) {
        this.userSchema = StructType.fromDDL(ddl);
        return this;
    }

    /** The Sluice to find the source in (e.g. one with a ManualClock); by default a new one, closed afterwards. */
    public SourceContract sluice(Sluice sluice) {
        this.sluice = sluice;
        return this;
    }

    /** Registers a data source in the Sluice used for the check. */
    public SourceContract register(DataSource source) {
        registrations.add(source);
        return this;
    }

    /** Registers a low-level provider in the Sluice used for the check. */
    public SourceContract register(SourceProvider provider) {
        registrations.add(provider);
        return this;
    }

    /** Runs before each trigger: make new data available here (append, write a file, advance a clock). */
    public SourceContract beforeEachTrigger(TriggerHook hook) {
        this.hook = Objects.requireNonNull(hook, "hook");
        return this;
    }

    /** How many batches with data to plan (at least 2; default 3). */
    public SourceContract batches(int batches) {
        if (batches < 2) {
            throw new IllegalArgumentException("batches must be at least 2: " + batches);
        }
        this.batches = batches;
        return this;
    }

    /** How many triggers to try before giving up on getting the batches (default 20). */
    public SourceContract maxTriggers(int maxTriggers) {
        this.maxTriggers = maxTriggers;
        return this;
    }

    /**
     * For sources that receive data asynchronously (a socket): after {@link #beforeEachTrigger}, poll
     * {@code latestOffset} for up to this long until it moves. Default 0: one call per trigger.
     */
    public SourceContract awaitDataMillis(long millis) {
        this.awaitDataMillis = millis;
        return this;
    }

    /**
     * Orders offsets by the stream's {@code MicroBatchStream.wentBackwards} instead of comparing their JSON numbers
     * ({@link OffsetJson#compare}): for sources whose offsets hold numbers that are ids, not positions (an Iceberg
     * snapshot id), so that only the stream can tell which of two offsets comes first.
     */
    public SourceContract orderedByStream() {
        this.orderedByStream = true;
        return this;
    }

    /** The read limit to plan under, instead of the source's {@code defaultReadLimit()}. */
    public SourceContract readLimit(ReadLimit limit) {
        this.readLimit = limit;
        return this;
    }

    private record Batch(Offset start, Offset end, List<Row> rows) {
        String range() {
            return SourceContract.range(start, end);
        }
    }

    /**
     * Runs every rule.
     *
     * @throws ContractViolation for the first rule that broke
     * @throws IllegalArgumentException when the source cannot be found or its options are refused
     */
    public void check() {
        boolean ownSluice = sluice == null;
        Sluice s = ownSluice ? Sluice.builder().build() : sluice;
        Path root = null;
        try {
            for (Object r : registrations) {
                if (r instanceof DataSource d) {
                    s.registerDataSource(d);
                } else {
                    s.registerSource((SourceProvider) r);
                }
            }
            SourceProvider provider = s.sourceProvider(format);
            Options opts = Options.of(options);
            StructType schema = provider.resolveSchema(opts, Optional.ofNullable(userSchema));
            root = Files.createTempDirectory("sluice-contract-");
            Path metadata = Files.createDirectories(root.resolve("sources/0"));
            Files.createDirectories(root.resolve("commits"));
            StreamContext context = new StreamContext(opts, schema, metadata, s.clock(), UUID.randomUUID().toString(), 0);
            run(provider, context, root);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            if (root != null) {
                deleteRecursively(root);
            }
            if (ownSluice) {
                s.close();
            }
        }
    }

    private void run(SourceProvider provider, StreamContext context, Path root) {
        MicroBatchStream a = provider.createStream(context);
        try {
            ReadLimit limit = readLimit != null ? readLimit : a.defaultReadLimit();
            Offset start = call("offset-json", null, "initialOffset()", a::initialOffset);
            checkJson(a, start, "initialOffset()");
            List<Batch> planned = new ArrayList<>();
            Offset previousEnd = null;
            Offset previousReported = null;
            int trigger = 0;
            while (planned.size() < batches && trigger < maxTriggers) {
                trigger++;
                int n = trigger;
                call("has-data", null, "beforeEachTrigger(" + n + ")", () -> {
                    hook.beforeTrigger(n);
                    return null;
                });
                Offset from = start;
                Offset end = latest(a, from, limit);
                Offset reported = call("monotonic-latest", null, "reportLatestOffset()", a::reportLatestOffset);
                if (reported != null) {
                    checkJson(a, reported, "reportLatestOffset()");
                    if (previousReported != null && backwards(a, reported, previousReported)) {
                        throw new ContractViolation("monotonic-latest", null, "reportLatestOffset() went from "
                                + previousReported.json() + " back to " + reported.json(), null);
                    }
                    previousReported = reported;
                }
                if (end == null || Offset.same(end, from)) {
                    continue;
                }
                checkJson(a, end, "latestOffset(start, limit)");
                if (backwards(a, end, from)) {
                    throw new ContractViolation("end-not-before-start", range(from, end),
                            "latestOffset returned an end before the start", null);
                }
                if (previousEnd != null && backwards(a, end, previousEnd)) {
                    throw new ContractViolation("monotonic-latest", range(from, end), "latestOffset went from "
                            + previousEnd.json() + " back to " + end.json(), null);
                }
                List<Row> first = read(a, from, end, "partitions-serializable", true);
                if (limit instanceof ReadLimit.MaxRows m && first.size() > m.rows()) {
                    throw new ContractViolation("read-limit", range(from, end), "the batch holds " + first.size()
                            + " rows under maxRows(" + m.rows() + ")", null);
                }
                List<Row> second = read(a, from, end, "replayable", false);
                compare("replayable", range(from, end), "second read", second, "first", first);
                planned.add(new Batch(from, end, first));
                previousEnd = end;
                start = end;
            }
            if (planned.size() < 2) {
                throw new ContractViolation("has-data", null, "the source planned " + planned.size()
                        + " batches with data in " + trigger + " triggers; the kit needs at least 2: make data "
                        + "available in beforeEachTrigger", null);
            }
            MicroBatchStream b = call("replayable-after-restart", null, "createStream", () -> provider.createStream(context));
            try {
                for (Batch batch : planned) {
                    Offset s = deserialize(b, batch.start());
                    Offset e = deserialize(b, batch.end());
                    List<Row> again = read(b, s, e, "replayable-after-restart", false);
                    compare("replayable-after-restart", batch.range(), "a fresh instance", again, "the first read",
                            batch.rows());
                }
            } finally {
                stopQuietly(b);
            }

            Batch firstBatch = planned.get(0);
            Batch last = planned.get(planned.size() - 1);
            List<Row> together = new ArrayList<>();
            planned.forEach(x -> together.addAll(x.rows()));
            List<Row> whole = read(a, firstBatch.start(), last.end(), "ranges-compose", false);
            // Counts only: a row may depend on the batch it falls in (rate spreads timestamps over a batch).
            if (whole.size() != together.size()) {
                throw new ContractViolation("ranges-compose", range(firstBatch.start(), last.end()),
                        "the range read whole returned " + whole.size() + " rows, its " + planned.size()
                                + " batches together " + together.size(), null);
            }

            // Commit all but the last batch, each only once recorded as durable, then resume like the engine does.
            for (int i = 0; i < planned.size() - 1; i++) {
                Batch batch = planned.get(i);
                recordCommit(root, i);
                Offset end = batch.end();
                call("resume-after-commit", batch.range(), "commit(" + end.json() + ")", () -> {
                    a.commit(end);
                    return null;
                });
            }
            Batch lastBatch = planned.get(planned.size() - 1);
            Batch committed = planned.get(planned.size() - 2);
            MicroBatchStream c = call("resume-after-commit", null, "createStream", () -> provider.createStream(context));
            try {
                Offset end = deserialize(c, committed.end());
                call("resume-after-commit", committed.range(), "commit(" + end.json() + ") on a fresh instance", () -> {
                    c.commit(end);
                    return null;
                });
                List<Row> again = read(c, deserialize(c, lastBatch.start()), deserialize(c, lastBatch.end()),
                        "resume-after-commit", false);
                compare("resume-after-commit", lastBatch.range(), "a fresh instance after commit("
                        + committed.end().json() + ")", again, "the first read", lastBatch.rows());
            } finally {
                stopQuietly(c);
            }
            recordCommit(root, planned.size() - 1);
            a.commit(lastBatch.end());
        } finally {
            stopQuietly(a);
        }
    }

    private Offset latest(MicroBatchStream a, Offset from, ReadLimit limit) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(awaitDataMillis);
        while (true) {
            Offset end = call("monotonic-latest", null, "latestOffset(" + from.json() + ", " + limit + ")",
                    () -> a.latestOffset(from, limit));
            if ((end != null && !Offset.same(end, from)) || System.nanoTime() >= deadline) {
                return end;
            }
            // Polling like the engine's empty triggers do (its pollingDelay), for data arriving asynchronously.
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
        }
    }

    private static void recordCommit(Path root, long batchId) {
        try {
            DurableFiles.createNew(root.resolve("commits").resolve(Long.toString(batchId)),
                    "v1\n{}".getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Offset deserialize(MicroBatchStream s, Offset o) {
        Offset back = call("offset-json", null, "deserializeOffset(" + o.json() + ")",
                () -> s.deserializeOffset(o.json()));
        if (back == null || !o.json().equals(back.json())) {
            throw new ContractViolation("offset-json", null, "deserializeOffset(" + o.json() + ") gave back "
                    + (back == null ? "null" : back.json()), null);
        }
        return back;
    }

    private static void checkJson(MicroBatchStream s, Offset o, String method) {
        if (o == null) {
            throw new ContractViolation("offset-json", null, method + " returned null", null);
        }
        String json = o.json();
        if (json == null || json.isBlank()) {
            throw new ContractViolation("offset-json", null, method + " returned an offset with no JSON", null);
        }
        try {
            OffsetJson.read(json);
        } catch (IllegalArgumentException e) {
            throw new ContractViolation("offset-json", null, method + " returned " + json + ", which is not JSON: "
                    + e.getMessage(), e);
        }
        deserialize(s, o);
    }

    private boolean backwards(MicroBatchStream stream, Offset later, Offset earlier) {
        if (orderedByStream) {
            return stream.wentBackwards(earlier, later).isPresent();
        }
        OffsetJson.Order o = OffsetJson.compare(later.json(), earlier.json());
        return o == OffsetJson.Order.BEFORE || o == OffsetJson.Order.MIXED;
    }

    /** Plans and reads a range; a failure breaks {@code rule}. */
    private static List<Row> read(MicroBatchStream s, Offset start, Offset end, String rule, boolean checkSerializable) {
        String range = range(start, end);
        List<InputPartition> parts = call(rule, range, "planPartitions", () -> s.planPartitions(start, end));
        List<Row> rows = new ArrayList<>();
        for (int i = 0; i < parts.size(); i++) {
            InputPartition p = parts.get(i);
            if (checkSerializable) {
                try (ObjectOutputStream out = new ObjectOutputStream(OutputStream.nullOutputStream())) {
                    out.writeObject(p);
                } catch (IOException | RuntimeException e) {
                    throw new ContractViolation("partitions-serializable", range, "partition " + i
                            + " cannot be serialized: " + e, e);
                }
            }
            call(rule, range, "reading partition " + i, () -> {
                try (PartitionReader r = s.createReader(p)) {
                    while (r.next()) {
                        rows.add(r.get());
                    }
                }
                return null;
            });
        }
        return rows;
    }

    private static void compare(String rule, String range, String what, List<Row> actual, String reference,
                                List<Row> expected) {
        if (actual.size() != expected.size()) {
            throw new ContractViolation(rule, range, what + " returned " + actual.size() + " rows, " + reference + " "
                    + expected.size(), null);
        }
        Map<Row, Integer> counts = new HashMap<>();
        expected.forEach(r -> counts.merge(r, 1, Integer::sum));
        List<Row> extra = new ArrayList<>();
        for (Row r : actual) {
            Integer c = counts.get(r);
            if (c == null) {
                extra.add(r);
            } else if (c == 1) {
                counts.remove(r);
            } else {
                counts.put(r, c - 1);
            }
        }
        if (!extra.isEmpty()) {
            List<Row> missing = new ArrayList<>(counts.keySet());
            throw new ContractViolation(rule, range, what + " returned other rows than " + reference + ": "
                    + extra.size() + " differ, e.g. " + extra.get(0) + " instead of " + missing.get(0), null);
        }
    }

    private interface Call<T> {
        T run() throws Exception;
    }

    private static <T> T call(String rule, String range, String what, Call<T> call) {
        try {
            return call.run();
        } catch (ContractViolation v) {
            throw v;
        } catch (Exception | Error e) {
            throw new ContractViolation(rule, range, what + " threw " + e, e);
        }
    }

    private static String range(Offset start, Offset end) {
        return (start == null ? "null" : start.json()) + " -> " + (end == null ? "null" : end.json());
    }

    private static void stopQuietly(MicroBatchStream s) {
        try {
            s.stop();
        } catch (RuntimeException e) {
            // The check's outcome matters more than a failing stop.
        }
    }

    private static void deleteRecursively(Path dir) {
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException e) {
                    // a temporary folder; best effort
                }
            });
        } catch (IOException e) {
            // best effort
        }
    }
}
