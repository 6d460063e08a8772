package io.sluice.core;

import io.sluice.api.types.StructType;

/**
 * An unbounded table of rows from a source: what {@code readStream().load()} returns, the twin of a streaming
 * DataFrame. Immutable. Start a query on it with {@link #writeStream()}.
 */
public final class StreamFrame {
    private final Sluice sluice;
    private final DataStreamReader.SourceSpec source;

    StreamFrame(Sluice sluice, DataStreamReader.SourceSpec source) {
        this.sluice = sluice;
        this.source = source;
    }

    public StructType schema() {
        return source.schema();
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
        return "StreamFrame[" + source.provider().shortName() + ": " + schema().simpleString() + "]";
    }
}
