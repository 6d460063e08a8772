package io.sluice.spark;

import io.sluice.api.Offset;
import io.sluice.api.ReadLimit;
import io.sluice.api.Row;
import io.sluice.api.types.StructType;
import io.sluice.api.source.InputPartition;
import io.sluice.api.source.MicroBatchStream;
import io.sluice.api.source.PartitionReader;
import io.sluice.api.source.SourceProvider;
import io.sluice.api.source.StreamContext;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

/** {@code format("all-types")}: three fixed rows with a column of every Sluice type, in one batch. */
public final class AllTypesSource implements SourceProvider {
    static final StructType SCHEMA = StructType.fromDDL("b boolean, i8 tinyint, i16 smallint, i32 int, i64 bigint, "
            + "f float, d double, dec decimal(20,4), s string, bin binary, day date, ts timestamp, "
            + "arr array<int>, m map<string,bigint>, st struct<x: string, y: array<struct<z: date>>> NOT NULL");

    static List<Row> rows() {
        Map<String, Long> m = new LinkedHashMap<>();
        m.put("one", 1L);
        m.put("none", null);
        return List.of(
                Row.of(true, (byte) -128, (short) 32767, Integer.MIN_VALUE, Long.MAX_VALUE, 1.5f, -2.25e300,
                        new BigDecimal("1234567890123456.7890"), "héllo, wörld ✓", new byte[] {0, 1, -1},
                        LocalDate.of(2026, 2, 28), Instant.parse("2026-11-29T09:17:00.123456Z"),
                        Arrays.asList(1, null, 3), m,
                        Row.of("x", List.of(Row.of(LocalDate.of(1969, 12, 31))))),
                Row.of(null, null, null, null, null, null, null, null, null, null, null, null, null, null,
                        Row.of(null, null)),
                Row.of(false, (byte) 0, (short) -1, 0, -1L, Float.NaN, Double.NEGATIVE_INFINITY,
                        new BigDecimal("-0.0001"), "", new byte[0], LocalDate.of(1, 1, 1),
                        Instant.parse("1960-01-01T00:00:00.000001Z"), List.of(), Map.of(),
                        Row.of("", List.of())));
    }

    @Override
    public String shortName() {
        return "all-types";
    }

    @Override
    public Optional<StructType> fixedSchema(io.sluice.api.Options options) {
        return Optional.of(SCHEMA);
    }

    /** Every context a stream was made with, driver's and executors', for checks of what the bridge passes. */
    static final Queue<StreamContext> CONTEXTS = new ConcurrentLinkedQueue<>();

    @Override
    public MicroBatchStream createStream(StreamContext context) {
        CONTEXTS.add(context);
        return new Stream();
    }

    record Part(int rows) implements InputPartition {
    }

    static final class Stream implements MicroBatchStream {
        @Override
        public Offset initialOffset() {
            return Offset.of("0");
        }

        @Override
        public Offset deserializeOffset(String json) {
            return Offset.of(json);
        }

        @Override
        public Offset latestOffset(Offset start, ReadLimit limit) {
            return Offset.of("1");
        }

        @Override
        public List<InputPartition> planPartitions(Offset start, Offset end) {
            return start.json().equals("0") ? List.of(new Part(3)) : List.of();
        }

        @Override
        public PartitionReader createReader(InputPartition partition) {
            List<Row> all = rows();
            return new PartitionReader() {
                private int next = -1;

                @Override
                public boolean next() {
                    return ++next < all.size();
                }

                @Override
                public Row get() {
                    return all.get(next);
                }

                @Override
                public void close() {
                }
            };
        }

        @Override
        public void stop() {
        }
    }
}
