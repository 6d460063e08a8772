package io.sluice.spark;

import io.sluice.api.Options;
import io.sluice.api.SluiceClock;
import io.sluice.api.source.PushDown;
import io.sluice.api.source.StreamContext;
import io.sluice.values.SparkTimestamps;
import org.apache.spark.sql.internal.SQLConf;
import org.apache.spark.sql.types.StructType;

import java.io.Serializable;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Everything an executor needs to rebuild a source's stream and read a partition: the source's name, the user's
 * options, the schema (Spark's StructType: Serializable, and it keeps containsNull flags DDL cannot), the query id,
 * the source's index, whether the read is bounded, what was pushed down (the columns the rows carry to Spark), and
 * Spark's session time zone ({@code spark.sql.session.timeZone} on the driver when the scan was planned), which
 * the stream sees as {@link StreamContext#sessionTimeZone()}: executors' JVMs may run in another default zone.
 */
record ReadSpec(String source, LinkedHashMap<String, String> options, StructType schema, String queryId,
                int sourceIndex, boolean bounded, PushDown pushDown, String sessionTimeZone) implements Serializable {
    private static final long serialVersionUID = 2L;

    ReadSpec(String source, Map<String, String> options, StructType schema, String queryId, int sourceIndex,
             boolean bounded, PushDown pushDown) {
        this(source, new LinkedHashMap<>(options), schema, queryId, sourceIndex, bounded, pushDown,
                SQLConf.get().sessionLocalTimeZone());
    }

    /** A read with nothing pushed down. */
    ReadSpec(String source, Map<String, String> options, StructType schema, String queryId, int sourceIndex,
             boolean bounded) {
        this(source, options, schema, queryId, sourceIndex, bounded, PushDown.none(SparkTypes.toSluice(schema)));
    }

    Options sluiceOptions() {
        return Options.of(options);
    }

    /** The context of a stream whose private folder is on a store ({@code metadataPath} null), on the driver. */
    StreamContext context(StoredSourceFolder folder) {
        return new StreamContext(sluiceOptions(), SparkTypes.toSluice(schema), null, SluiceClock.system(), queryId,
                sourceIndex, bounded, SparkTimestamps.zoneId(sessionTimeZone), folder.location(), folder.storage());
    }

    StreamContext context(Path metadataPath) {
        return new StreamContext(sluiceOptions(), SparkTypes.toSluice(schema), metadataPath, SluiceClock.system(),
                queryId, sourceIndex, bounded, SparkTimestamps.zoneId(sessionTimeZone));
    }
}
