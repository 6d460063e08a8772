package io.sluice.kafka;

import io.sluice.api.source.InputPartition;
import org.apache.kafka.common.TopicPartition;

/** Offsets {@code [fromOffset, untilOffset)} of one topic-partition: one reader task. */
record KafkaInputPartition(TopicPartition topicPartition, long fromOffset, long untilOffset) implements InputPartition {
    long size() {
        return untilOffset - fromOffset;
    }
}
