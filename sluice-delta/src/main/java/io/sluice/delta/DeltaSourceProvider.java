package io.sluice.delta;

import io.delta.kernel.internal.SnapshotImpl;
import io.sluice.api.OptionSet;
import io.sluice.api.Options;
import io.sluice.api.source.MicroBatchStream;
import io.sluice.api.source.SourceProvider;
import io.sluice.api.source.StreamContext;
import io.sluice.api.types.StructType;

import io.sluice.api.io.Storages;

import java.nio.file.Path;
import java.util.Map;
import java.time.ZoneId;
import java.util.List;
import java.util.Optional;

/**
 * {@code format("delta")} as a source: a Delta table's snapshot at start, then each commit's added files, with
 * delta-spark's offsets, options and messages (docs/tables/delta.md). Found through
 * {@code META-INF/services/io.sluice.api.source.SourceProvider}.
 */
public final class DeltaSourceProvider implements SourceProvider {

    @Override
    public String shortName() {
        return "delta";
    }

    @Override
    public OptionSet options() {
        return DeltaSourceOptions.DEFS;
    }

    /** The table's latest schema, as delta-spark reads it at start; a user schema is refused unless equal. */
    @Override
    public StructType resolveSchema(Options options, Optional<StructType> userSchema) {
        DeltaSourceOptions o = DeltaSourceOptions.parse(options, ZoneId.of("UTC"));
        DeltaTable t = DeltaTable.open(o.path(), Storages.conf(Map.of(), options.asMap()));
        StructType schema;
        try {
            SnapshotImpl s = t.latestOrFail();
            DeltaTable.checkReadable(s, o.path());
            schema = DeltaTypes.toSluice(s.getSchema());
        } finally {
            t.close();
        }
        if (userSchema.isPresent() && !userSchema.get().simpleString().equals(schema.simpleString())) {
            throw new IllegalArgumentException("[DELTA_UNSUPPORTED_SCHEMA_DURING_READ] The Delta source reads the "
                    + "table's own schema (" + schema.toDDL() + "); a user-specified schema ("
                    + userSchema.get().toDDL() + ") is not accepted");
        }
        return schema;
    }

    @Override
    public Optional<Path> localInputFolder(Options options) {
        String path = DeltaSourceOptions.DEFS.require(options, DeltaSourceOptions.PATH);
        return DeltaTable.isRemote(path) ? Optional.empty() : Optional.of(DeltaTable.localPath(path));
    }

    @Override
    public MicroBatchStream createStream(StreamContext context) {
        DeltaSourceOptions o = DeltaSourceOptions.parse(context.options(), context.sessionTimeZone());
        DeltaTable t = DeltaTable.open(o.path(), Storages.conf(Map.of(), context.options().asMap()));
        List<String> partitions = t.latestOrFail().getPartitionColumnNames();
        return new DeltaMicroBatchStream(t, o, context.schema(), partitions, context.metadataPath());
    }
}
