package io.sluice.iceberg;

import io.sluice.api.OptionSet;
import io.sluice.api.Options;
import io.sluice.api.source.MicroBatchStream;
import io.sluice.api.source.SourceProvider;
import io.sluice.api.source.StreamContext;
import io.sluice.api.types.StructType;

import java.util.Optional;

/**
 * {@code format("iceberg")} as a source: the table's snapshots, oldest ancestor first, each append snapshot's added
 * data files in order, with iceberg-spark's offsets, options and messages (docs/tables/iceberg.md). A bounded read
 * ({@code Sluice.read()}) reads the current snapshot whole.
 */
public final class IcebergSourceProvider implements SourceProvider {

    @Override
    public String shortName() {
        return "iceberg";
    }

    @Override
    public OptionSet options() {
        return IcebergOptions.SOURCE;
    }

    @Override
    public StructType resolveSchema(Options options, Optional<StructType> userSchema) {
        IcebergOptions.SOURCE.validate(options);
        try (IcebergTables tables = IcebergTables.of(options)) {
            StructType schema = IcebergSchemas.toSluice(tables.require().schema());
            if (userSchema.isPresent() && !userSchema.get().equals(schema)) {
                throw new IllegalArgumentException("The iceberg source reads the table's schema (" + schema.toDDL()
                        + ") and does not accept a user-specified schema (" + userSchema.get().toDDL() + ")");
            }
            return schema;
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Override
    public MicroBatchStream createStream(StreamContext context) {
        return new IcebergStream(context);
    }
}
