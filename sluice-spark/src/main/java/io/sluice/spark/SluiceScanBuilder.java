package io.sluice.spark;

import io.sluice.api.Options;
import io.sluice.api.source.ColumnFilter;
import io.sluice.api.source.PushDown;
import io.sluice.api.source.SourceProvider;
import io.sluice.api.source.SupportsPushDown;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.connector.read.SupportsPushDownFilters;
import org.apache.spark.sql.connector.read.SupportsPushDownRequiredColumns;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Takes what Spark pushes down into one scan (Spark does so for {@code spark.read()}, not for streams) and hands
 * it to a {@link SupportsPushDown} source. Columns: the scan reads only the top-level columns Spark requires (the
 * bridge converts only those; the source may leave the others null). Filters: each one that
 * {@link SparkFilters} translates goes to the source's {@link SupportsPushDown#filterUse}; {@code EXACT} ones are
 * the source's alone, {@code INEXACT} ones Spark evaluates again, the rest stay with Spark.
 */
final class SluiceScanBuilder implements ScanBuilder, SupportsPushDownFilters, SupportsPushDownRequiredColumns {
    private final SourceProvider provider;
    private final String source;
    private final Map<String, String> options;
    private final StructType schema;
    private final io.sluice.api.types.StructType sluiceSchema;
    private final List<ColumnFilter> filters = new ArrayList<>();
    private Filter[] pushed = new Filter[0];
    private StructType required;

    SluiceScanBuilder(SourceProvider provider, String source, Map<String, String> options, StructType schema) {
        this.provider = provider;
        this.source = source;
        this.options = options;
        this.schema = schema;
        this.sluiceSchema = SparkTypes.toSluice(schema);
        this.required = schema;
    }

    @Override
    public Filter[] pushFilters(Filter[] given) {
        filters.clear();
        List<Filter> forSpark = new ArrayList<>();
        List<Filter> handed = new ArrayList<>();
        for (Filter f : given) {
            SupportsPushDown.FilterUse use = SupportsPushDown.FilterUse.UNUSED;
            Optional<ColumnFilter> c = SparkFilters.toSluice(f, sluiceSchema);
            if (c.isPresent() && provider instanceof SupportsPushDown p) {
                use = p.filterUse(Options.of(options), sluiceSchema, c.get());
            }
            if (use != SupportsPushDown.FilterUse.UNUSED) {
                filters.add(c.get());
                handed.add(f);
            }
            if (use != SupportsPushDown.FilterUse.EXACT) {
                forSpark.add(f);
            }
        }
        pushed = handed.toArray(new Filter[0]);
        return forSpark.toArray(new Filter[0]);
    }

    @Override
    public Filter[] pushedFilters() {
        return pushed.clone();
    }

    /** The schema's top-level fields that Spark requires, in the schema's order, each with its whole type. */
    @Override
    public void pruneColumns(StructType requiredSchema) {
        Set<String> names = new LinkedHashSet<>(List.of(requiredSchema.fieldNames()));
        List<StructField> kept = new ArrayList<>();
        for (StructField f : schema.fields()) {
            if (names.contains(f.name())) {
                kept.add(f);
            }
        }
        required = new StructType(kept.toArray(new StructField[0]));
    }

    @Override
    public Scan build() {
        PushDown pushDown = new PushDown(new LinkedHashSet<>(List.of(required.fieldNames())), filters);
        return new SluiceScan(provider, source, options, schema, required, pushDown, List.of(pushed));
    }
}
