package io.sluice.otlp;

import io.sluice.api.OptionSet;
import io.sluice.api.Options;
import io.sluice.core.Sluice;
import io.sluice.metrics.MetricsExporter;

/** The {@code otlp} exporter the command line finds through ServiceLoader ({@code sluice run --otlp-endpoint}). */
public final class OtlpExporter implements MetricsExporter {

    @Override
    public String name() {
        return "otlp";
    }

    @Override
    public OptionSet options() {
        return SluiceOtlp.OPTIONS;
    }

    @Override
    public AutoCloseable start(Sluice sluice, Options options) {
        return SluiceOtlp.start(sluice, options);
    }
}
