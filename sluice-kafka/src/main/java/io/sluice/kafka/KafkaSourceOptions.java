package io.sluice.kafka;

import io.sluice.api.Durations;
import io.sluice.api.InvalidOptionException;
import io.sluice.api.Options;
import org.apache.kafka.common.TopicPartition;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * The Kafka source's options, parsed and checked once with Spark's wording (KafkaSourceProvider's checks), so that
 * every mistake fails {@code load()} (or, for the streaming/batch-only checks, {@code start()} / the read).
 */
record KafkaSourceOptions(
        Strategy strategy,
        Map<String, Object> clientParams,
        StartSpec starting,
        StartSpec ending,
        boolean noMatchLatest,
        boolean failOnDataLoss,
        long pollTimeoutMs,
        int fetchOffsetNumRetries,
        long fetchOffsetRetryIntervalMs,
        Optional<Long> maxOffsetsPerTrigger,
        Optional<Long> minOffsetsPerTrigger,
        long maxTriggerDelayMs,
        Optional<Integer> minPartitions,
        Optional<Long> maxRecordsPerPartition,
        String groupIdPrefix,
        Optional<String> customGroupId,
        boolean includeHeaders,
        Optional<String> commitOffsetsToGroup,
        int consumerPoolCapacity,
        long consumerPoolIdleTimeoutMs,
        long apiTimeoutMs) {

    static final String DATA_LOSS_FAIL = "Some data may have been lost because they are not available in Kafka any"
            + " more; either the data was aged out by Kafka or the topic may have been deleted before all the data"
            + " in the topic was processed. If you don't want your streaming query to fail on such cases, set the"
            + " source option \"failOnDataLoss\" to \"false\".";
    static final String DATA_LOSS_WARN = "Some data may have been lost because they are not available in Kafka any"
            + " more; either the data was aged out by Kafka or the topic may have been deleted before all the data"
            + " in the topic was processed. If you want your streaming query to fail on such cases, set the source"
            + " option \"failOnDataLoss\" to \"true\".";

    /** Which partitions the source reads. */
    sealed interface Strategy {
        /** {@code subscribe}: a fixed list of topics. */
        record Subscribe(List<String> topics) implements Strategy {
            @Override
            public String toString() {
                return "Subscribe[" + String.join(", ", topics) + "]";
            }
        }

        /** {@code subscribePattern}: topics in which the regex finds a match (internal topics excluded). */
        record SubscribePattern(Pattern pattern) implements Strategy {
            @Override
            public String toString() {
                return "SubscribePattern[" + pattern.pattern() + "]";
            }
        }

        /** {@code assign}: fixed partitions. */
        record Assign(List<TopicPartition> partitions) implements Strategy {
            @Override
            public String toString() {
                return "Assign[" + String.join(", ", partitions.stream().map(TopicPartition::toString).toList()) + "]";
            }
        }
    }

    /** Validates everything that does not depend on streaming versus bounded. */
    static KafkaSourceOptions parse(Options o) {
        Strategy strategy = strategy(o);
        if (o.contains("minPartitions") && o.getInt("minPartitions").get() <= 0) {
            throw new InvalidOptionException("minPartitions", o.get("minPartitions").get(),
                    "minPartitions must be positive", true);
        }
        if (o.contains("maxRecordsPerPartition") && o.getLong("maxRecordsPerPartition").get() <= 0) {
            throw new InvalidOptionException("maxRecordsPerPartition", o.get("maxRecordsPerPartition").get(),
                    "maxrecordsperpartition must be positive", true);
        }
        KafkaClientOptions.validateConsumerOptions(o);
        Optional<Long> max = positiveLong(o, "maxOffsetsPerTrigger");
        Optional<Long> min = positiveLong(o, "minOffsetsPerTrigger");
        if (min.isPresent() && max.isPresent() && min.get() > max.get()) {
            throw new InvalidOptionException("minOffsetsPerTrigger", min.get().toString(),
                    "The value of minOffsetPerTrigger(" + min.get() + ") is higher than the maxOffsetsPerTrigger("
                            + max.get() + ").", true);
        }
        long maxTriggerDelay = Durations.timeStringAsMs("maxTriggerDelay", o.get("maxTriggerDelay", "15m"));
        StartSpec starting = spec(o, "startingTimestamp", "startingOffsetsByTimestamp", "startingOffsets");
        StartSpec ending = spec(o, "endingTimestamp", "endingOffsetsByTimestamp", "endingOffsets");
        String strategyOnNoMatch = o.get("startingOffsetsByTimestampStrategy", "error").trim();
        if (!strategyOnNoMatch.equalsIgnoreCase("error") && !strategyOnNoMatch.equalsIgnoreCase("latest")) {
            throw new InvalidOptionException("startingOffsetsByTimestampStrategy", strategyOnNoMatch,
                    "'error' or 'latest' is accepted");
        }
        long pollTimeout = nonNegative(o, "kafkaConsumer.pollTimeoutMs", 120_000L);
        int retries = (int) nonNegative(o, "fetchOffset.numRetries", 3);
        long retryInterval = nonNegative(o, "fetchOffset.retryIntervalMs", 10);
        String prefix = o.get("groupIdPrefix", "spark-kafka-source");
        Optional<String> commitGroup = o.get("commitOffsetsToGroup").map(String::trim);
        if (commitGroup.isPresent() && commitGroup.get().isEmpty()) {
            throw new InvalidOptionException("commitOffsetsToGroup", "", "a consumer group id is accepted");
        }
        int capacity = positiveLong(o, "consumerPoolCapacity").orElse(64L).intValue();
        long idle = Durations.timeStringAsMs("consumerPoolIdleTimeout", o.get("consumerPoolIdleTimeout", "5m"));
        return new KafkaSourceOptions(strategy, KafkaClientOptions.clientParams(o), starting, ending,
                strategyOnNoMatch.equalsIgnoreCase("latest"), o.getBoolean("failOnDataLoss", true), pollTimeout,
                retries, retryInterval, max, min, maxTriggerDelay, o.getInt("minPartitions"),
                o.getLong("maxRecordsPerPartition"), prefix, o.get("kafka.group.id"),
                o.getBoolean("includeHeaders", false), commitGroup, capacity, idle,
                KafkaClientOptions.timeoutMs(o, KafkaClientOptions.DEFAULT_API_TIMEOUT));
    }

    /**
     * The brokers and the bound on one client call ({@code kafka.default.api.timeout.ms}, default 30 s): a call
     * that times out is not retried, so unreachable brokers fail a look-up within that bound.
     */
    KafkaCalls.Target target() {
        return KafkaClientOptions.target(clientParams, apiTimeoutMs, KafkaClientOptions.DEFAULT_API_TIMEOUT);
    }

    /** Spark's streaming checks: no ending options. Returns the starting position (default latest). */
    static StartSpec streamingStart(Options o, KafkaSourceOptions parsed) {
        if (o.contains("endingOffsets")) {
            throw new InvalidOptionException("endingOffsets", o.get("endingOffsets").get(),
                    "ending offset not valid in streaming queries", true);
        }
        if (o.contains("endingOffsetsByTimestamp")) {
            throw new InvalidOptionException("endingOffsetsByTimestamp", o.get("endingOffsetsByTimestamp").get(),
                    "ending timestamp not valid in streaming queries", true);
        }
        if (o.contains("endingTimestamp")) {
            throw new InvalidOptionException("endingTimestamp", o.get("endingTimestamp").get(),
                    "ending timestamp not valid in streaming queries", true);
        }
        return parsed.starting() == null ? new StartSpec.Latest() : parsed.starting();
    }

    /** Spark's batch checks: start defaults to earliest and may not be latest; the end may not be earliest. */
    static StartSpec[] boundedRange(KafkaSourceOptions parsed) {
        StartSpec start = parsed.starting() == null ? new StartSpec.Earliest() : parsed.starting();
        StartSpec end = parsed.ending() == null ? new StartSpec.Latest() : parsed.ending();
        if (start instanceof StartSpec.Latest) {
            throw new InvalidOptionException("startingOffsets", "latest",
                    "starting offset can't be latest for batch queries on Kafka", true);
        }
        if (start instanceof StartSpec.Specific s) {
            s.offsets().forEach((tp, off) -> {
                if (off == StartSpec.LATEST) {
                    throw new InvalidOptionException("startingOffsets", PartitionOffsets.json(s.offsets()),
                            "startingOffsets for " + tp + " can't be latest for batch queries on Kafka", true);
                }
            });
        }
        if (end instanceof StartSpec.Earliest) {
            throw new InvalidOptionException("endingOffsets", "earliest",
                    "ending offset can't be earliest for batch queries on Kafka", true);
        }
        if (end instanceof StartSpec.Specific s) {
            s.offsets().forEach((tp, off) -> {
                if (off == StartSpec.EARLIEST) {
                    throw new InvalidOptionException("endingOffsets", PartitionOffsets.json(s.offsets()),
                            "ending offset for " + tp + " can't be earliest for batch queries on Kafka", true);
                }
            });
        }
        return new StartSpec[] {start, end};
    }

    private static Strategy strategy(Options o) {
        List<String> keys = List.of("subscribe", "subscribePattern", "assign");
        List<String> given = keys.stream().filter(o::contains).toList();
        if (given.isEmpty()) {
            throw new InvalidOptionException("subscribe", null, "One of the following options must be specified for"
                    + " Kafka source: subscribe, subscribepattern, assign. See the docs for more details.", true);
        }
        if (given.size() > 1) {
            throw new InvalidOptionException(given.get(1), o.get(given.get(1)).get(), "Only one of the following"
                    + " options can be specified for Kafka source: subscribe, subscribepattern, assign. See the docs"
                    + " for more details.", true);
        }
        String key = given.get(0);
        String value = o.get(key).get();
        switch (key) {
            case "assign" -> {
                if (!value.trim().startsWith("{")) {
                    throw new InvalidOptionException(key, value,
                            "No topicpartitions to assign as specified value for option 'assign' is '" + value + "'",
                            true);
                }
                try {
                    return new Strategy.Assign(PartitionOffsets.parsePartitions(value));
                } catch (IllegalArgumentException e) {
                    throw new InvalidOptionException(key, value, e.getMessage(), true);
                }
            }
            case "subscribe" -> {
                List<String> topics = java.util.Arrays.stream(value.split(",")).map(String::trim)
                        .filter(s -> !s.isEmpty()).toList();
                if (topics.isEmpty()) {
                    throw new InvalidOptionException(key, value,
                            "No topics to subscribe to as specified value for option 'subscribe' is '" + value + "'",
                            true);
                }
                return new Strategy.Subscribe(topics);
            }
            default -> {
                String pattern = value.trim();
                if (pattern.isEmpty()) {
                    throw new InvalidOptionException(key, value, "Pattern to subscribe is empty as specified value"
                            + " for option 'subscribePattern' is '" + value + "'", true);
                }
                try {
                    return new Strategy.SubscribePattern(Pattern.compile(pattern));
                } catch (PatternSyntaxException e) {
                    throw new InvalidOptionException(key, value,
                            "a Java regular expression is accepted (" + e.getDescription() + ")");
                }
            }
        }
    }

    /** Timestamp beats per-partition timestamps beats offsets, as in Spark; null when none is given. */
    private static StartSpec spec(Options o, String globalKey, String byTimestampKey, String offsetsKey) {
        if (o.contains(globalKey)) {
            String v = o.get(globalKey).get();
            try {
                return new StartSpec.GlobalTimestamp(Long.parseLong(v.trim()));
            } catch (NumberFormatException e) {
                throw new InvalidOptionException(globalKey, v, "a timestamp in milliseconds since the epoch is accepted");
            }
        }
        if (o.contains(byTimestampKey)) {
            String v = o.get(byTimestampKey).get();
            try {
                return new StartSpec.PerPartitionTimestamp(PartitionOffsets.parse(v).offsets());
            } catch (IllegalArgumentException e) {
                throw new InvalidOptionException(byTimestampKey, v, "Expected e.g. {\"topicA\": {\"0\": 123456789,"
                        + " \"1\": 123456789}, \"topicB\": {\"0\": 123456789, \"1\": 123456789}}, got " + v, true);
            }
        }
        if (o.contains(offsetsKey)) {
            String v = o.get(offsetsKey).get();
            String t = v.trim().toLowerCase(Locale.ROOT);
            if (t.equals("latest")) {
                return new StartSpec.Latest();
            }
            if (t.equals("earliest")) {
                return new StartSpec.Earliest();
            }
            try {
                return new StartSpec.Specific(PartitionOffsets.parse(v.trim()).offsets());
            } catch (IllegalArgumentException e) {
                throw new InvalidOptionException(offsetsKey, v, e.getMessage(), true);
            }
        }
        return null;
    }

    private static Optional<Long> positiveLong(Options o, String key) {
        Optional<Long> v = o.getLong(key);
        if (v.isPresent() && v.get() <= 0) {
            throw new InvalidOptionException(key, o.get(key).get(), "must be positive");
        }
        return v;
    }

    private static long nonNegative(Options o, String key, long dflt) {
        long v = o.getLong(key, dflt);
        if (v < 0) {
            throw new InvalidOptionException(key, o.get(key).get(), "must not be negative");
        }
        return v;
    }
}
