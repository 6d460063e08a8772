package io.sluice.core.sources;

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

    @Override
    public String shortName() {
        return "rate-micro-batch";
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

    @Override
    public MicroBatchStream createStream(StreamContext context) {
        return new RatePerMicroBatchStream(Settings.of(context.options()));
    }

    record Settings(long rowsPerBatch, int numPartitions, long startTimestamp, int advanceMillisPerBatch) {

        static Settings of(Options options) {
            // As in Spark, a missing rowsPerBatch reads as 0 and fails the positive check.
            long rowsPerBatch = SparkOptions.positive("rowsPerBatch", options.getLong("rowsPerBatch", 0));
            int numPartitions = SparkOptions.numPartitions(options);
            long startTimestamp = SparkOptions.nonNegative("startTimestamp", options.getLong("startTimestamp", 0),
                    "must be non-negative");
            int advance = options.getInt("advanceMillisPerBatch", 1000);
            SparkOptions.nonNegative("advanceMillisPerBatch", advance, "must be non-negative");
            return new Settings(rowsPerBatch, numPartitions, startTimestamp, advance);
        }
    }
}
