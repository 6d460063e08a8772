package io.sluice.core.sources;

import io.sluice.api.InvalidOptionException;
import io.sluice.api.OptionDef;
import io.sluice.api.OptionSet;
import io.sluice.api.Options;
import io.sluice.api.source.DriverLocalReaders;
import io.sluice.api.source.MicroBatchStream;
import io.sluice.api.source.SourceProvider;
import io.sluice.api.source.StreamContext;
import io.sluice.api.types.DataType;
import io.sluice.api.types.StructField;
import io.sluice.api.types.StructType;

import java.util.Optional;

/**
 * The {@code socket} source, following Spark's {@code TextSocketSourceProvider}: UTF-8 text lines read from a TCP
 * connection, for tutorials and debugging only (nothing is replayable after a restart).
 *
 * <p>Options: {@code host} and {@code port} (required), {@code includeTimestamp} (default false: adds a
 * {@code timestamp} column, the time the line was read), {@code numPartitions} (default: the number of cores;
 * lines are dealt round-robin). Schema {@code value string} (+ {@code timestamp timestamp}).
 */
public final class SocketSourceProvider implements SourceProvider, DriverLocalReaders {
    static final StructType SCHEMA_REGULAR = StructType.of(StructField.of("value", DataType.stringType()));
    static final StructType SCHEMA_TIMESTAMP = SCHEMA_REGULAR.add("timestamp", DataType.timestampType());
    /** Declared for the name checks and the docs; {@link Settings} keeps Spark's own messages. */
    static final OptionSet OPTIONS = OptionSet.of(
            OptionDef.string("host", "the host to connect to").asRequired(),
            OptionDef.of("port", OptionDef.Type.INT, "the TCP port to connect to").asRequired(),
            OptionDef.bool("includeTimestamp", false, "adds a timestamp column: when the line was read"),
            SparkOptions.NUM_PARTITIONS);

    @Override
    public String shortName() {
        return "socket";
    }

    @Override
    public OptionSet options() {
        return OPTIONS;
    }

    @Override
    public Optional<StructType> fixedSchema(Options options) {
        return Optional.of(Settings.of(options).includeTimestamp() ? SCHEMA_TIMESTAMP : SCHEMA_REGULAR);
    }

    @Override
    public String driverLocalReason() {
        return "its rows are the lines that stream received, kept in its memory: use Spark's own socket source, "
                + "format(\"socket\")";
    }

    @Override
    public MicroBatchStream createStream(StreamContext context) {
        return new SocketStream(Settings.of(context.options()), context.clock());
    }

    record Settings(String host, int port, boolean includeTimestamp, int numPartitions) {

        static Settings of(Options options) {
            String host = options.get("host").orElseThrow(() -> new InvalidOptionException("host", null,
                    "Set a host to read from with option(\"host\", ...).", true));
            String port = options.get("port").orElseThrow(() -> new InvalidOptionException("port", null,
                    "Set a port to read from with option(\"port\", ...).", true));
            int portNumber;
            try {
                portNumber = Integer.parseInt(port.trim());
            } catch (NumberFormatException e) {
                throw new InvalidOptionException("port", port, "a whole number (int) is accepted");
            }
            if (portNumber < 0 || portNumber > 65535) {
                throw new InvalidOptionException("port", port, "a TCP port between 0 and 65535 is accepted");
            }
            String ts = options.get("includeTimestamp").orElse("false").trim();
            if (!ts.equalsIgnoreCase("true") && !ts.equalsIgnoreCase("false")) {
                throw new InvalidOptionException("includeTimestamp", ts,
                        "includeTimestamp must be set to either \"true\" or \"false\"", true);
            }
            return new Settings(host, portNumber, Boolean.parseBoolean(ts.toLowerCase(java.util.Locale.ROOT)),
                    SparkOptions.numPartitions(options));
        }
    }
}
