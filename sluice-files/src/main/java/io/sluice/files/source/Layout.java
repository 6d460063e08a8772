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
    /** Per output column: {@code >= 0} the data row's column, {@code < 0} partition value {@code -1 - i}. */
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

    /** @param partitionColumns indexes of the schema's partition columns, ascending */
    static Layout of(StructType schema, int[] partitionColumns) {
        Set<Integer> parts = new java.util.HashSet<>();
        for (int p : partitionColumns) {
            parts.add(p);
        }
        List<StructField> data = new ArrayList<>();
        int[] sources = new int[schema.size()];
        int d = 0;
        int pi = 0;
        for (int i = 0; i < schema.size(); i++) {
            if (parts.contains(i)) {
                sources[i] = -1 - pi++;
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
}
