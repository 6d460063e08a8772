package io.sluice.spark;

import io.sluice.api.source.MicroBatchStream;
import io.sluice.api.source.SourceProvider;
import org.apache.spark.sql.connector.catalog.SupportsRead;
import org.apache.spark.sql.connector.catalog.TableCapability;
import org.apache.spark.sql.connector.read.Batch;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

import java.nio.file.Path;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * One Sluice source with resolved options and schema, as a Spark table readable as a stream and as a batch. It is
 * its own ScanBuilder and Scan: a Sluice source has no pushdown, so every scan reads the whole schema.
 */
final class SluiceTable implements SupportsRead, ScanBuilder, Scan {
    private final SourceProvider provider;
    private final String source;
    private final Map<String, String> options;
    private final StructType schema;

    SluiceTable(SourceProvider provider, String source, Map<String, String> options, StructType schema) {
        this.provider = provider;
        this.source = source;
        this.options = options;
        this.schema = schema;
    }

    @Override
    public String name() {
        return "sluice-" + source;
    }

    @Override
    @SuppressWarnings("deprecation")
    public StructType schema() {
        return schema;
    }

    @Override
    public Set<TableCapability> capabilities() {
        return EnumSet.of(TableCapability.MICRO_BATCH_READ, TableCapability.BATCH_READ);
    }

    @Override
    public ScanBuilder newScanBuilder(CaseInsensitiveStringMap ignored) {
        return this;
    }

    @Override
    public Scan build() {
        return this;
    }

    @Override
    public StructType readSchema() {
        return schema;
    }

    @Override
    public String description() {
        return "Sluice[" + source + "]";
    }

    /** Spark gives the source's own folder, {@code <checkpoint>/sources/<n>}: the Sluice metadata path. */
    @Override
    public org.apache.spark.sql.connector.read.streaming.MicroBatchStream toMicroBatchStream(String checkpointLocation) {
        Path metadata = CheckpointPaths.local(checkpointLocation);
        ReadSpec spec = new ReadSpec(source, options, schema, CheckpointPaths.queryId(metadata),
                CheckpointPaths.sourceIndex(metadata), false);
        MicroBatchStream stream = provider.createStream(spec.context(metadata));
        SourceProviders.refuseDriverLocal(source, stream);
        return SparkStream.of(stream, spec);
    }

    @Override
    public Batch toBatch() {
        return new SluiceBatch(provider, new ReadSpec(source, options, schema, UUID.randomUUID().toString(), 0, true));
    }
}
