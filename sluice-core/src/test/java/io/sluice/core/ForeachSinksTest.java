package io.sluice.core;

import io.sluice.api.InvalidOptionException;
import io.sluice.api.Row;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** foreachBatch and foreach through the engine: deliveries, order of calls, failures and re-delivery. */
class ForeachSinksTest extends EngineTestBase {

    private DataStreamWriter writer() {
        return scripted().load().writeStream().option("checkpointLocation", checkpoint.toString());
    }

    private static List<Long> values(List<Row> rows) {
        List<Long> out = new ArrayList<>();
        rows.forEach(r -> out.add(r.getLong(0)));
        return out;
    }

    // ---------------------------------------------------------------- foreachBatch

    @Test
    void foreachBatchReceivesEachBatchOnceInOrderWithItsRows() throws Exception {
        List<Long> ids = Collections.synchronizedList(new ArrayList<>());
        Map<Long, List<Long>> rows = Collections.synchronizedMap(new TreeMap<>());
        List<String> names = Collections.synchronizedList(new ArrayList<>());
        StreamingQuery q = writer().foreachBatch((batch, id) -> {
            ids.add(id);
            rows.put(id, values(batch.rows()));
            assertThat(batch.count()).isEqualTo(batch.rows().size());
            assertThat(batch.isEmpty()).isFalse();
            assertThat(batch.schema()).isEqualTo(ScriptedSource.SCHEMA);
            names.add(String.valueOf(batch.rows().get(0).<Long>getAs("value")));
        }).start();
        source.add(4);
        q.processAllAvailable();
        source.add(2);
        q.processAllAvailable();
        q.stop();

        assertThat(ids).containsExactly(0L, 1L);
        // Partitions in order: 1..2 and 3..4, then 5 and 6.
        assertThat(rows).containsExactly(Map.entry(0L, List.of(1L, 2L, 3L, 4L)), Map.entry(1L, List.of(5L, 6L)));
        assertThat(names).containsExactly("1", "5");
        assertThat(q.lastProgress().sink().description()).isEqualTo("ForeachBatchSink");
        assertThat(q.exception()).isEmpty();
    }

    @Test
    void aFailingFunctionFailsTheQueryAndTheBatchIsDeliveredAgainOnRestart() throws Exception {
        List<String> deliveries = Collections.synchronizedList(new ArrayList<>());
        AtomicBoolean failOnce = new AtomicBoolean(true);
        ForeachBatchFunction f = (batch, id) -> {
            deliveries.add(id + ":" + values(batch.rows()));
            if (id == 1 && failOnce.getAndSet(false)) {
                throw new java.io.IOException("database unavailable");
            }
        };
        source.add(3);
        StreamingQuery q = writer().foreachBatch(f).start();
        q.processAllAvailable();
        source.add(2);
        assertThatThrownBy(q::processAllAvailable).isInstanceOf(StreamingQueryException.class)
                .hasRootCauseMessage("database unavailable");
        assertThat(q.isActive()).isFalse();
        assertThat(exists("commits/1")).isFalse();

        StreamingQuery again = writer().foreachBatch(f).start();
        again.processAllAvailable();
        source.add(1);
        again.processAllAvailable();
        again.stop();
        assertThat(deliveries).containsExactly("0:[1, 2, 3]", "1:[4, 5]", "1:[4, 5]", "2:[6]");
    }

    @Test
    void foreachBatchRefusesPartitioningAndNeedsACheckpoint() {
        assertThatThrownBy(() -> writer().partitionBy("value").foreachBatch((b, id) -> { }).start())
                .isInstanceOf(InvalidOptionException.class)
                .hasMessage("'foreachBatch' does not support partitioning");
        assertThatThrownBy(() -> scripted().load().writeStream().foreachBatch((b, id) -> { }).start())
                .isInstanceOf(InvalidOptionException.class)
                .hasMessage("checkpointLocation must be specified with option(\"checkpointLocation\", \"<dir>\") "
                        + "for the 'foreachBatch' sink, so the query can recover after a restart");
    }

    // ---------------------------------------------------------------- foreach

    /** Records every call, tagged with the partition it was opened for. */
    private static final class Recording extends ForeachWriter {
        static final List<String> EVENTS = Collections.synchronizedList(new ArrayList<>());
        private final boolean accept;
        private final long failAt;
        private String tag;

        Recording(boolean accept, long failAt) {
            this.accept = accept;
            this.failAt = failAt;
        }

        @Override
        public boolean open(long partitionId, long epochId) {
            tag = "p" + partitionId + "/e" + epochId;
            EVENTS.add(tag + " open");
            return accept;
        }

        @Override
        public void process(Row row) {
            if (row.<Long>getAs("value") == failAt) {
                throw new IllegalArgumentException("cannot write " + failAt);
            }
            EVENTS.add(tag + " process " + row.getLong(0));
        }

        @Override
        public void close(Throwable errorOrNull) {
            EVENTS.add(tag + " close " + (errorOrNull == null ? null : errorOrNull.getMessage()));
        }
    }

    private static List<String> eventsOf(String tag) {
        synchronized (Recording.EVENTS) {
            return Recording.EVENTS.stream().filter(e -> e.startsWith(tag + " ")).toList();
        }
    }

    @Test
    void foreachOpensProcessesAndClosesEachPartitionInOrder() throws Exception {
        Recording.EVENTS.clear();
        source.add(4);
        StreamingQuery q = writer().foreach(() -> new Recording(true, -1)).start();
        q.processAllAvailable();
        q.stop();
        assertThat(eventsOf("p0/e0")).containsExactly("p0/e0 open", "p0/e0 process 1", "p0/e0 process 2",
                "p0/e0 close null");
        assertThat(eventsOf("p1/e0")).containsExactly("p1/e0 open", "p1/e0 process 3", "p1/e0 process 4",
                "p1/e0 close null");
        assertThat(Recording.EVENTS).hasSize(8);
        assertThat(q.lastProgress().sink().numOutputRows()).isEqualTo(4);
        assertThat(q.lastProgress().sink().description()).isEqualTo("ForeachSink");
    }

    @Test
    void openReturningFalseSkipsTheRowsButStillCloses() throws Exception {
        Recording.EVENTS.clear();
        source.add(2);
        StreamingQuery q = writer().foreach(() -> new Recording(false, -1)).start();
        q.processAllAvailable();
        q.stop();
        assertThat(Recording.EVENTS).containsExactlyInAnyOrder("p0/e0 open", "p0/e0 close null", "p1/e0 open",
                "p1/e0 close null");
    }

    @Test
    void anErrorInProcessIsPassedToCloseAndFailsTheQuery() throws Exception {
        Recording.EVENTS.clear();
        source.add(4);
        StreamingQuery q = writer().foreach(() -> new Recording(true, 2)).start();
        assertThatThrownBy(q::processAllAvailable).isInstanceOf(StreamingQueryException.class)
                .hasRootCauseMessage("cannot write 2");
        assertThat(eventsOf("p0/e0")).containsExactly("p0/e0 open", "p0/e0 process 1", "p0/e0 close cannot write 2");
        assertThat(exists("commits/0")).isFalse();
    }

    @Test
    void aReadFailureClosesTheWriterWithTheAbortError() throws Exception {
        Recording.EVENTS.clear();
        source.add(2);
        source.failReadingAtRow = 2;
        StreamingQuery q = scripted().option("numPartitions", 1).load().writeStream()
                .option("checkpointLocation", checkpoint.toString()).foreach(() -> new Recording(true, -1)).start();
        assertThatThrownBy(q::processAllAvailable).isInstanceOf(StreamingQueryException.class)
                .hasRootCauseMessage("scripted read failure at row 2");
        assertThat(Recording.EVENTS).containsExactly("p0/e0 open", "p0/e0 process 1",
                "p0/e0 close Foreach writer has been aborted due to a task failure");
    }

    @Test
    void aSingleWriterInstanceServesEveryPartition() throws Exception {
        List<Long> seen = Collections.synchronizedList(new ArrayList<>());
        ForeachWriter shared = new ForeachWriter() {
            @Override
            public boolean open(long partitionId, long epochId) {
                return true;
            }

            @Override
            public void process(Row row) {
                seen.add(row.getLong(0));
            }

            @Override
            public void close(Throwable errorOrNull) {
            }
        };
        source.add(6);
        StreamingQuery q = writer().foreach(shared).start();
        q.processAllAvailable();
        q.stop();
        assertThat(seen).containsExactlyInAnyOrder(1L, 2L, 3L, 4L, 5L, 6L);
        assertThatThrownBy(() -> writer().partitionBy("value").foreach(shared).start())
                .isInstanceOf(InvalidOptionException.class)
                .hasMessage("'foreach' does not support partitioning");
    }
}
