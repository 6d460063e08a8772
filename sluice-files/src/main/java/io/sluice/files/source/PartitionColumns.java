package io.sluice.files.source;

import io.sluice.api.types.StructType;

import java.nio.file.Path;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The schema columns a file's {@code key=value} folders fill, fixed by the first file seen for the life of the
 * stream (a partition column that appears or disappears while the query runs is an error), and their values.
 * Part of the file source's discovery; the planner uses it for the files of a batch.
 */
final class PartitionColumns {
    private final SourcePath source;
    private final StructType schema;
    /** The zone of timestamp values without one. */
    private final ZoneId zone;
    /** The columns of the first file: null until then. */
    private int[] columns;
    private String reference;

    PartitionColumns(SourcePath source, StructType schema, ZoneId zone) {
        this.source = source;
        this.schema = schema;
        this.zone = zone;
    }

    /** The partition columns of this file (schema indexes, ascending), checked against the first file's. */
    int[] of(Path file, String uri) {
        Map<String, String> folders = source.partitionsOf(file);
        List<Integer> cols = new ArrayList<>();
        for (String key : folders.keySet()) {
            int i = schema.indexOf(key);
            if (i >= 0) {
                cols.add(i);
            }
        }
        int[] found = new int[cols.size()];
        for (int k = 0; k < found.length; k++) {
            found[k] = cols.get(k);
        }
        Arrays.sort(found);
        if (columns == null) {
            columns = found;
            reference = uri;
        } else if (!Arrays.equals(columns, found)) {
            throw new IllegalStateException("The partition columns changed while the query runs: " + uri + " has "
                    + names(found) + " but " + reference + " has " + names(columns)
                    + ". The key=value folders that fill schema columns must stay the same for the life of a "
                    + "query: move the file, or start a new query (new checkpoint) for the new layout");
        }
        return found;
    }

    private String names(int[] cols) {
        List<String> n = new ArrayList<>();
        for (int c : cols) {
            n.add(schema.field(c).name());
        }
        return n.toString();
    }

    /** Checks the file's partition folders and values before it is logged, so a bad one never enters the log. */
    void check(Path file, String uri) {
        values(file, uri, of(file, uri));
    }

    /** The values of columns {@code cols} for this file, cast to their schema types. */
    List<Object> values(Path file, String uri, int[] cols) {
        if (cols.length == 0) {
            return List.of();
        }
        Map<String, String> folders = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        folders.putAll(source.partitionsOf(file));
        Object[] values = new Object[cols.length];
        for (int i = 0; i < cols.length; i++) {
            var f = schema.field(cols[i]);
            values[i] = Partitions.cast(folders.get(f.name()), f.dataType(), f.name(), uri, zone);
        }
        return Collections.unmodifiableList(Arrays.asList(values));
    }
}
