package io.sluice.spark;

import io.sluice.api.source.MicroBatchStream;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.connector.read.streaming.Offset;
import org.apache.spark.sql.connector.read.streaming.ReadLimit;
import org.apache.spark.sql.connector.read.streaming.ReportsSourceMetrics;
import org.apache.spark.sql.connector.read.streaming.SupportsAdmissionControl;

import java.util.Map;
import java.util.Optional;

/**
 * A Sluice {@link MicroBatchStream} as Spark's MicroBatchStream with admission control and source metrics: each
 * Spark call is the Sluice call of the same name, offsets travel as their JSON. Spark's MicroBatchExecution
 * drives it on the query's thread, exactly as Sluice's engine would.
 */
class SparkStream implements org.apache.spark.sql.connector.read.streaming.MicroBatchStream,
        SupportsAdmissionControl, ReportsSourceMetrics {
    final MicroBatchStream stream;
    private final ReadSpec spec;
    private io.sluice.api.Offset initial;
    private boolean stopped;
    /** What the stream's run holds besides the stream (the storage of a checkpoint on a store), closed at stop. */
    private AutoCloseable resource;

    SparkStream(MicroBatchStream stream, ReadSpec spec) {
        this.stream = stream;
        this.spec = spec;
    }

    /** The stream for Spark: with SupportsTriggerAvailableNow exactly when the Sluice stream has it. */
    static SparkStream of(MicroBatchStream stream, ReadSpec spec) {
        return stream instanceof io.sluice.api.source.SupportsTriggerAvailableNow
                ? new SparkAvailableNowStream(stream, spec) : new SparkStream(stream, spec);
    }

    /** Closes {@code r} when this stream stops, after the Sluice stream. */
    SparkStream closingOnStop(AutoCloseable r) {
        this.resource = r;
        return this;
    }

    @Override
    public Offset initialOffset() {
        return new SparkOffset(initial());
    }

    /** Sluice calls initialOffset at most once per run; Spark may ask again (e.g. to plan batch 0). */
    private io.sluice.api.Offset initial() {
        if (initial == null) {
            initial = stream.initialOffset();
        }
        return initial;
    }

    @Override
    public Offset deserializeOffset(String json) {
        return new SparkOffset(stream.deserializeOffset(json));
    }

    private io.sluice.api.Offset sluice(Offset offset) {
        if (offset == null) {
            return null;
        }
        if (offset instanceof SparkOffset s && s.sluice() != null) {
            return s.sluice();
        }
        return stream.deserializeOffset(offset.json());
    }

    @Override
    public ReadLimit getDefaultReadLimit() {
        return ReadLimits.toSpark(stream.defaultReadLimit());
    }

    @Override
    public Offset latestOffset() {
        throw new UnsupportedOperationException(
                "latestOffset(Offset, ReadLimit) should be called instead of this method");
    }

    /**
     * Nothing new (null, or the start's JSON) is null for Spark: returning the start itself would make Spark run
     * an empty first batch.
     */
    @Override
    public Offset latestOffset(Offset start, ReadLimit limit) {
        io.sluice.api.Offset s = start == null ? initial() : sluice(start);
        io.sluice.api.Offset end = stream.latestOffset(s, ReadLimits.toSluice(limit));
        if (end == null || io.sluice.api.Offset.same(end, s)) {
            return null;
        }
        return new SparkOffset(end);
    }

    @Override
    public Offset reportLatestOffset() {
        return SparkOffset.wrap(stream.reportLatestOffset());
    }

    @Override
    public InputPartition[] planInputPartitions(Offset start, Offset end) {
        io.sluice.api.Offset s = start == null ? initial() : sluice(start);
        return Partitions.wrap(spec.source(), stream.planPartitions(s, sluice(end)));
    }

    @Override
    public PartitionReaderFactory createReaderFactory() {
        return new SluiceReaderFactory(spec);
    }

    @Override
    public void commit(Offset end) {
        stream.commit(sluice(end));
    }

    @Override
    public Map<String, String> metrics(Optional<Offset> latestConsumedOffset) {
        return stream.metrics(latestConsumedOffset.map(this::sluice));
    }

    @Override
    public void stop() {
        if (!stopped) {
            stopped = true;
            try {
                stream.stop();
            } finally {
                closeResource();
                // In local mode the executors are this JVM: their streams of this source can go now.
                ExecutorStreams.evict(spec.queryId(), spec.sourceIndex());
            }
        }
    }

    private void closeResource() {
        if (resource != null) {
            try {
                resource.close();
            } catch (Exception e) {
                org.slf4j.LoggerFactory.getLogger(SparkStream.class).warn("Closing {} failed", resource, e);
            }
        }
    }

    /** Spark shows this as the source's description in progress. */
    @Override
    public String toString() {
        return stream.description();
    }
}
