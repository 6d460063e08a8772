package io.sluice.api.sink;

import io.sluice.api.Row;
import org.junit.jupiter.api.Test;

import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;

class BatchWriterTest {

    @Test
    void aDiscardingWriterTakesRowsWritesNothingAndReportsTheGivenCount() throws Exception {
        BatchWriter skipped = BatchWriter.discarding(-1);
        PartitionWriter p = skipped.partitionWriter(0);
        p.write(Row.of(1L, "a"));
        assertThat(p.commit()).isNull();
        skipped.commit(Arrays.asList(p.commit(), null));
        assertThat(skipped.numOutputRows()).isEqualTo(-1);
        assertThat(BatchWriter.discarding(0).numOutputRows()).isZero();
    }
}
