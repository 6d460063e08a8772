package io.sluice.api.source;

import io.sluice.api.types.StructField;
import io.sluice.api.types.StructType;

import java.io.Serializable;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * What a read needs, as a host hands it to a {@link SupportsPushDown} source: the columns the query uses and the
 * filters the source said it can use ({@link SupportsPushDown#filterUse}). The stream's rows keep the full schema;
 * a column outside {@link #requiredColumns()} may be null in them (the source need not build it). Immutable and
 * serializable.
 *
 * @param requiredColumns the names of the columns the query reads (a subset of the schema's)
 * @param filters         the filters handed to the source, all to hold (their AND)
 */
public record PushDown(Set<String> requiredColumns, List<ColumnFilter> filters) implements Serializable {
    private static final long serialVersionUID = 1L;

    public PushDown {
        requiredColumns = Set.copyOf(requiredColumns);
        filters = List.copyOf(filters);
    }

    /** Nothing pushed: every column of the schema, no filter. */
    public static PushDown none(StructType schema) {
        Set<String> all = new LinkedHashSet<>();
        for (StructField f : schema.fields()) {
            all.add(f.name());
        }
        return new PushDown(all, List.of());
    }

    /** Whether the query reads this column. */
    public boolean requires(String column) {
        return requiredColumns.contains(column);
    }

    /** Whether a row with these values by column name matches every filter ({@link ColumnFilter#test}). */
    public boolean test(Function<String, Object> valueOf) {
        for (ColumnFilter f : filters) {
            if (!f.test(valueOf)) {
                return false;
            }
        }
        return true;
    }
}
