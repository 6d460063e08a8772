package io.sluice.core;

import io.sluice.api.OptionSet;
import io.sluice.api.Options;
import io.sluice.api.datasource.DataSource;
import io.sluice.api.datasource.DataSourceContext;
import io.sluice.api.datasource.DataSourceReader;
import io.sluice.api.datasource.DataSourceStreamReader;
import io.sluice.api.datasource.SimpleDataSourceStreamReader;
import io.sluice.api.datasource.SourceContractException;
import io.sluice.api.datasource.SupportsAvailableNow;
import io.sluice.api.source.MicroBatchStream;
import io.sluice.api.source.SourceProvider;
import io.sluice.api.source.StreamContext;
import io.sluice.api.types.StructType;

import java.util.Objects;
import java.util.Optional;

/**
 * Turns a high-level {@link DataSource} into the engine's {@link SourceProvider}, so checkpoint, triggers, read
 * limits, availableNow and progress apply to it unchanged.
 */
final class DataSourceAdapter implements SourceProvider {
    private final DataSource source;

    DataSourceAdapter(DataSource source) {
        this.source = Objects.requireNonNull(source, "dataSource");
        String name = source.name();
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("Data source " + source.getClass().getName() + " has no name()");
        }
    }

    DataSource dataSource() {
        return source;
    }

    @Override
    public String shortName() {
        return source.name();
    }

    /** The data source's own declarations: the engine checks option names against them as for any source. */
    @Override
    public OptionSet options() {
        return source.options();
    }

    /** A user schema takes the place of the source's, as in PySpark; the source's {@code schema} still validates. */
    @Override
    public StructType resolveSchema(Options options, Optional<StructType> userSchema) {
        StructType own = source.schema(options);
        if (own == null && userSchema.isEmpty()) {
            throw new IllegalArgumentException("Data source '" + source.name() + "' returned no schema");
        }
        return userSchema.orElse(own);
    }

    @Override
    public MicroBatchStream createStream(StreamContext c) {
        DataSourceContext context = new DataSourceContext(c.options(), c.schema(), c.metadataPath(), c.clock(),
                c.queryId(), c.bounded());
        String name = source.name();
        if (c.bounded()) {
            DataSourceReader batch = source.reader(context);
            if (batch != null) {
                return new DataSourceBatchStream(name, batch, c.schema());
            }
        }
        DataSourceStreamReader<?> reader = source.streamReader(context);
        if (reader != null) {
            return reader instanceof SupportsAvailableNow
                    ? new DataSourceStream.AvailableNow(name, reader, c.schema())
                    : new DataSourceStream(name, reader, c.schema());
        }
        SimpleDataSourceStreamReader<?> simple = source.simpleStreamReader(context);
        if (simple != null) {
            return new SimpleDataSourceStream(name, simple, c.schema());
        }
        throw new SourceContractException("Data source '" + name + "' has no stream reader: implement "
                + "streamReader(context) or simpleStreamReader(context)");
    }

    @Override
    public String toString() {
        return "DataSource[" + source.name() + ", " + source.getClass().getName() + "]";
    }
}
