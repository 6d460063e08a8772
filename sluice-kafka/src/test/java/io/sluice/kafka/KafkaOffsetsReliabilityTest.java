package io.sluice.kafka;

import io.sluice.core.StreamingQuery;
import io.sluice.core.Trigger;
import io.sluice.core.CorruptCheckpointException;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Issue 14: a Kafka offsets file edited to go backwards is refused, naming each partition that went back. */
class KafkaOffsetsReliabilityTest extends KafkaTestBase {

    private void runOnce(String topic, Path chk) throws Exception {
        StreamingQuery q = toMemory(kafka().option("subscribe", topic).option("startingOffsets", "earliest").load(),
                chk, Trigger.availableNow());
        assertThat(q.awaitTermination(60_000)).isTrue();
    }

    @Test
    void aPartitionWhoseLoggedEndWentBackwardsIsNamed() throws Exception {
        String t = createTopic("backwards", 3);
        Path chk = tmp.resolve("chk");
        for (int p = 0; p < 3; p++) {
            sendRange(t, p, 0, 5);
        }
        runOnce(t, chk);
        for (int p = 0; p < 3; p++) {
            sendRange(t, p, 5, 8);
        }
        runOnce(t, chk);
        Path offsets1 = chk.resolve("offsets/1");
        List<String> lines = Files.readAllLines(offsets1);
        assertThat(lines.get(2)).isEqualTo("{\"" + t + "\":{\"0\":8,\"1\":8,\"2\":8}}");
        // Partition 0 moved forward (skipping is not what this check is about), 1 and 2 went back.
        Files.writeString(offsets1, lines.get(0) + "\n" + lines.get(1) + "\n{\"" + t + "\":{\"0\":8,\"1\":2,\"2\":4}}");

        assertThatThrownBy(() -> runOnce(t, chk)).isExactlyInstanceOf(CorruptCheckpointException.class)
                .hasMessage("Checkpoint file " + offsets1.toAbsolutePath() + " is corrupt or incomplete (the end it "
                        + "logs for source 0 (KafkaV2[Subscribe[" + t + "]]) is before the end of the previous batch "
                        + "in " + chk.resolve("offsets/0").toAbsolutePath() + ": partition " + t + "-1: 2 is before "
                        + "5; partition " + t + "-2: 4 is before 5 (a topic deleted and recreated also resets its offsets: if "
                        + "that is what happened, restart with failOnDataLoss=false to accept the data loss and read on"
                        + " from the new offsets); offsets never go backwards, so one of the two "
                        + "files was edited or copied from another checkpoint). Resuming would read that data again "
                        + "(duplicates). Put back the file as the query wrote it (from a backup), or restore the "
                        + "checkpoint from a backup or start over with a new checkpoint location.");
        assertThat(received()).hasSize(24).doesNotHaveDuplicates();
    }
}
