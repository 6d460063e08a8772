package io.sluice.core.sources;

import java.util.Optional;
import io.sluice.api.Offset;
import io.sluice.api.ReadLimit;
import io.sluice.api.Row;
import io.sluice.api.SluiceClock;
import io.sluice.api.io.Storage;
import io.sluice.api.io.Storages;
import io.sluice.api.io.DurableFiles;
import io.sluice.api.io.MetadataLogFiles;
import io.sluice.api.source.InputPartition;
import io.sluice.api.source.MicroBatchStream;
import io.sluice.api.source.PartitionReader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The rate source's stream. The offset is the number of whole seconds since the stream's creation time, which is
 * kept in {@code <metadataPath>/0} as Spark keeps it ({@code v1}, a newline, the epoch milliseconds), so a
 * restarted query replays a logged range with the very same rows.
 */
final class RateStream implements MicroBatchStream {
    private static final Logger LOG = LoggerFactory.getLogger(RateStream.class);
    static final String CREATION_TIME_FILE = "0";
    private static final int VERSION = 1;

    private final RateSourceProvider.Settings settings;
    private final SluiceClock clock;
    private final long creationTimeMs;
    private final long maxSeconds;
    private volatile long lastTimeMs;

    RateStream(RateSourceProvider.Settings settings, Path metadataPath, SluiceClock clock) {
        this.settings = settings;
        this.clock = Objects.requireNonNull(clock, "clock");
        this.maxSeconds = Long.MAX_VALUE / settings.rowsPerSecond();
        this.creationTimeMs = creationTime(Objects.requireNonNull(metadataPath, "metadataPath"), clock);
        this.lastTimeMs = creationTimeMs;
    }

    /** A stream whose checkpoint is on an object store: the start time is kept at {@code <location>/0} there. */
    RateStream(RateSourceProvider.Settings settings, Storage storage, String location, SluiceClock clock) {
        this.settings = settings;
        this.clock = Objects.requireNonNull(clock, "clock");
        this.maxSeconds = Long.MAX_VALUE / settings.rowsPerSecond();
        this.creationTimeMs = creationTime(storage, Storages.child(location, CREATION_TIME_FILE), clock);
        this.lastTimeMs = creationTimeMs;
    }

    /** The start time at {@code uri}, or the clock's time now, created exclusively (a racing writer's wins). */
    private static long creationTime(Storage storage, String uri, SluiceClock clock) {
        try {
            if (storage.status(uri).isEmpty()) {
                long now = clock.millis();
                if (storage.createExclusive(uri, ("v" + VERSION + "\n" + now).getBytes(StandardCharsets.UTF_8))) {
                    LOG.info("Start time: {}", now);
                    return now;
                }
            }
            return parse(uri, new String(storage.readAll(uri, MetadataLogFiles.MAX_READ_BYTES),
                    StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read or record the rate source's start time in " + uri + ": "
                    + e.getMessage(), e);
        }
    }

    long creationTimeMs() {
        return creationTimeMs;
    }

    /** Reads the creation time kept in the metadata folder, or records the clock's time now. */
    private static long creationTime(Path dir, SluiceClock clock) {
        Path file = dir.resolve(CREATION_TIME_FILE);
        try {
            if (Files.exists(file)) {
                return read(file);
            }
            long now = clock.millis();
            DurableFiles.createDirectories(dir);
            DurableFiles.replace(file, ("v" + VERSION + "\n" + now).getBytes(StandardCharsets.UTF_8));
            LOG.info("Start time: {}", now);
            return now;
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read or record the rate source's start time in " + file + ": "
                    + e.getMessage(), e);
        }
    }

    private static long read(Path file) throws IOException {
        return parse(file.toString(), new String(MetadataLogFiles.readAll(file, MetadataLogFiles.MAX_READ_BYTES),
                StandardCharsets.UTF_8));
    }

    private static long parse(String file, String content) {
        int nl = content.indexOf('\n');
        if (content.isEmpty() || content.charAt(0) != 'v' || nl <= 0) {
            throw new IllegalStateException("Log file " + file
                    + " was malformed: failed to detect the log file version line. Delete the checkpoint to start over.");
        }
        String version = content.substring(1, nl);
        int v;
        try {
            v = Integer.parseInt(version);
        } catch (NumberFormatException e) {
            throw new IllegalStateException("Log file " + file + " was malformed: bad version line 'v" + version + "'");
        }
        if (v > VERSION || v <= 0) {
            throw new IllegalStateException("Log file " + file + " has version v" + v + ", but only v" + VERSION
                    + " is supported: it was written by a newer version");
        }
        try {
            return Long.parseLong(content.substring(nl + 1).trim());
        } catch (NumberFormatException e) {
            throw new IllegalStateException("Log file " + file + " was malformed: the start time '"
                    + content.substring(nl + 1) + "' is not a number");
        }
    }

    @Override
    public Offset initialOffset() {
        return new LongOffset(0);
    }

    @Override
    public Offset deserializeOffset(String json) {
        return LongOffset.parse(json, "rate");
    }

    @Override
    public Optional<String> wentBackwards(Offset previousEnd, Offset end) {
        return LongOffset.wentBackwards(previousEnd, end, "rate", "second");
    }

    @Override
    public Offset latestOffset(Offset start, ReadLimit limit) {
        long now = clock.millis();
        if (lastTimeMs < now) {
            lastTimeMs = now;
        }
        long seconds = (lastTimeMs - creationTimeMs) / 1000;
        if (start != null && seconds <= LongOffset.of(start, "rate")) {
            return start; // no new whole second: nothing to read
        }
        return new LongOffset(seconds);
    }

    @Override
    public List<InputPartition> planPartitions(Offset start, Offset end) {
        long startSeconds = LongOffset.of(start, "rate");
        long endSeconds = LongOffset.of(end, "rate");
        if (startSeconds > endSeconds) {
            throw new IllegalArgumentException("startSeconds(" + startSeconds + ") > endSeconds(" + endSeconds + ")");
        }
        if (endSeconds > maxSeconds) {
            throw new ArithmeticException("Max offset with " + settings.rowsPerSecond() + " rowsPerSecond is "
                    + maxSeconds + ", but it's " + endSeconds + " now.");
        }
        long endMs = creationTimeMs + endSeconds * 1000;
        if (lastTimeMs < endMs) {
            lastTimeMs = endMs; // a replayed range after a restart: never go back before it
        }
        long rangeStart = valueAtSecond(startSeconds, settings.rowsPerSecond(), settings.rampUpTimeSeconds());
        long rangeEnd = valueAtSecond(endSeconds, settings.rowsPerSecond(), settings.rampUpTimeSeconds());
        if (rangeStart == rangeEnd) {
            return List.of();
        }
        long localStartTimeMs = creationTimeMs + startSeconds * 1000;
        double relativeMsPerValue = (endSeconds - startSeconds) * 1000.0 / (rangeEnd - rangeStart);
        int n = settings.numPartitions();
        List<InputPartition> parts = new ArrayList<>(n);
        for (int p = 0; p < n; p++) {
            parts.add(new RatePartition(p, n, rangeStart, rangeEnd, localStartTimeMs, relativeMsPerValue));
        }
        return parts;
    }

    /**
     * The number of rows emitted in the first {@code seconds} seconds: during ramp-up the speed grows by
     * {@code rowsPerSecond / (rampUpTimeSeconds + 1)} a second (integer division), then stays at rowsPerSecond.
     */
    static long valueAtSecond(long seconds, long rowsPerSecond, long rampUpTimeSeconds) {
        long speedDeltaPerSecond = rowsPerSecond / (rampUpTimeSeconds + 1);
        if (seconds <= rampUpTimeSeconds) {
            // speedDelta * seconds * (seconds + 1) / 2, halving the even factor first to avoid overflow
            return seconds % 2 == 1
                    ? (seconds + 1) / 2 * speedDeltaPerSecond * seconds
                    : seconds / 2 * speedDeltaPerSecond * (seconds + 1);
        }
        long rampUpPart = valueAtSecond(rampUpTimeSeconds, rowsPerSecond, rampUpTimeSeconds);
        return rampUpPart + (seconds - rampUpTimeSeconds) * rowsPerSecond;
    }

    @Override
    public PartitionReader createReader(InputPartition partition) {
        return new Reader((RatePartition) partition);
    }

    @Override
    public void stop() {
    }

    /** As Spark writes it (Spark's own string lacks the closing bracket). */
    @Override
    public String description() {
        return "RateStreamV2[rowsPerSecond=" + settings.rowsPerSecond() + ", rampUpTimeSeconds="
                + settings.rampUpTimeSeconds() + ", numPartitions=" + settings.numPartitionsOption();
    }

    @Override
    public String toString() {
        return description();
    }

    /** Values {@code rangeStart + partitionId + k * numPartitions} below {@code rangeEnd}. */
    record RatePartition(int partitionId, int numPartitions, long rangeStart, long rangeEnd, long localStartTimeMs,
                         double relativeMsPerValue) implements InputPartition {
    }

    private static final class Reader implements PartitionReader {
        private final long rangeStart;
        private final long step;
        private final long localStartTimeMs;
        private final double relativeMsPerValue;
        private long remaining;
        private long value;
        private long lastMs = Long.MIN_VALUE;
        private Instant lastInstant;
        private Row current;

        Reader(RatePartition p) {
            this.rangeStart = p.rangeStart();
            this.step = p.numPartitions();
            this.localStartTimeMs = p.localStartTimeMs();
            this.relativeMsPerValue = p.relativeMsPerValue();
            long first = p.rangeStart() + p.partitionId();
            this.remaining = first < p.rangeEnd() ? (p.rangeEnd() - 1 - first) / step + 1 : 0;
            this.value = first;
        }

        @Override
        public boolean next() {
            if (remaining <= 0) {
                current = null;
                return false;
            }
            long v = value;
            long ms = Math.round((v - rangeStart) * relativeMsPerValue) + localStartTimeMs;
            if (ms != lastMs) {
                lastMs = ms;
                lastInstant = Instant.ofEpochMilli(ms);
            }
            current = Row.wrap(new Object[] {lastInstant, v});
            remaining--;
            value = v + step;
            return true;
        }

        @Override
        public Row get() {
            return current;
        }

        @Override
        public void close() {
        }
    }
}
