package io.sluice.kafka;

import org.apache.kafka.common.KafkaException;

/**
 * Kafka brokers did not answer within the time a setting allows. The message is always
 * {@code Could not reach the Kafka brokers at <servers> (<servers setting>) within <time> (<timeout setting>): <cause>},
 * e.g. {@code Could not reach the Kafka brokers at localhost:1 (kafka.bootstrap.servers) within 30 s
 * (kafka.default.api.timeout.ms): org.apache.kafka.common.errors.TimeoutException: Timed out waiting for a node
 * assignment. Call: listTopics}.
 */
public final class KafkaUnreachableException extends KafkaException {
    private final transient KafkaCalls.Target target;

    KafkaUnreachableException(KafkaCalls.Target target, Throwable cause) {
        super("Could not reach the Kafka brokers at " + target.bootstrapServers() + " (" + target.bootstrapSetting()
                + ") within " + KafkaCalls.duration(target.timeoutMs()) + " (" + target.timeoutSetting() + "): "
                + cause, cause);
        this.target = target;
    }

    /** The brokers, the settings and the time-out the message names. */
    public KafkaCalls.Target target() {
        return target;
    }
}
