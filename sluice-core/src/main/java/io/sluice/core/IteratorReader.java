package io.sluice.core;

import io.sluice.api.Row;
import io.sluice.api.datasource.SourceContractException;
import io.sluice.api.source.PartitionReader;
import io.sluice.api.types.StructType;

import java.io.IOException;
import java.util.Iterator;

/** A {@link PartitionReader} over the iterator a high-level reader returns; checks each row's width. */
final class IteratorReader implements PartitionReader {
    private final String source;
    private final Iterator<Row> rows;
    private final StructType schema;
    private Row current;

    IteratorReader(String source, Iterator<Row> rows, StructType schema) {
        if (rows == null) {
            throw new SourceContractException("Data source '" + source + "': read(partition) returned null");
        }
        this.source = source;
        this.rows = rows;
        this.schema = schema;
    }

    @Override
    public boolean next() {
        if (!rows.hasNext()) {
            return false;
        }
        Row r = rows.next();
        if (r == null) {
            throw new SourceContractException("Data source '" + source + "' returned a null row");
        }
        if (r.size() != schema.size()) {
            throw new SourceContractException("Data source '" + source + "' returned a row of " + r.size()
                    + " values " + r + " for a schema of " + schema.size() + " columns (" + schema.toDDL() + ")");
        }
        current = r;
        return true;
    }

    @Override
    public Row get() {
        return current;
    }

    @Override
    public void close() throws IOException {
        if (rows instanceof AutoCloseable c) {
            try {
                c.close();
            } catch (IOException | RuntimeException e) {
                throw e;
            } catch (Exception e) {
                throw new IOException(e);
            }
        }
    }
}
