package io.sluice.files.source;

import io.sluice.api.Options;
import io.sluice.api.source.ColumnFilter;
import io.sluice.api.source.PushDown;
import io.sluice.api.types.StructType;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What the file source does with a read's push-down ({@link io.sluice.api.source.SupportsPushDown}). Filters
 * are inexact (the host evaluates them again): planning skips a whole file when a filter on its {@code key=value}
 * partition columns alone is false for the file's values; the filters on data columns alone go to the format's
 * reader ({@link io.sluice.files.format.FileFormat#reader(Options, StructType, List)}: Parquet skips row groups
 * by them). Columns: a format that {@link io.sluice.files.format.FileFormat#prunesColumns prunes columns} (JSON,
 * as Spark's JSON reader, unless the schema has the corrupt-record column; Parquet) reads only the data columns
 * the read requires; CSV reads by position and text has one column, so they read all.
 */
final class FilePushDown {
    private final PushDown pushDown;
    private final boolean pruneData;

    FilePushDown(boolean pruneData, PushDown pushDown) {
        this.pushDown = pushDown;
        this.pruneData = pruneData;
    }

    /** Nothing pushed. */
    static FilePushDown none(StructType schema) {
        return new FilePushDown(false, PushDown.none(schema));
    }

    /**
     * The filters that read only columns of {@code dataSchema} (the columns a layout's format reads), an AND
     * split into its sides: for the format's reader.
     */
    List<ColumnFilter> dataFilters(StructType dataSchema) {
        List<ColumnFilter> out = new ArrayList<>();
        for (ColumnFilter f : pushDown.filters()) {
            split(f, dataSchema, out);
        }
        return out;
    }

    private static void split(ColumnFilter f, StructType dataSchema, List<ColumnFilter> out) {
        if (f instanceof ColumnFilter.And a) {
            split(a.left(), dataSchema, out);
            split(a.right(), dataSchema, out);
        } else if (dataSchema.fieldNames().containsAll(f.columns())) {
            out.add(f);
        }
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
