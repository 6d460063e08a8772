package io.sluice.core;

import io.sluice.api.Offset;
import io.sluice.api.ReadLimit;
import io.sluice.api.source.MicroBatchStream;
import io.sluice.api.source.SupportsTriggerAvailableNow;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * One source of a running query, as {@link MicroBatchExecution} drives it: its index (its line in
 * {@code offsets/N}), its provider and options, its stream, its private folder {@code sources/<index>/}, and where
 * it stands: the end of the last committed batch, its initial offset (asked for at most once per run) and its read
 * limit under the query's trigger. A query holds one per source, in order; nothing here knows how many there are.
 * Used by the query thread only, after {@link MicroBatchExecution#start} built it.
 */
final class SourceExecution {
    private static final Logger LOG = LoggerFactory.getLogger(SourceExecution.class);

    final int index;
    final DataStreamReader.SourceSpec spec;
    final MicroBatchStream stream;
    /** {@code <checkpoint>/sources/<index>/}, the stream's metadata folder. */
    final Path folder;

    /** The end offset of the last committed batch (or the one a re-run starts from); null before the first. */
    private Offset committed;
    private Offset initial;
    private ReadLimit readLimit;
    /** availableNow for a stream that cannot drain in steps: the target is fixed once, as one batch. */
    private boolean needsFixedTarget;
    private Offset fixedTarget;

    SourceExecution(int index, DataStreamReader.SourceSpec spec, MicroBatchStream stream, Path folder) {
        this.index = index;
        this.spec = spec;
        this.stream = stream;
        this.folder = folder;
    }

    Offset committed() {
        return committed;
    }

    void committed(Offset end) {
        committed = end;
    }

    /** Sets the read limit for the trigger, and prepares an availableNow run (before the first batch). */
    void prepare(Trigger trigger) {
        readLimit = trigger instanceof Trigger.Once ? ReadLimit.allAvailable() : stream.defaultReadLimit();
        if (trigger instanceof Trigger.AvailableNow) {
            if (stream instanceof SupportsTriggerAvailableNow s) {
                s.prepareForTriggerAvailableNow();
            } else {
                needsFixedTarget = true;
            }
        }
    }

    Offset initialOffset() {
        if (initial == null) {
            initial = stream.initialOffset();
        }
        return initial;
    }

    /** Where the next batch starts: the committed end, or the initial offset before the first batch. */
    Offset nextStart() {
        return committed != null ? committed : initialOffset();
    }

    /** The end the next batch may read to from {@code start}, under the read limit; null when the stream says none. */
    Offset nextEnd(Offset start) {
        if (needsFixedTarget) {
            if (fixedTarget == null) {
                fixedTarget = Optional.ofNullable(stream.latestOffset(start, ReadLimit.allAvailable())).orElse(start);
            }
            return fixedTarget;
        }
        return stream.latestOffset(start, readLimit);
    }

    /** Lets the stream release what a committed batch consumed (Beyond Spark: after {@code commits/N}). */
    void release(Offset end) {
        stream.commit(end);
    }

    /** The stream's metrics for the progress report; none (and a warning) when it fails to give them. */
    Map<String, String> metrics(Offset end) {
        try {
            return stream.metrics(Optional.ofNullable(end));
        } catch (RuntimeException e) {
            LOG.warn("Source {} failed to report metrics", stream.description(), e);
            return Map.of();
        }
    }

    String description() {
        return stream.description();
    }

    void stopQuietly() {
        try {
            stream.stop();
        } catch (RuntimeException e) {
            LOG.warn("Stopping source {} failed", stream.description(), e);
        }
    }
}
