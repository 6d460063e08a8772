package io.sluice.testkit;

import io.sluice.api.Options;
import io.sluice.api.ReadLimit;
import io.sluice.api.Row;
import io.sluice.api.datasource.DataSource;
import io.sluice.api.datasource.DataSourceContext;
import io.sluice.api.datasource.DataSourceStreamReader;
import io.sluice.api.source.InputPartition;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The kit on high-level data sources: a good one passes, each kind of bad one is caught with the rule and range. */
class DataSourceContractTest {
    /** How much data exists; shared by every reader of one source. */
    static final AtomicLong AVAILABLE = new AtomicLong();

    record Seq(long seq) {
    }

    record Slice(long from, long to) implements InputPartition {
    }

    /** Sequence numbers 1..available, 10 more per trigger, in partitions of at most 4; the flaws are switchable. */
    static class Numbers implements DataSource {
        final String name;

        Numbers(String name) {
            this.name = name;
        }

        @Override
        public String name() {
            return name;
        }

        @Override
        public String schemaDdl(Options options) {
            return "seq bigint";
        }

        /** The rows of a slice; flawed sources override it. */
        Iterator<Row> rows(Slice s) {
            List<Row> rows = new ArrayList<>();
            for (long n = s.from() + 1; n <= s.to(); n++) {
                rows.add(Row.of(n));
            }
            return rows.iterator();
        }

        List<Slice> slices(long from, long to) {
            List<Slice> out = new ArrayList<>();
            for (long s = from; s < to; s += 4) {
                out.add(new Slice(s, Math.min(to, s + 4)));
            }
            return out;
        }

        long latest(long start) {
            return AVAILABLE.get();
        }

        @Override
        public DataSourceStreamReader<?> streamReader(DataSourceContext context) {
            return new DataSourceStreamReader<Seq>() {
                @Override
                public Class<?> offsetType() {
                    return Seq.class;
                }

                @Override
                public Seq initialOffset() {
                    return new Seq(0);
                }

                @Override
                public Seq latestOffset() {
                    return new Seq(AVAILABLE.get());
                }

                @Override
                public Seq latestOffset(Seq start, ReadLimit limit) {
                    return new Seq(latest(start.seq()));
                }

                @Override
                public List<? extends InputPartition> partitions(Seq start, Seq end) {
                    return slices(start.seq(), end.seq());
                }

                @Override
                public Iterator<Row> read(InputPartition partition) {
                    return rows((Slice) partition);
                }
            };
        }
    }

    private static SourceContract contract(Numbers source) {
        AVAILABLE.set(0);
        return SourceContract.forDataSource(source).beforeEachTrigger(n -> AVAILABLE.addAndGet(10));
    }

    @Nested
    class AGoodSourcePassesThroughTheJUnitBaseClass extends SourceContractTest {
        @Override
        protected SourceContract contract() {
            return DataSourceContractTest.contract(new Numbers("numbers"));
        }
    }

    @Test
    void aSourceThatLosesARowOnTheSecondReadIsNotReplayable() {
        AtomicInteger reads = new AtomicInteger();
        Numbers flaky = new Numbers("flaky") {
            @Override
            Iterator<Row> rows(Slice s) {
                List<Row> rows = new ArrayList<>();
                super.rows(s).forEachRemaining(rows::add);
                // From the second read of the batch (10, 20] on, its last row is lost.
                if (s.to() == 20 && reads.incrementAndGet() > 1) {
                    rows.remove(rows.size() - 1);
                }
                return rows.iterator();
            }
        };
        assertThatThrownBy(() -> contract(flaky).check()).isInstanceOf(ContractViolation.class)
                .hasMessage("rule 'replayable' broke on range {\"seq\":10} -> {\"seq\":20}: second read returned "
                        + "9 rows, first 10")
                .satisfies(e -> {
                    ContractViolation v = (ContractViolation) e;
                    assertThat(v.rule()).isEqualTo("replayable");
                    assertThat(v.range()).isEqualTo("{\"seq\":10} -> {\"seq\":20}");
                });
    }

    @Test
    void overlappingPartitionsBreakRangesCompose() {
        Numbers overlapping = new Numbers("overlapping") {
            @Override
            List<Slice> slices(long from, long to) {
                return List.of(new Slice(Math.max(0, from - 1), to));
            }
        };
        assertThatThrownBy(() -> contract(overlapping).check())
                .hasMessage("rule 'ranges-compose' broke on range {\"seq\":1} -> {\"seq\":30}: the range read whole "
                        .replace("{\"seq\":1}", "{\"seq\":0}")
                        + "returned 30 rows, its 3 batches together 32");
    }

    @Test
    void aLatestOffsetGoingBackIsCaught() {
        Numbers shaky = new Numbers("shaky") {
            @Override
            long latest(long start) {
                return start >= 20 ? 15 : AVAILABLE.get();
            }
        };
        assertThatThrownBy(() -> contract(shaky).check())
                .hasMessage("rule 'monotonic-latest' broke: latestOffset({\"seq\":20}, ReadAllAvailable) threw "
                        + "io.sluice.api.datasource.SourceContractException: Data source 'shaky': latestOffset went "
                        + "backwards from {\"seq\":20} to {\"seq\":15}; offsets must never go backwards");
    }

    @Test
    void aBatchBeyondTheReadLimitIsCaught() {
        assertThatThrownBy(() -> contract(new Numbers("greedy")).readLimit(ReadLimit.maxRows(5)).check())
                .hasMessage("rule 'read-limit' broke on range {\"seq\":0} -> {\"seq\":10}: the batch holds 10 rows "
                        + "under maxRows(5)");
    }

    @Test
    void aSourceWithoutDataCannotBeChecked() {
        AVAILABLE.set(0);
        assertThatThrownBy(() -> SourceContract.forDataSource(new Numbers("empty")).maxTriggers(3).check())
                .hasMessage("rule 'has-data' broke: the source planned 0 batches with data in 3 triggers; the kit "
                        + "needs at least 2: make data available in beforeEachTrigger");
    }
}
