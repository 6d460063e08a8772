package io.sluice.spark;

import io.sluice.api.source.SourceProvider;
import org.apache.spark.sql.connector.catalog.SupportsRead;
import org.apache.spark.sql.connector.catalog.TableCapability;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/**
 * One Sluice source with resolved options and schema, as a Spark table readable as a stream and as a batch. Each
 * scan gets its own {@link SluiceScanBuilder}, which takes the columns and filters Spark pushes down.
 */
final class SluiceTable implements SupportsRead {
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
        return new SluiceScanBuilder(provider, source, options, schema);
    }
}
