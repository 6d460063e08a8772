package io.sluice.cli;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The settings of one pipeline, from a pipeline file, from flags, or both merged ({@link #overriddenBy}). A null
 * field was not given. Option maps keep the order given; keys are case-insensitive, as the engine treats them.
 * {@code conf} is the engine configuration ({@code Sluice.builder().config(..)}), merged the same way.
 * {@code outputMode} is append, update or complete (checked); {@code sql} a {@code SELECT ... FROM source} applied
 * after the transforms ({@code StreamFrame.sql}); {@code watermark} a {@link WatermarkSpec};
 * {@code serving} the metrics endpoint, web UI and OTLP export ({@link Serving}), merged setting by setting.
 */
record Pipeline(String name, String sourceFormat, Map<String, String> sourceOptions, String schema,
                List<Transform> transforms, String sinkFormat, Map<String, String> sinkOptions,
                String checkpoint, TriggerSpec trigger, String progressFile, Map<String, String> conf,
                String outputMode, String sql, WatermarkSpec watermark, Serving serving) {

    Pipeline {
        serving = serving == null ? Serving.NONE : serving;
        sourceOptions = Collections.unmodifiableMap(new LinkedHashMap<>(sourceOptions));
        sinkOptions = Collections.unmodifiableMap(new LinkedHashMap<>(sinkOptions));
        conf = Collections.unmodifiableMap(new LinkedHashMap<>(conf));
        transforms = transforms == null ? null : List.copyOf(transforms);
    }

    /** A pipeline without an output mode, a SQL query, a watermark or serving settings. */
    Pipeline(String name, String sourceFormat, Map<String, String> sourceOptions, String schema,
             List<Transform> transforms, String sinkFormat, Map<String, String> sinkOptions,
             String checkpoint, TriggerSpec trigger, String progressFile, Map<String, String> conf) {
        this(name, sourceFormat, sourceOptions, schema, transforms, sinkFormat, sinkOptions, checkpoint, trigger,
                progressFile, conf, null, null, null, Serving.NONE);
    }

    static Pipeline empty() {
        return new Pipeline(null, null, Map.of(), null, null, null, Map.of(), null, null, null, Map.of());
    }

    /**
     * These settings with {@code flags} on top: a setting given in both takes the flag's value; options are merged
     * key by key (the flag's value wins, whatever the key's case), and so is {@code conf}; a non-null transform
     * list replaces this one.
     */
    Pipeline overriddenBy(Pipeline flags) {
        return new Pipeline(
                pick(flags.name, name),
                pick(flags.sourceFormat, sourceFormat),
                merge(sourceOptions, flags.sourceOptions),
                pick(flags.schema, schema),
                flags.transforms != null ? flags.transforms : transforms,
                pick(flags.sinkFormat, sinkFormat),
                merge(sinkOptions, flags.sinkOptions),
                pick(flags.checkpoint, checkpoint),
                pick(flags.trigger, trigger),
                pick(flags.progressFile, progressFile),
                merge(conf, flags.conf),
                pick(flags.outputMode, outputMode),
                pick(flags.sql, sql),
                pick(flags.watermark, watermark),
                serving.overriddenBy(flags.serving));
    }

    /** The trigger to run with: the one given, or back-to-back batches. */
    TriggerSpec effectiveTrigger() {
        return trigger != null ? trigger : TriggerSpec.DEFAULT;
    }

    List<Transform> effectiveTransforms() {
        return transforms != null ? transforms : List.of();
    }

    /** A redactor for this pipeline's secret option values. */
    Redactor redactor() {
        return Redactor.of(sourceOptions, sinkOptions);
    }

    private static Map<String, String> merge(Map<String, String> base, Map<String, String> over) {
        return new OptionMapBuilder().putAll(base).putAll(over).build();
    }

    private static <T> T pick(T first, T second) {
        return first != null ? first : second;
    }
}
