package io.sluice.files.source;

import io.sluice.api.types.StructField;
import io.sluice.api.types.StructType;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * How a row is assembled for files with a given set of partition columns: the data schema the format reads
 * (the query's schema without those columns) and where each output column comes from.
 */
final class Layout {
    /** The key of a layout: the partition columns' indexes in the schema, comma-separated ("" for none). */
    final String key;
    final StructType dataSchema;
    /**
     * Per output column: {@code >= 0} the data row's column, {@link #NOT_READ} a column the read does not require
     * (null), else partition value {@code -1 - i}.
     */
    final int[] sources;
    final int[] partitionColumns;

    private Layout(String key, StructType dataSchema, int[] sources, int[] partitionColumns) {
        this.key = key;
        this.dataSchema = dataSchema;
        this.sources = sources;
        this.partitionColumns = partitionColumns;
    }

    /** The key of the layout for these partition columns. */
    static String keyOf(int[] partitionColumns) {
        StringBuilder key = new StringBuilder();
        for (int p : partitionColumns) {
            if (key.length() > 0) {
                key.append(',');
            }
            key.append(p);
        }
        return key.toString();
    }

    /** The partition columns of a {@link #keyOf} key. */
    static int[] columnsOf(String key) {
        if (key.isEmpty()) {
            return new int[0];
        }
        String[] parts = key.split(",");
        int[] cols = new int[parts.length];
        for (int i = 0; i < parts.length; i++) {
            cols[i] = Integer.parseInt(parts[i]);
        }
        return cols;
    }

    /** An output column the format does not read: a column the read does not require ({@link FilePushDown}). */
    static final int NOT_READ = Integer.MIN_VALUE;

    /** @param partitionColumns indexes of the schema's partition columns, ascending */
    static Layout of(StructType schema, int[] partitionColumns) {
        return of(schema, partitionColumns, name -> true);
    }

    /**
     * @param partitionColumns indexes of the schema's partition columns, ascending
     * @param read             whether the format reads a data column (by name); the others are null
     */
    static Layout of(StructType schema, int[] partitionColumns, java.util.function.Predicate<String> read) {
        Set<Integer> parts = new java.util.HashSet<>();
        for (int p : partitionColumns) {
            parts.add(p);
        }
        // A read that requires no data column (a count, or partition columns alone) still parses the first one, so
        // that the format finds the same records as a full read.
        int keep = -1;
        for (int i = 0; i < schema.size() && keep != Integer.MAX_VALUE; i++) {
            if (!parts.contains(i)) {
                keep = read.test(schema.field(i).name()) ? Integer.MAX_VALUE : keep < 0 ? i : keep;
            }
        }
        List<StructField> data = new ArrayList<>();
        int[] sources = new int[schema.size()];
        int d = 0;
        int pi = 0;
        for (int i = 0; i < schema.size(); i++) {
            if (parts.contains(i)) {
                sources[i] = -1 - pi++;
            } else if (i != keep && !read.test(schema.field(i).name())) {
                sources[i] = NOT_READ;
            } else {
                sources[i] = d++;
                data.add(schema.field(i));
            }
        }
        return new Layout(keyOf(partitionColumns), new StructType(data), sources, partitionColumns);
    }

    boolean hasPartitions() {
        return partitionColumns.length > 0;
    }

    /** Whether the format's rows are the output rows as they are (no partition column, every column read). */
    boolean isIdentity() {
        return !hasPartitions() && dataSchema.size() == sources.length;
    }
}
