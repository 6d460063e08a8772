package io.sluice.delta;

import io.sluice.api.InvalidOptionException;
import io.sluice.api.OptionSet;
import io.sluice.api.Options;
import io.sluice.api.sink.Sink;
import io.sluice.api.sink.SinkContext;
import io.sluice.api.sink.SinkProvider;

import io.sluice.api.io.Storages;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

import static io.sluice.api.OptionDef.string;

/**
 * {@code format("delta")} as a sink (append and complete output modes): each batch one Delta commit of its files,
 * exactly once through the transaction
 * identifier delta-spark uses (app id = the query id, version = the batch id); the table is created with the
 * stream's schema when missing (docs/tables/delta.md). Found through
 * {@code META-INF/services/io.sluice.api.sink.SinkProvider}.
 */
public final class DeltaSinkProvider implements SinkProvider {

    static final String PARTITION_BY = "partitionBy";
    private static final OptionSet DEFS = OptionSet.of(
            string(PARTITION_BY, "the partition columns of a table the sink creates (`partitionBy(..)`)")
                    .withDefaultText("none"))
            .withPrefixes("fs.", "spark.hadoop.");

    @Override
    public String shortName() {
        return "delta";
    }

    @Override
    public OptionSet options() {
        return DEFS;
    }

    @Override
    public void validate(Options options) {
        String path = options.get("path").orElseThrow(() -> new InvalidOptionException("path", null,
                "the Delta sink needs the table's folder: option(\"path\", dir) or start(dir)"));
        if (DeltaTable.isRemote(path)) {
            Storages.check("path", path, Thread.currentThread().getContextClassLoader());
        } else {
            DeltaTable.localPath(path);
        }
    }

    static List<String> partitionBy(Options options) {
        return options.get(PARTITION_BY).map(s -> Arrays.stream(s.split(",")).map(String::trim)
                .filter(c -> !c.isEmpty()).toList()).orElse(List.of());
    }

    @Override
    public Optional<Path> localOutputFolder(Options options) {
        return options.get("path").filter(p -> !DeltaTable.isRemote(p)).map(DeltaTable::localPath);
    }

    @Override
    public Sink createSink(SinkContext context) {
        validate(context.options());
        String path = context.options().require("path");
        return new DeltaSink(DeltaTable.open(path, Storages.conf(context.storageConf(), context.options().asMap())),
                context.schema(), partitionBy(context.options()), context.queryId(),
                "complete".equals(context.outputMode()));
    }

    /**
     * Append and complete, as delta-spark's sink: complete replaces the table's content each batch. Update is
     * refused at start with Spark's {@code Data source delta does not support Update output mode}.
     */
    @Override
    public boolean supportsOutputMode(String mode) {
        return "append".equals(mode) || "complete".equals(mode);
    }
}
