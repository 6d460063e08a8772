package io.sluice.core.sinks;

import io.sluice.api.Options;
import io.sluice.api.Row;
import io.sluice.api.SluiceClock;
import io.sluice.api.sink.BatchWriter;
import io.sluice.api.sink.PartitionWriter;
import io.sluice.api.sink.Sink;
import io.sluice.api.sink.SinkContext;
import io.sluice.api.types.StructType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class NoopSinkTest {
    @TempDir
    Path dir;

    @Test
    void countsTheRowsOfEachBatch() throws Exception {
        NoopSinkProvider provider = new NoopSinkProvider();
        assertThat(provider.shortName()).isEqualTo("noop");
        provider.validate(Options.empty());
        Sink sink = provider.createSink(new SinkContext(Options.empty(), StructType.empty(), dir, "q", null,
                SluiceClock.system()));

        BatchWriter w = sink.beginBatch(0);
        PartitionWriter p0 = w.partitionWriter(0);
        PartitionWriter p1 = w.partitionWriter(1);
        for (int i = 0; i < 3; i++) {
            p0.write(Row.of(i));
        }
        for (int i = 0; i < 4; i++) {
            p1.write(Row.of(i));
        }
        Object r0 = p0.commit();
        Object r1 = p1.commit();
        assertThat(w.numOutputRows()).isEqualTo(-1);
        w.commit(List.of(r0, r1));
        assertThat(w.numOutputRows()).isEqualTo(7);

        BatchWriter empty = sink.beginBatch(1);
        empty.commit(List.of(empty.partitionWriter(0).commit()));
        assertThat(empty.numOutputRows()).isZero();
        sink.close();
    }
}
