package io.sluice.kafka;

import io.sluice.api.Row;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class KafkaBoundedReadTest extends KafkaTestBase {

    private String timedTopic() throws Exception {
        // The timestamps are from 1970: with the default retention.ms (7 days) the broker's retention task (every
        // second, from 30 s after it starts) would delete these records at once, so lookups would find nothing.
        String t = createTopic("window", 2, java.util.Map.of("retention.ms", "-1"));
        long[][] ts = {{1000, 2000, 3000, 4000}, {1500, 2500, 3500}};
        for (int p = 0; p < ts.length; p++) {
            for (int i = 0; i < ts[p].length; i++) {
                producer.send(new ProducerRecord<>(t, p, ts[p][i], null, p + ":" + i)).get();
            }
        }
        return t;
    }

    @Test
    void readsEverythingByDefault() throws Exception {
        String t = timedTopic();
        List<Row> rows = sluice.read().format("kafka").option("kafka.bootstrap.servers", bootstrap)
                .option("subscribe", t).load().collectAsList();
        assertThat(sorted(describe(rows))).containsExactly("0:0=0:0", "0:1=0:1", "0:2=0:2", "0:3=0:3", "1:0=1:0",
                "1:1=1:1", "1:2=1:2");
    }

    @Test
    void aTimeWindowCountsWhatKafkaHoldsBetweenTwoTimestamps() throws Exception {
        String t = timedTopic();
        List<Row> rows = sluice.read().format("kafka").option("kafka.bootstrap.servers", bootstrap)
                .option("subscribe", t).option("startingTimestamp", "2000").option("endingTimestamp", "3500")
                .load().collectAsList();
        // [2000, 3500): 2000, 3000 on p0; 2500 on p1
        assertThat(sorted(describe(rows))).containsExactly("0:1=0:1", "0:2=0:2", "1:1=1:1");
        long count = sluice.read().format("kafka").option("kafka.bootstrap.servers", bootstrap)
                .option("subscribe", t).option("startingOffsetsByTimestamp", "{\"" + t + "\":{\"0\":0,\"1\":3000}}")
                .option("endingOffsets", "{\"" + t + "\":{\"0\":2,\"1\":-1}}").load().count();
        assertThat(count).isEqualTo(3);
    }

    @Test
    void anEndingTimestampAfterEverythingMeansLatest() throws Exception {
        String t = timedTopic();
        long count = sluice.read().format("kafka").option("kafka.bootstrap.servers", bootstrap)
                .option("subscribe", t).option("startingTimestamp", "3000").option("endingTimestamp", "99999")
                .load().count();
        assertThat(count).isEqualTo(3);
    }
}
