package io.sluice.core;

import io.sluice.api.Row;
import io.sluice.api.types.StructType;

import java.util.ArrayList;
import java.util.List;

/**
 * An unbounded table of rows from a source: what {@code readStream().load()} returns, the twin of a streaming
 * DataFrame. Immutable. Start a query on it with {@link #writeStream()}.
 */
public final class StreamFrame {
    private final Sluice sluice;
    private final DataStreamReader.SourceSpec source;
    private final StructType schema;
    private final List<RowOperator> operators;
    private final boolean bounded;

    StreamFrame(Sluice sluice, DataStreamReader.SourceSpec source, boolean bounded) {
        this(sluice, source, source.schema(), List.of(), bounded);
    }

    private StreamFrame(Sluice sluice, DataStreamReader.SourceSpec source, StructType schema,
                        List<RowOperator> operators, boolean bounded) {
        this.sluice = sluice;
        this.source = source;
        this.schema = schema;
        this.operators = List.copyOf(operators);
        this.bounded = bounded;
    }

    /** The schema of the rows this frame produces (after its transformations). */
    public StructType schema() {
        return schema;
    }

    /** A new frame: this one followed by one more per-row step producing {@code newSchema}. */
    StreamFrame with(RowOperator operator, StructType newSchema) {
        List<RowOperator> ops = new ArrayList<>(operators);
        ops.add(operator);
        return new StreamFrame(sluice, source, newSchema, ops, bounded);
    }

    List<RowOperator> operators() {
        return operators;
    }

    Sluice sluice() {
        return sluice;
    }

    /** True for a frame from {@link Sluice#readStream()}, false for a one-off read from {@link Sluice#read()}. */
    public boolean isStreaming() {
        return !bounded;
    }

    /**
     * Starts describing the query that writes this stream.
     *
     * @throws IllegalStateException on a frame from {@link Sluice#read()}
     */
    public DataStreamWriter writeStream() {
        if (bounded) {
            throw new IllegalStateException("'writeStream' can be called only on a streaming frame (from "
                    + "readStream()); this one comes from read(): use collectAsList() or count()");
        }
        return new DataStreamWriter(sluice, this);
    }

    /**
     * Reads everything of a one-off read ({@link Sluice#read()}) now, through this frame's transformations, and
     * returns the rows in partition order.
     *
     * @throws IllegalStateException on a streaming frame, as Spark: a stream is run with writeStream().start()
     * @throws Exception whatever the source's readers throw
     */
    public List<Row> collectAsList() throws Exception {
        requireBounded("collectAsList");
        return BoundedRead.collect(this);
    }

    /** The number of rows {@link #collectAsList()} would return. */
    public long count() throws Exception {
        requireBounded("count");
        return BoundedRead.collect(this).size();
    }

    private void requireBounded(String what) {
        if (!bounded) {
            throw new IllegalStateException("Queries with streaming sources must be executed with "
                    + "writeStream().start(); '" + what + "' works only on a frame from read()");
        }
    }

    DataStreamReader.SourceSpec source() {
        return source;
    }

    @Override
    public String toString() {
        return "StreamFrame[" + source.provider().shortName() + ": " + schema.simpleString() + "]";
    }
}
