package io.sluice.core.sources;

import io.sluice.api.Offset;
import io.sluice.api.Options;
import io.sluice.api.Row;
import io.sluice.api.SluiceClock;
import io.sluice.api.source.InputPartition;
import io.sluice.api.source.MicroBatchStream;
import io.sluice.api.source.PartitionReader;
import io.sluice.api.source.SourceProvider;
import io.sluice.api.source.StreamContext;
import io.sluice.api.types.StructType;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Drives a source through the contract the way the engine does. */
final class StreamDriver {
    private StreamDriver() {
    }

    static MicroBatchStream create(SourceProvider provider, Map<String, String> options, Path metadataPath,
                                   SluiceClock clock) {
        Options opts = Options.of(options);
        StructType schema = provider.resolveSchema(opts, Optional.empty());
        return provider.createStream(new StreamContext(opts, schema, metadataPath, clock, "query-1", 0));
    }

    /** The rows of (start, end], one list per planned partition, in partition order. */
    static List<List<Row>> readPartitions(MicroBatchStream stream, Offset start, Offset end) {
        List<List<Row>> out = new ArrayList<>();
        for (InputPartition p : stream.planPartitions(start, end)) {
            List<Row> rows = new ArrayList<>();
            try (PartitionReader r = stream.createReader(p)) {
                while (r.next()) {
                    rows.add(r.get());
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            out.add(rows);
        }
        return out;
    }

    /** All rows of (start, end], partitions concatenated in order. */
    static List<Row> read(MicroBatchStream stream, Offset start, Offset end) {
        List<Row> all = new ArrayList<>();
        readPartitions(stream, start, end).forEach(all::addAll);
        return all;
    }
}
