package io.sluice.files.source;

import io.sluice.api.Options;
import io.sluice.api.source.ColumnFilter;
import io.sluice.api.source.PushDown;
import io.sluice.api.types.StructType;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What the file source does with a read's push-down ({@link io.sluice.api.source.SupportsPushDown}). Filters
 * are inexact (the host evaluates them again): planning skips a whole file when a filter on its {@code key=value}
 * partition columns alone is false for the file's values; filters that read data columns are not used. Columns:
 * the JSON format parses only the data columns the read requires (as Spark's JSON reader does, a malformed value
 * in a column it does not parse is then not seen); CSV reads by position and text has one column, so they read
 * all. A schema with the corrupt-record column reads every column, since a record is malformed or not by all of
 * them.
 */
final class FilePushDown {
    private final PushDown pushDown;
    private final boolean pruneData;

    FilePushDown(String format, Options options, StructType schema, PushDown pushDown) {
        this.pushDown = pushDown;
        String corrupt = options.get("columnNameOfCorruptRecord", "_corrupt_record");
        this.pruneData = format.equals("json") && schema.indexOf(corrupt) < 0;
    }

    /** Nothing pushed. */
    static FilePushDown none(String format, Options options, StructType schema) {
        return new FilePushDown(format, options, schema, PushDown.none(schema));
    }

    /** Whether the format reads this data column. */
    boolean reads(String column) {
        return !pruneData || pushDown.requires(column);
    }

    /**
     * Whether a file with these partition values may hold matching rows: false when a filter that reads only
     * partition columns is false for them (every row of the file has those values).
     */
    boolean mayMatch(StructType schema, int[] partitionColumns, List<Object> values) {
        if (pushDown.filters().isEmpty()) {
            return true;
        }
        Map<String, Object> byName = new HashMap<>();
        for (int i = 0; i < partitionColumns.length; i++) {
            byName.put(schema.field(partitionColumns[i]).name(), values.get(i));
        }
        for (ColumnFilter f : pushDown.filters()) {
            if (byName.keySet().containsAll(f.columns()) && !f.test(byName::get)) {
                return false;
            }
        }
        return true;
    }
}
