package io.sluice.core.sources;

import io.sluice.api.Durations;
import io.sluice.api.InvalidOptionException;
import io.sluice.api.OptionDef;
import io.sluice.api.OptionSet;
import io.sluice.api.Options;
import io.sluice.api.source.MicroBatchStream;
import io.sluice.api.source.SourceProvider;
import io.sluice.api.source.StreamContext;
import io.sluice.api.types.DataType;
import io.sluice.api.types.StructField;
import io.sluice.api.types.StructType;

import java.util.Optional;

/**
 * The {@code rate} source: {@code rowsPerSecond} rows a second, numbered from 0, with evenly spread timestamps,
 * following Spark's {@code RateStreamProvider}.
 *
 * <p>Options: {@code rowsPerSecond} (default 1, positive), {@code rampUpTime} (a time string such as {@code 5s}
 * or {@code 2}, whole seconds, default 0, not negative), {@code numPartitions} (default: the number of cores,
 * positive). Schema {@code timestamp timestamp, value bigint}.
 */
public final class RateSourceProvider implements SourceProvider {
    static final StructType SCHEMA = StructType.of(
            StructField.of("timestamp", DataType.timestampType()),
            StructField.of("value", DataType.longType()));
    static final OptionSet OPTIONS = OptionSet.of(
            OptionDef.longValue("rowsPerSecond", 1, "rows generated a second").validatedBy(SparkOptions.POSITIVE),
            OptionDef.of("rampUpTime", OptionDef.Type.DURATION, "how long the rate ramps up to rowsPerSecond")
                    .withDefault("0"),
            SparkOptions.NUM_PARTITIONS);

    @Override
    public String shortName() {
        return "rate";
    }

    @Override
    public OptionSet options() {
        return OPTIONS;
    }

    @Override
    public Optional<StructType> fixedSchema(Options options) {
        return Optional.of(SCHEMA);
    }

    @Override
    public StructType resolveSchema(Options options, Optional<StructType> userSchema) {
        Settings.of(options);
        return SourceProvider.super.resolveSchema(options, userSchema);
    }

    /** The start time is kept through the checkpoint's storage when it is on an object store. */
    @Override
    public boolean supportsMetadataOnStorage() {
        return true;
    }

    @Override
    public MicroBatchStream createStream(StreamContext context) {
        if (context.metadataPath() == null) {
            return new RateStream(Settings.of(context.options()), context.metadataStorage(),
                    context.metadataLocation(), context.clock());
        }
        return new RateStream(Settings.of(context.options()), context.metadataPath(), context.clock());
    }

    /** The validated options. {@code numPartitionsOption} is the option as given, or "default". */
    record Settings(long rowsPerSecond, long rampUpTimeSeconds, int numPartitions, String numPartitionsOption) {

        static Settings of(Options options) {
            long rowsPerSecond = OPTIONS.getLong(options, "rowsPerSecond");
            long rampUp = options.get("rampUpTime")
                    .map(v -> Durations.timeStringAsSec("rampUpTime", v)).orElse(0L);
            SparkOptions.nonNegative("rampUpTime", rampUp, "must not be negative");
            int numPartitions = SparkOptions.numPartitions(options);
            long maxSeconds = Long.MAX_VALUE / rowsPerSecond;
            if (rampUp > maxSeconds) {
                throw new InvalidOptionException("rampUpTime", options.get("rampUpTime").orElse(null),
                        "Max offset with " + rowsPerSecond + " rowsPerSecond is " + maxSeconds
                                + ", but 'rampUpTimeSeconds' is " + rampUp + ".", true);
            }
            return new Settings(rowsPerSecond, rampUp, numPartitions, options.get("numPartitions").orElse("default"));
        }
    }
}
