package io.sluice.core;

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

    StreamFrame(Sluice sluice, DataStreamReader.SourceSpec source) {
        this(sluice, source, source.schema(), List.of());
    }

    private StreamFrame(Sluice sluice, DataStreamReader.SourceSpec source, StructType schema,
                        List<RowOperator> operators) {
        this.sluice = sluice;
        this.source = source;
        this.schema = schema;
        this.operators = List.copyOf(operators);
    }

    /** The schema of the rows this frame produces (after its transformations). */
    public StructType schema() {
        return schema;
    }

    /** A new frame: this one followed by one more per-row step producing {@code newSchema}. */
    StreamFrame with(RowOperator operator, StructType newSchema) {
        List<RowOperator> ops = new ArrayList<>(operators);
        ops.add(operator);
        return new StreamFrame(sluice, source, newSchema, ops);
    }

    List<RowOperator> operators() {
        return operators;
    }

    Sluice sluice() {
        return sluice;
    }

    /** Always true: every frame here is a stream. */
    public boolean isStreaming() {
        return true;
    }

    public DataStreamWriter writeStream() {
        return new DataStreamWriter(sluice, this);
    }

    DataStreamReader.SourceSpec source() {
        return source;
    }

    @Override
    public String toString() {
        return "StreamFrame[" + source.provider().shortName() + ": " + schema.simpleString() + "]";
    }
}
