package io.sluice.api.io;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StoragesConfTest {

    @Test
    void aQueryOptionWinsOverTheEnginesWithOrWithoutThePrefixOnEitherSide() {
        assertThat(Storages.conf(Map.of("fs.s3a.endpoint", "engine"),
                Map.of("spark.hadoop.fs.s3a.endpoint", "query"))).containsEntry("fs.s3a.endpoint", "query");
        assertThat(Storages.conf(Map.of("spark.hadoop.fs.s3a.endpoint", "engine"),
                Map.of("fs.s3a.endpoint", "query"))).containsEntry("fs.s3a.endpoint", "query");
        assertThat(Storages.conf(Map.of("fs.s3a.endpoint", "engine"), Map.of()))
                .containsExactly(Map.entry("fs.s3a.endpoint", "engine"));
    }

    @Test
    void withinOneLevelTheKeyWithoutThePrefixWinsWhateverTheOrder() {
        Map<String, String> prefixedFirst = new LinkedHashMap<>();
        prefixedFirst.put("spark.hadoop.fs.s3a.endpoint", "prefixed");
        prefixedFirst.put("fs.s3a.endpoint", "plain");
        Map<String, String> plainFirst = new LinkedHashMap<>();
        plainFirst.put("fs.s3a.endpoint", "plain");
        plainFirst.put("spark.hadoop.fs.s3a.endpoint", "prefixed");
        for (Map<String, String> level : java.util.List.of(prefixedFirst, plainFirst)) {
            assertThat(Storages.conf(level, Map.of())).containsExactly(Map.entry("fs.s3a.endpoint", "plain"));
            assertThat(Storages.conf(Map.of(), level)).containsExactly(Map.entry("fs.s3a.endpoint", "plain"));
        }
    }

    @Test
    void pathAndPathsAreNotStorageSettings() {
        assertThat(Storages.conf(Map.of(), Map.of("path", "/a", "paths", "/b", "fs.x", "1")))
                .containsExactly(Map.entry("fs.x", "1"));
    }
}
