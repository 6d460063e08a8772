package io.sluice.files.source;

import io.sluice.api.source.SourceProvider;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;

import static org.assertj.core.api.Assertions.assertThat;

class ProviderDiscoveryTest {

    @Test
    void serviceLoaderFindsTheFileSources() {
        List<String> names = new ArrayList<>();
        List<Class<?>> classes = new ArrayList<>();
        ServiceLoader.load(SourceProvider.class).forEach(p -> {
            names.add(p.shortName());
            classes.add(p.getClass());
        });
        assertThat(names).contains("json", "csv", "text");
        assertThat(classes).contains(JsonFileSourceProvider.class, CsvFileSourceProvider.class,
                TextFileSourceProvider.class);
    }
}
