package io.sluice.core.sources;

import io.sluice.api.Offset;
import io.sluice.api.Row;
import io.sluice.api.types.StructType;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Rows added by a test, read by a query through the {@code memory} source: the twin of Spark's MemoryStream.
 *
 * <pre>{@code
 * MemoryStream input = MemoryStream.create(StructType.of(StructField.of("id", DataType.longType())));
 * sluice.readStream().format("memory").option("name", input.name()).load() ...
 * input.addData(Row.of(1L), Row.of(2L));   // one block: the offset moves from 0 to 1
 * }</pre>
 *
 * <p>Each {@code addData} call is one block and moves the offset by one; the offset is the number of blocks added
 * (a bare JSON number, 0 before any). A batch reads the blocks after its start up to its end, one partition per
 * block. Blocks stay until the query commits past them, so a batch can be replayed as long as this object lives.
 * Every stream gets a unique name ({@code memory-stream-<n>}) under which the {@code memory} source finds it in
 * this JVM. Thread-safe.
 */
public final class MemoryStream {
    private static final AtomicLong IDS = new AtomicLong();
    private static final Map<String, MemoryStream> REGISTRY = new ConcurrentHashMap<>();

    private final String name;
    private final StructType schema;
    // Guarded by this. blocks.get(i) is block number discarded + i + 1.
    private final List<List<Row>> blocks = new ArrayList<>();
    private long discarded;

    private MemoryStream(String name, StructType schema) {
        this.name = name;
        this.schema = schema;
    }

    /** A new stream of rows of {@code schema}, registered under a fresh unique name. */
    public static MemoryStream create(StructType schema) {
        Objects.requireNonNull(schema, "schema");
        MemoryStream s = new MemoryStream("memory-stream-" + IDS.incrementAndGet(), schema);
        REGISTRY.put(s.name, s);
        return s;
    }

    static Optional<MemoryStream> find(String name) {
        return Optional.ofNullable(REGISTRY.get(name));
    }

    /** The name to pass as the {@code memory} source's {@code name} option. */
    public String name() {
        return name;
    }

    public StructType schema() {
        return schema;
    }

    /** Adds one block of rows; returns the offset that now ends it. */
    public Offset addData(Row... rows) {
        return addData(Arrays.asList(rows));
    }

    /** Adds one block of rows (an empty list adds an empty block); returns the offset that now ends it. */
    public Offset addData(List<Row> rows) {
        Objects.requireNonNull(rows, "rows");
        List<Row> block = new ArrayList<>(rows.size());
        for (int i = 0; i < rows.size(); i++) {
            Row r = rows.get(i);
            if (r == null) {
                throw new NullPointerException("Row " + i + " of the block is null");
            }
            if (r.size() != schema.size()) {
                throw new IllegalArgumentException("Row " + i + " " + r + " has " + r.size() + " values but "
                        + name + " has schema " + schema.simpleString() + " (" + schema.size() + " columns)");
            }
            block.add(r.schema() == null ? r.attach(schema) : r);
        }
        List<Row> frozen = List.copyOf(block);
        synchronized (this) {
            blocks.add(frozen);
            return new LongOffset(discarded + blocks.size());
        }
    }

    /** The offset after the last block added. */
    public synchronized Offset currentOffset() {
        return new LongOffset(discarded + blocks.size());
    }

    /** Removes the stream from the JVM-wide registry; queries that already read it keep working. */
    public void unregister() {
        REGISTRY.remove(name, this);
    }

    synchronized long latest() {
        return discarded + blocks.size();
    }

    /** Checks that the blocks after {@code start} up to and including {@code end} are all still held. */
    synchronized void checkRange(long start, long end) {
        if (start > end) {
            throw new IllegalArgumentException("The start offset " + start + " of " + name
                    + " is beyond the end offset " + end);
        }
        if (start < discarded) {
            throw new IllegalStateException("MemoryStream " + name + " cannot replay blocks " + (start + 1) + " to "
                    + end + ": blocks up to " + discarded + " were discarded by commit. A MemoryStream replays only"
                    + " blocks not yet committed, while the object lives");
        }
        if (end > discarded + blocks.size()) {
            throw new IllegalStateException("MemoryStream " + name + " has only " + (discarded + blocks.size())
                    + " blocks, but blocks up to " + end + " were asked for. Is the checkpoint from another"
                    + " MemoryStream or an earlier JVM?");
        }
    }

    /** The rows of block {@code number} (1 for the first block added). */
    synchronized List<Row> block(long number) {
        if (number <= discarded) {
            throw new IllegalStateException("MemoryStream " + name + " cannot replay block " + number
                    + ": blocks up to " + discarded + " were discarded by commit");
        }
        if (number > discarded + blocks.size()) {
            throw new IllegalStateException("MemoryStream " + name + " has no block " + number);
        }
        return blocks.get((int) (number - discarded - 1));
    }

    /** Discards the blocks up to and including {@code end}. */
    synchronized void commit(long end) {
        if (end < discarded) {
            throw new IllegalStateException("Offsets committed out of order on " + name + ": " + discarded
                    + " followed by " + end);
        }
        int drop = (int) Math.min(end - discarded, blocks.size());
        blocks.subList(0, drop).clear();
        discarded += drop;
    }

    @Override
    public String toString() {
        return "MemoryStream[" + String.join(",", schema.fieldNames()) + "]";
    }
}
