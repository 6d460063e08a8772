package io.sluice.core;

import io.sluice.api.Options;
import io.sluice.api.Row;
import io.sluice.api.datasource.DataSource;
import io.sluice.api.datasource.DataSourceContext;
import io.sluice.api.datasource.DataSourceFileLoader;
import io.sluice.api.datasource.DataSourceReader;
import io.sluice.api.source.InputPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The engine's language-free hook: files handed to the ServiceLoader's DataSourceFileLoader that reads them. */
class DataSourceFilesTest {
    /** Reads {@code *.names} files: one source per line, whose one row is its name and the parallelism. */
    public static final class NamesLoader implements DataSourceFileLoader {
        @Override
        public boolean reads(Path file) {
            return file.toString().endsWith(".names");
        }

        @Override
        public List<DataSource> load(Path file, int parallelism) {
            try {
                return Files.readAllLines(file).stream().map(n -> (DataSource) new Named(n, parallelism)).toList();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    record Named(String name, int parallelism) implements DataSource {
        @Override
        public String schemaDdl(Options options) {
            return "name string, parallelism int";
        }

        @Override
        public DataSourceReader reader(DataSourceContext context) {
            return new DataSourceReader() {
                @Override
                public Iterator<Row> read(InputPartition partition) {
                    return List.of(Row.of(name, parallelism)).iterator();
                }
            };
        }
    }

    @TempDir
    Path tmp;

    @Test
    void aFolderRegistersEveryFileALoaderReadsAndSkipsTheOthers() throws Exception {
        Files.writeString(tmp.resolve("a.names"), "alpha\nbeta\n");
        Files.writeString(tmp.resolve("notes.txt"), "not a source");
        try (Sluice sluice = Sluice.builder().parallelism(3).dataSourceFiles(tmp).build()) {
            assertThat(sluice.read().format("beta").load().collectAsList()).containsExactly(Row.of("beta", 3));
            assertThat(sluice.read().format("alpha").load().collectAsList()).containsExactly(Row.of("alpha", 3));
        }
    }

    @Test
    void aFileNoLoaderReadsAndAMissingPathAreRefused() throws Exception {
        Path notes = Files.writeString(tmp.resolve("notes.txt"), "x");
        try (Sluice sluice = Sluice.builder().build()) {
            assertThatThrownBy(() -> sluice.registerDataSourceFiles(notes))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("No DataSourceFileLoader on the class path reads " + notes + " (loaders: ["
                            + NamesLoader.class.getName() + "]): add the module for such files");
            assertThatThrownBy(() -> sluice.registerDataSourceFiles(tmp.resolve("nope")))
                    .hasMessage("No such file or folder of data sources: " + tmp.resolve("nope"));
        }
    }
}
