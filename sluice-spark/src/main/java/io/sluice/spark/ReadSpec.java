package io.sluice.spark;

import io.sluice.api.Options;
import io.sluice.api.SluiceClock;
import io.sluice.api.source.StreamContext;
import org.apache.spark.sql.types.StructType;

import java.io.Serializable;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Everything an executor needs to rebuild a source's stream and read a partition: the source's name, the user's
 * options, the schema (Spark's StructType: Serializable, and it keeps containsNull flags DDL cannot), the query id,
 * the source's index and whether the read is bounded.
 */
record ReadSpec(String source, LinkedHashMap<String, String> options, StructType schema, String queryId,
                int sourceIndex, boolean bounded) implements Serializable {
    private static final long serialVersionUID = 1L;

    ReadSpec(String source, Map<String, String> options, StructType schema, String queryId, int sourceIndex,
             boolean bounded) {
        this(source, new LinkedHashMap<>(options), schema, queryId, sourceIndex, bounded);
    }

    Options sluiceOptions() {
        return Options.of(options);
    }

    StreamContext context(Path metadataPath) {
        return new StreamContext(sluiceOptions(), SparkTypes.toSluice(schema), metadataPath, SluiceClock.system(),
                queryId, sourceIndex, bounded);
    }
}
