package io.sluice.core.sources;

import io.sluice.api.OptionDef;
import io.sluice.api.OptionSet;
import io.sluice.api.Options;
import io.sluice.api.source.MicroBatchStream;
import io.sluice.api.source.SourceProvider;
import io.sluice.api.source.StreamContext;
import io.sluice.api.types.StructType;

import java.util.Optional;

/**
 * The {@code rate-micro-batch} source, following Spark's {@code RatePerMicroBatchProvider}: every batch holds
 * exactly {@code rowsPerBatch} rows, whatever the clock or the trigger, and every row of a batch carries the
 * batch's event time, which starts at {@code startTimestamp} and advances {@code advanceMillisPerBatch} a batch.
 *
 * <p>Options: {@code rowsPerBatch} (required, positive), {@code numPartitions} (default: the number of cores,
 * positive), {@code startTimestamp} (epoch ms, default 0, non-negative), {@code advanceMillisPerBatch} (an int,
 * default 1000, non-negative). Schema {@code timestamp timestamp, value bigint}.
 */
public final class RatePerMicroBatchProvider implements SourceProvider {
    static final OptionSet OPTIONS = OptionSet.of(
            OptionDef.of("rowsPerBatch", OptionDef.Type.LONG, "rows in every batch").asRequired()
                    .validatedBy(SparkOptions.POSITIVE),
            SparkOptions.NUM_PARTITIONS,
            OptionDef.longValue("startTimestamp", 0, "the event time of the first batch, epoch milliseconds")
                    .validatedBy(SparkOptions.nonNegative("must be non-negative")),
            OptionDef.integer("advanceMillisPerBatch", 1000, "how far the event time advances a batch")
                    .validatedBy(SparkOptions.nonNegative("must be non-negative")));

    @Override
    public String shortName() {
        return "rate-micro-batch";
    }

    @Override
    public OptionSet options() {
        return OPTIONS;
    }

    @Override
    public Optional<StructType> fixedSchema(Options options) {
        return Optional.of(RateSourceProvider.SCHEMA);
    }

    @Override
    public StructType resolveSchema(Options options, Optional<StructType> userSchema) {
        Settings.of(options);
        return SourceProvider.super.resolveSchema(options, userSchema);
    }

    /** Keeps nothing in its folder (its offsets are the batch numbers): any checkpoint's storage will do. */
    @Override
    public boolean supportsMetadataOnStorage() {
        return true;
    }

    @Override
    public MicroBatchStream createStream(StreamContext context) {
        return new RatePerMicroBatchStream(Settings.of(context.options()));
    }

    record Settings(long rowsPerBatch, int numPartitions, long startTimestamp, int advanceMillisPerBatch) {

        static Settings of(Options options) {
            // Spark reads a missing rowsPerBatch as 0 and says "Invalid value '0'": Sluice says it is required.
            long rowsPerBatch = OPTIONS.getLong(options, "rowsPerBatch");
            int numPartitions = SparkOptions.numPartitions(options);
            long startTimestamp = OPTIONS.getLong(options, "startTimestamp");
            int advance = OPTIONS.getInt(options, "advanceMillisPerBatch");
            return new Settings(rowsPerBatch, numPartitions, startTimestamp, advance);
        }
    }
}
