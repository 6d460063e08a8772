package io.sluice.kafka;

import io.sluice.api.InvalidOptionException;
import io.sluice.api.Options;
import io.sluice.api.types.StructType;
import io.sluice.core.Sluice;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Option checks, no broker needed: every message as Spark words it. */
class KafkaSourceOptionsTest {
    private final KafkaSourceProvider provider = new KafkaSourceProvider();

    private static Map<String, String> base() {
        Map<String, String> m = new HashMap<>();
        m.put("kafka.bootstrap.servers", "localhost:1");
        m.put("subscribe", "t");
        return m;
    }

    private void fails(Map<String, String> options, String message) {
        assertThatThrownBy(() -> provider.resolveSchema(Options.of(options), Optional.empty()))
                .isInstanceOf(IllegalArgumentException.class).hasMessage(message);
    }

    private Map<String, String> with(String k, String v) {
        Map<String, String> m = base();
        m.put(k, v);
        return m;
    }

    @Test
    void strategies() {
        Map<String, String> none = base();
        none.remove("subscribe");
        fails(none, "One of the following options must be specified for Kafka source: subscribe, subscribepattern,"
                + " assign. See the docs for more details.");
        fails(with("ASSIGN", "{\"t\":[0]}"), "Only one of the following options can be specified for Kafka source:"
                + " subscribe, subscribepattern, assign. See the docs for more details.");
        fails(with("subscribe", " , "), "No topics to subscribe to as specified value for option 'subscribe' is ' , '");
        Map<String, String> assign = base();
        assign.remove("subscribe");
        assign.put("assign", "t:0");
        fails(assign, "No topicpartitions to assign as specified value for option 'assign' is 't:0'");
        assign.put("assign", "{\"t\":0}");
        fails(assign, "Expected e.g. {\"topicA\":[0,1],\"topicB\":[0,1]}, got {\"t\":0}");
        Map<String, String> pattern = base();
        pattern.remove("subscribe");
        pattern.put("subscribePattern", "  ");
        fails(pattern, "Pattern to subscribe is empty as specified value for option 'subscribePattern' is '  '");
    }

    @Test
    void refusedClientSettings() {
        fails(with("kafka.auto.offset.reset", "earliest"), "Kafka option 'auto.offset.reset' is not supported.\n"
                + "Instead set the source option 'startingoffsets' to 'earliest' or 'latest'\n"
                + "to specify where to start. Structured Streaming manages which offsets are consumed\n"
                + "internally, rather than relying on the kafkaConsumer to do it. This will ensure that no\n"
                + "data is missed when new topics/partitions are dynamically subscribed. Note that\n"
                + "'startingoffsets' only applies when a new Streaming query is started, and\n"
                + "that resuming will always pick up from where the query left off. See the docs for more\n"
                + "details.");
        fails(with("kafka.key.deserializer", "x"), "Kafka option 'key.deserializer' is not supported as keys are"
                + " deserialized as byte arrays with ByteArrayDeserializer. Use DataFrame operations to explicitly"
                + " deserialize the keys.");
        fails(with("kafka.value.deserializer", "x"), "Kafka option 'value.deserializer' is not supported as values"
                + " are deserialized as byte arrays with ByteArrayDeserializer. Use DataFrame operations to"
                + " explicitly deserialize the values.");
        fails(with("kafka.enable.auto.commit", "true"), "Kafka option 'enable.auto.commit' is not supported. The"
                + " source tracks offsets in the checkpoint; to let lag tools see them, set the source option"
                + " 'commitOffsetsToGroup'.");
        fails(with("kafka.interceptor.classes", "x"), "Kafka option 'interceptor.classes' is not supported."
                + " Interceptors may change records, which would break replaying a batch with the same rows.");
        Map<String, String> noBootstrap = base();
        noBootstrap.remove("kafka.bootstrap.servers");
        fails(noBootstrap, "Option 'kafka.bootstrap.servers' must be specified for configuring Kafka consumer");
    }

    @Test
    void numbersAndLimits() {
        fails(with("minPartitions", "0"), "minPartitions must be positive");
        fails(with("maxRecordsPerPartition", "-1"), "maxrecordsperpartition must be positive");
        Map<String, String> m = with("minOffsetsPerTrigger", "10");
        m.put("maxOffsetsPerTrigger", "5");
        fails(m, "The value of minOffsetPerTrigger(10) is higher than the maxOffsetsPerTrigger(5).");
        fails(with("maxOffsetsPerTrigger", "0"), "Invalid value '0' for option 'maxOffsetsPerTrigger': must be positive");
        fails(with("maxOffsetsPerTrigger", "x"),
                "Invalid value 'x' for option 'maxOffsetsPerTrigger': a whole number (long) is accepted");
        fails(with("maxTriggerDelay", "5 parsecs"), "Time must be specified as seconds (s), milliseconds (ms),"
                + " microseconds (us), minutes (m or min), hour (h), or day (d). E.g. 50s, 100ms, or 250us.\n"
                + "Failed to parse time string: 5 parsecs");
        fails(with("failOnDataLoss", "maybe"), "Invalid value 'maybe' for option 'failOnDataLoss': true or false is accepted");
        fails(with("startingOffsets", "{\"t\":1}"),
                "Expected e.g. {\"topicA\":{\"0\":23,\"1\":-1},\"topicB\":{\"0\":-2}}, got {\"t\":1}");
        fails(with("startingTimestamp", "yesterday"),
                "Invalid value 'yesterday' for option 'startingTimestamp': a timestamp in milliseconds since the epoch is accepted");
        fails(with("startingOffsetsByTimestampStrategy", "closest"),
                "Invalid value 'closest' for option 'startingOffsetsByTimestampStrategy': 'error' or 'latest' is accepted");
        fails(with("commitOffsetsToGroup", " "),
                "Invalid value '' for option 'commitOffsetsToGroup': a consumer group id is accepted");
    }

    @Test
    void fixedSchemaWithOrWithoutHeaders() {
        assertThat(provider.resolveSchema(Options.of(base()), Optional.empty()).toDDL()).isEqualTo(
                KafkaSourceProvider.SCHEMA.toDDL());
        assertThat(provider.resolveSchema(Options.of(with("includeHeaders", "true")), Optional.empty()).simpleString())
                .isEqualTo("struct<key:binary,value:binary,topic:string,partition:int,offset:bigint,"
                        + "timestamp:timestamp,timestampType:int,headers:array<struct<key:string,value:binary>>>");
        fails2(StructType.fromDDL("value string"));
    }

    private void fails2(StructType schema) {
        assertThatThrownBy(() -> provider.resolveSchema(Options.of(base()), Optional.of(schema)))
                .hasMessage("Kafka source has a fixed schema and cannot be set with a custom one");
    }

    @Test
    void streamingAndBatchOnlyChecks() {
        KafkaSourceOptions parsed = KafkaSourceOptions.parse(Options.of(with("endingOffsets", "latest")));
        assertThatThrownBy(() -> KafkaSourceOptions.streamingStart(Options.of(with("endingOffsets", "latest")), parsed))
                .isInstanceOf(InvalidOptionException.class).hasMessage("ending offset not valid in streaming queries");
        assertThatThrownBy(() -> KafkaSourceOptions.streamingStart(Options.of(with("endingTimestamp", "1")), parsed))
                .hasMessage("ending timestamp not valid in streaming queries");
        assertThatThrownBy(() -> KafkaSourceOptions.boundedRange(
                KafkaSourceOptions.parse(Options.of(with("startingOffsets", "latest")))))
                .hasMessage("starting offset can't be latest for batch queries on Kafka");
        assertThatThrownBy(() -> KafkaSourceOptions.boundedRange(
                KafkaSourceOptions.parse(Options.of(with("startingOffsets", "{\"t\":{\"0\":-1}}")))))
                .hasMessage("startingOffsets for t-0 can't be latest for batch queries on Kafka");
        assertThatThrownBy(() -> KafkaSourceOptions.boundedRange(
                KafkaSourceOptions.parse(Options.of(with("endingOffsets", "earliest")))))
                .hasMessage("ending offset can't be earliest for batch queries on Kafka");
        assertThatThrownBy(() -> KafkaSourceOptions.boundedRange(
                KafkaSourceOptions.parse(Options.of(with("endingOffsets", "{\"t\":{\"0\":-2}}")))))
                .hasMessage("ending offset for t-0 can't be earliest for batch queries on Kafka");
    }

    @Test
    void clientParamsKeepThePrefixedSettingsAndMaskSecrets() {
        Map<String, String> m = with("kafka.security.protocol", "SASL_SSL");
        m.put("kafka.sasl.jaas.config", "secret-stuff");
        m.put("kafka.ssl.key.password", "pw");
        m.put("KAFKA.Max.Poll.Records", "7");
        Map<String, Object> params = KafkaClientOptions.clientParams(Options.of(m));
        assertThat(params).containsEntry("security.protocol", "SASL_SSL").containsEntry("max.poll.records", "7").containsEntry("sasl.jaas.config", "secret-stuff")
                .containsEntry("bootstrap.servers", "localhost:1").doesNotContainKey("subscribe");
        assertThat(KafkaClientOptions.redacted(params).toString()).doesNotContain("secret-stuff").doesNotContain("=pw")
                .contains("sasl.jaas.config=*****");
    }

    @Test
    void executorConsumersPollFewRecordsOfLargeFetchesUnlessTheUserSaysOtherwise() {
        Map<String, Object> defaults = KafkaMicroBatchStream.consumerParams(
                KafkaSourceOptions.parse(Options.of(with("subscribe", "t"))), "g");
        assertThat(defaults).containsEntry("max.poll.records", 1_000)
                .containsEntry("max.partition.fetch.bytes", 8 * 1024 * 1024)
                .containsEntry("receive.buffer.bytes", 1024 * 1024).containsEntry("group.id", "g")
                .containsEntry("enable.auto.commit", false).containsEntry("auto.offset.reset", "none");

        Map<String, String> m = with("subscribe", "t");
        m.put("kafka.max.poll.records", "50");
        m.put("kafka.max.partition.fetch.bytes", "65536");
        Map<String, Object> chosen = KafkaMicroBatchStream.consumerParams(KafkaSourceOptions.parse(Options.of(m)), "g");
        assertThat(chosen).containsEntry("max.poll.records", "50").containsEntry("max.partition.fetch.bytes", "65536");
    }

    @Test
    void loadRefusesTheOptionsThatTheKindOfReadDoesNotTake() {
        try (Sluice sluice = Sluice.local()) {
            assertThatThrownBy(() -> sluice.readStream().format("kafka").options(with("endingOffsets", "latest")).load())
                    .isInstanceOf(InvalidOptionException.class)
                    .hasMessage("ending offset not valid in streaming queries");
            assertThatThrownBy(() -> sluice.readStream().format("kafka").options(with("endingTimestamp", "5")).load())
                    .isInstanceOf(InvalidOptionException.class)
                    .hasMessage("ending timestamp not valid in streaming queries");
            assertThatThrownBy(() -> sluice.read().format("kafka").options(with("startingOffsets", "latest")).load())
                    .isInstanceOf(InvalidOptionException.class)
                    .hasMessage("starting offset can't be latest for batch queries on Kafka");
            assertThatThrownBy(() -> sluice.read().format("kafka").options(with("endingOffsets", "earliest")).load())
                    .isInstanceOf(InvalidOptionException.class)
                    .hasMessage("ending offset can't be earliest for batch queries on Kafka");
            // Each kind of read takes what the other refuses; nothing connects to the (absent) broker at load().
            assertThat(sluice.read().format("kafka").options(with("endingOffsets", "latest")).load().isStreaming())
                    .isFalse();
            assertThat(sluice.readStream().format("kafka").options(with("startingOffsets", "latest")).load()
                    .isStreaming()).isTrue();
        }
    }
}
