package io.sluice.testkit;

import io.sluice.api.ReadLimit;
import io.sluice.api.Row;
import io.sluice.api.types.StructType;
import io.sluice.core.ManualClock;
import io.sluice.core.Sluice;
import io.sluice.core.sources.MemoryStream;
import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The kit on every replayable built-in source of sluice-core. (The file source is checked in sluice-files'
 * tests; the socket source, which cannot replay, in {@link SocketSourceContractTest}.)
 */
class BuiltInSourcesContractTest {

    @Test
    void rateMicroBatch() {
        SourceContract.forFormat("rate-micro-batch").option("rowsPerBatch", 7).option("numPartitions", 3).check();
    }

    @Test
    void rateMicroBatchUnderARowLimit() {
        SourceContract.forFormat("rate-micro-batch").option("rowsPerBatch", 7).readLimit(ReadLimit.maxRows(7))
                .batches(4).check();
    }

    @Test
    void rateOnAManualClock() {
        ManualClock clock = new ManualClock(1_700_000_000_000L);
        try (Sluice sluice = Sluice.builder().clock(clock).build()) {
            SourceContract.forFormat("rate").option("rowsPerSecond", 5).option("numPartitions", 2)
                    .option("rampUpTime", 2).sluice(sluice).beforeEachTrigger(n -> clock.advance(1000)).check();
        }
    }

    @Test
    void memory() {
        MemoryStream stream = MemoryStream.create(StructType.fromDDL("id bigint, name string"));
        AtomicLong next = new AtomicLong();
        try {
            SourceContract.forFormat("memory").option("name", stream.name()).beforeEachTrigger(n -> {
                for (int i = 0; i < n; i++) {
                    long id = next.incrementAndGet();
                    stream.addData(Row.of(id, "n" + id));
                }
            }).check();
        } finally {
            stream.unregister();
        }
    }
}
