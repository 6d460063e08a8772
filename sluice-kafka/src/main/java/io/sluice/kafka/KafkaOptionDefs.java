package io.sluice.kafka;

import io.sluice.api.OptionDef;
import io.sluice.api.OptionSet;

import java.util.List;

import static io.sluice.api.OptionDef.bool;
import static io.sluice.api.OptionDef.string;

/**
 * The Kafka source's and sink's options, declared once for the engine's name checks and the docs
 * (docs/sources/kafka.md, docs/sinks/kafka.md): a misspelt {@code startingOffset} fails instead of starting at
 * latest. {@link KafkaSourceOptions} and {@link KafkaSinkOptions} check the values with Spark's messages; every
 * {@code kafka.*} option goes to the clients and is never unknown.
 */
final class KafkaOptionDefs {
    private static final OptionDef BOOTSTRAP = string(KafkaClientOptions.BOOTSTRAP, "the brokers, host:port,...")
            .asRequired();

    static final OptionSet SOURCE = OptionSet.of(
            string("subscribe", "a comma list of topics"),
            string("subscribePattern", "a Java regex of topics"),
            OptionDef.of("assign", OptionDef.Type.JSON, "the topic partitions to read"),
            BOOTSTRAP,
            OptionDef.of("startingOffsets", OptionDef.Type.JSON, "where a new query starts: earliest, latest or "
                    + "JSON").withDefaultText("latest (streaming), earliest (bounded)"),
            OptionDef.of("startingOffsetsByTimestamp", OptionDef.Type.JSON, "per partition, a start timestamp"),
            OptionDef.of("startingTimestamp", OptionDef.Type.LONG, "a start timestamp for every partition"),
            OptionDef.oneOf("startingOffsetsByTimestampStrategy", "error", List.of("error", "latest"),
                    "what a partition without a record at that time does"),
            OptionDef.of("endingOffsets", OptionDef.Type.JSON, "bounded reads: where the read ends")
                    .withDefault("latest"),
            OptionDef.of("endingOffsetsByTimestamp", OptionDef.Type.JSON, "bounded reads: per partition, an end "
                    + "timestamp"),
            OptionDef.of("endingTimestamp", OptionDef.Type.LONG, "bounded reads: an end timestamp"),
            OptionDef.of("maxOffsetsPerTrigger", OptionDef.Type.LONG, "the most offsets a batch takes"),
            OptionDef.of("minOffsetsPerTrigger", OptionDef.Type.LONG, "the fewest offsets a batch waits for"),
            OptionDef.of("maxTriggerDelay", OptionDef.Type.DURATION, "the longest wait for minOffsetsPerTrigger")
                    .withDefault("15m"),
            OptionDef.of("minPartitions", OptionDef.Type.INT, "large ranges are split into about this many tasks"),
            OptionDef.of("maxRecordsPerPartition", OptionDef.Type.LONG, "the most offsets of one task"),
            bool("failOnDataLoss", true, "fail when offsets were lost"),
            OptionDef.longValue("kafkaConsumer.pollTimeoutMs", 120_000, "how long a task waits for a record"),
            OptionDef.integer("fetchOffset.numRetries", 3, "retries of offset look-ups"),
            OptionDef.longValue("fetchOffset.retryIntervalMs", 10, "the pause between them"),
            string("groupIdPrefix", "the consumers' generated group id prefix").withDefault("spark-kafka-source"),
            bool("includeHeaders", false, "adds the headers column"),
            OptionDef.of("consumerPoolCapacity", OptionDef.Type.INT, "idle pooled consumers kept").withDefault("64"),
            OptionDef.of("consumerPoolIdleTimeout", OptionDef.Type.DURATION, "idle consumers older than this close")
                    .withDefault("5m"),
            string("commitOffsetsToGroup", "a consumer group the batches' end offsets are committed to"))
            .withPrefixes(KafkaClientOptions.PREFIX);

    static final OptionSet SINK = OptionSet.of(
            BOOTSTRAP,
            string(KafkaSinkOptions.TOPIC, "the topic of every record; else each row's topic column"),
            bool(KafkaSinkOptions.EXACTLY_ONCE, false, "one Kafka transaction per batch"),
            string(KafkaSinkOptions.TRANSACTIONAL_ID_PREFIX, "the transactional id prefix (exactlyOnce)")
                    .withDefaultText("sluice-<query id>"))
            .withPrefixes(KafkaClientOptions.PREFIX);

    private KafkaOptionDefs() {
    }
}
