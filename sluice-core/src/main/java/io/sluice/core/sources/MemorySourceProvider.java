package io.sluice.core.sources;

import io.sluice.api.InvalidOptionException;
import io.sluice.api.Offset;
import io.sluice.api.OptionDef;
import io.sluice.api.OptionSet;
import io.sluice.api.Options;
import io.sluice.api.ReadLimit;
import io.sluice.api.source.DriverLocalReaders;
import io.sluice.api.source.InputPartition;
import io.sluice.api.source.MicroBatchStream;
import io.sluice.api.source.PartitionReader;
import io.sluice.api.source.SourceProvider;
import io.sluice.api.source.StreamContext;
import io.sluice.api.types.StructType;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The {@code memory} source: reads a {@link MemoryStream} of this JVM, named by the required option
 * {@code name}. The schema is the stream's.
 */
public final class MemorySourceProvider implements SourceProvider, DriverLocalReaders {
    private static final OptionSet OPTIONS = OptionSet.of(
            OptionDef.string("name", "the name() of a MemoryStream of this JVM").asRequired());

    @Override
    public String shortName() {
        return "memory";
    }

    @Override
    public OptionSet options() {
        return OPTIONS;
    }

    static MemoryStream stream(Options options) {
        String name = options.get("name").orElseThrow(() -> new InvalidOptionException("name", null,
                "The memory source needs option(\"name\", ...): the name() of a MemoryStream created with "
                        + "MemoryStream.create(schema)", true));
        return MemoryStream.find(name).orElseThrow(() -> new InvalidOptionException("name", name,
                "No MemoryStream named '" + name + "' exists in this JVM; create one with MemoryStream.create(schema)",
                true));
    }

    @Override
    public Optional<StructType> fixedSchema(Options options) {
        return Optional.of(stream(options).schema());
    }

    @Override
    public StructType resolveSchema(Options options, Optional<StructType> userSchema) {
        MemoryStream s = stream(options);
        if (userSchema.isPresent() && !userSchema.get().equals(s.schema())) {
            throw new IllegalArgumentException("MemoryStream " + s.name() + " has schema (" + s.schema().toDDL()
                    + "); a different user-specified schema (" + userSchema.get().toDDL() + ") is not accepted");
        }
        return s.schema();
    }

    @Override
    public String driverLocalReason() {
        return "its rows are the ones added to a MemoryStream of the driver's JVM: use Spark's MemoryStream in "
                + "Spark's own tests";
    }

    @Override
    public MicroBatchStream createStream(StreamContext context) {
        return new Stream(stream(context.options()));
    }

    /** A batch reads whole blocks, one partition per block. */
    private static final class Stream implements MicroBatchStream {
        private final MemoryStream source;

        Stream(MemoryStream source) {
            this.source = source;
        }

        @Override
        public Offset initialOffset() {
            return new LongOffset(0);
        }

        @Override
        public Offset deserializeOffset(String json) {
            return LongOffset.parse(json, "memory");
        }

        @Override
        public Optional<String> wentBackwards(Offset previousEnd, Offset end) {
            return LongOffset.wentBackwards(previousEnd, end, "memory", "offset");
        }

        @Override
        public Offset latestOffset(Offset start, ReadLimit limit) {
            long latest = source.latest();
            if (start != null && latest <= LongOffset.of(start, "memory")) {
                return start;
            }
            return new LongOffset(latest);
        }

        @Override
        public List<InputPartition> planPartitions(Offset start, Offset end) {
            long s = LongOffset.of(start, "memory");
            long e = LongOffset.of(end, "memory");
            source.checkRange(s, e);
            List<InputPartition> parts = new ArrayList<>((int) (e - s));
            for (long b = s + 1; b <= e; b++) {
                parts.add(new Block(b));
            }
            return parts;
        }

        @Override
        public PartitionReader createReader(InputPartition partition) {
            return new RowListReader(source.block(((Block) partition).number()));
        }

        @Override
        public void commit(Offset end) {
            source.commit(LongOffset.of(end, "memory"));
        }

        @Override
        public void stop() {
        }

        @Override
        public String description() {
            return source.toString();
        }
    }

    /** One block, by number (1 for the first block the stream was given). */
    record Block(long number) implements InputPartition {
    }
}
