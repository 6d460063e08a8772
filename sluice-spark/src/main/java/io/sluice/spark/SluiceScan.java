package io.sluice.spark;

import io.sluice.api.source.MicroBatchStream;
import io.sluice.api.source.PushDown;
import io.sluice.api.source.SourceProvider;
import org.apache.spark.sql.connector.read.Batch;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.types.StructType;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * One scan of a Sluice source: the stream (or the one-off read) of its provider, with what was pushed down. Its
 * rows have {@link #readSchema()}: the source's schema, or the columns Spark required.
 */
final class SluiceScan implements Scan {
    private final SourceProvider provider;
    private final String source;
    private final Map<String, String> options;
    private final StructType schema;
    private final StructType readSchema;
    private final PushDown pushDown;
    private final List<Filter> pushed;

    SluiceScan(SourceProvider provider, String source, Map<String, String> options, StructType schema,
               StructType readSchema, PushDown pushDown, List<Filter> pushed) {
        this.provider = provider;
        this.source = source;
        this.options = options;
        this.schema = schema;
        this.readSchema = readSchema;
        this.pushDown = pushDown;
        this.pushed = pushed;
    }

    @Override
    public StructType readSchema() {
        return readSchema;
    }

    /** Shown by Spark's explain (and in a stream's progress): the source, and what was pushed down to it. */
    @Override
    public String description() {
        if (pushed.isEmpty() && readSchema.equals(schema)) {
            return "Sluice[" + source + "]";
        }
        return "Sluice[" + source + "] PushedFilters: " + pushed + ", ReadSchema: " + readSchema.simpleString();
    }

    private ReadSpec spec(String queryId, int sourceIndex, boolean bounded) {
        return new ReadSpec(source, options, schema, queryId, sourceIndex, bounded, pushDown);
    }

    /**
     * Spark gives the source's own folder, {@code <checkpoint>/sources/<n>}: the Sluice metadata path, or, on an
     * object store ({@code s3a://}), the stream's metadata location on Sluice's storage there.
     */
    @Override
    public org.apache.spark.sql.connector.read.streaming.MicroBatchStream toMicroBatchStream(String checkpointLocation) {
        if (StoredSourceFolder.isStored(checkpointLocation)) {
            StoredSourceFolder folder = StoredSourceFolder.open(checkpointLocation, provider, source, options);
            try {
                ReadSpec spec = spec(folder.queryId(), folder.sourceIndex(), false);
                MicroBatchStream stream = SourceProviders.createStream(provider, spec, spec.context(folder));
                SourceProviders.refuseDriverLocal(source, stream);
                return SparkStream.of(stream, spec).closingOnStop(folder);
            } catch (RuntimeException | Error e) {
                folder.close();
                throw e;
            }
        }
        Path metadata = CheckpointPaths.local(checkpointLocation);
        ReadSpec spec = spec(CheckpointPaths.queryId(metadata), CheckpointPaths.sourceIndex(metadata), false);
        MicroBatchStream stream = SourceProviders.createStream(provider, spec, metadata);
        SourceProviders.refuseDriverLocal(source, stream);
        return SparkStream.of(stream, spec);
    }

    @Override
    public Batch toBatch() {
        return new SluiceBatch(provider, spec(UUID.randomUUID().toString(), 0, true));
    }
}
