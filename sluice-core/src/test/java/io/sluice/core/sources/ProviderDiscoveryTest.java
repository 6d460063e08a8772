package io.sluice.core.sources;

import io.sluice.api.sink.SinkProvider;
import io.sluice.api.source.SourceProvider;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;

import static org.assertj.core.api.Assertions.assertThat;

class ProviderDiscoveryTest {

    @Test
    void serviceLoaderFindsTheBuiltInSourcesAndSinks() {
        List<String> sources = new ArrayList<>();
        ServiceLoader.load(SourceProvider.class).forEach(p -> sources.add(p.shortName()));
        assertThat(sources).contains("rate", "rate-micro-batch", "socket", "memory");

        List<String> sinks = new ArrayList<>();
        ServiceLoader.load(SinkProvider.class).forEach(p -> sinks.add(p.shortName()));
        assertThat(sinks).contains("memory", "noop");
    }
}
