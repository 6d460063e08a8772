package io.sluice.kafka;

import io.sluice.api.OptionSet;
import io.sluice.api.Options;
import io.sluice.api.source.ColumnFilter;
import io.sluice.api.source.MicroBatchStream;
import io.sluice.api.source.PushDown;
import io.sluice.api.source.StreamContext;
import io.sluice.api.source.SupportsPushDown;
import io.sluice.api.types.StructType;

import java.util.Optional;

/**
 * The {@code kafka} source for {@code readStream()} and {@code read()}, with Spark's options, schema and semantics
 * (docs/sources/kafka.md). Rows: {@code key binary, value binary, topic string, partition int, offset bigint,
 * timestamp timestamp, timestampType int}, plus {@code headers array<struct<key:string,value:binary>>} with
 * {@code includeHeaders=true}. Stateless and thread-safe: every option is checked in {@link #resolveSchema};
 * the streaming-only and batch-only checks run when the stream is built.
 */
public final class KafkaSourceProvider implements SupportsPushDown {
    /** The schema without headers. */
    public static final StructType SCHEMA = StructType.fromDDL(
            "key binary, value binary, topic string, partition int, offset bigint, timestamp timestamp,"
                    + " timestampType int");
    /** The schema with {@code includeHeaders=true}. */
    public static final StructType SCHEMA_WITH_HEADERS = StructType.fromDDL(
            "key binary, value binary, topic string, partition int, offset bigint, timestamp timestamp,"
                    + " timestampType int, headers array<struct<key: string, value: binary>>");

    @Override
    public String shortName() {
        return "kafka";
    }

    /** Declared in {@link KafkaOptionDefs}; {@code kafka.*} passes through to the clients. */
    @Override
    public OptionSet options() {
        return KafkaOptionDefs.SOURCE;
    }

    @Override
    public Optional<StructType> fixedSchema(Options options) {
        return Optional.of(options.getBoolean("includeHeaders", false) ? SCHEMA_WITH_HEADERS : SCHEMA);
    }

    @Override
    public StructType resolveSchema(Options options, Optional<StructType> userSchema) {
        validate(options, userSchema);
        return fixedSchema(options).orElseThrow();
    }

    /** Also refuses the options a one-off read or a stream does not take (ending offsets, a latest start...). */
    @Override
    public StructType resolveSchema(Options options, Optional<StructType> userSchema, boolean bounded) {
        KafkaSourceOptions parsed = validate(options, userSchema);
        if (bounded) {
            KafkaSourceOptions.boundedRange(parsed);
        } else {
            KafkaSourceOptions.streamingStart(options, parsed);
        }
        return fixedSchema(options).orElseThrow();
    }

    private static KafkaSourceOptions validate(Options options, Optional<StructType> userSchema) {
        if (userSchema.isPresent()) {
            throw new IllegalArgumentException("Kafka source has a fixed schema and cannot be set with a custom one");
        }
        KafkaSourceOptions parsed = KafkaSourceOptions.parse(options);
        KafkaClientOptions.warnOnCustomGroupId(options);
        return parsed;
    }

    /** The initial offsets ({@code sources/N/0}) are kept through the checkpoint's storage on an object store. */
    @Override
    public boolean supportsMetadataOnStorage() {
        return true;
    }

    @Override
    public MicroBatchStream createStream(StreamContext context) {
        return createStream(context, PushDown.none(context.schema()));
    }

    /** Filters on every column but {@code headers} are exact; see {@link KafkaPushDown}. */
    @Override
    public FilterUse filterUse(Options options, StructType schema, ColumnFilter filter) {
        return KafkaPushDown.use(filter);
    }

    @Override
    public MicroBatchStream createStream(StreamContext context, PushDown pushDown) {
        KafkaSourceOptions parsed = KafkaSourceOptions.parse(context.options());
        if (context.bounded()) {
            StartSpec[] range = KafkaSourceOptions.boundedRange(parsed);
            return new KafkaMicroBatchStream(parsed, range[0], range[1], context, pushDown);
        }
        return new KafkaMicroBatchStream(parsed, KafkaSourceOptions.streamingStart(context.options(), parsed), null,
                context, pushDown);
    }
}
