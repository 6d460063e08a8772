package io.sluice.api.datasource;

import java.nio.file.Path;
import java.util.List;

/**
 * Reads data sources defined in files of another language (a module such as sluice-python reads {@code .py}
 * files), found with {@link java.util.ServiceLoader} through
 * {@code META-INF/services/io.sluice.api.datasource.DataSourceFileLoader}. The engine knows no language: it hands
 * each file given to {@code Sluice.registerDataSourceFiles(path)} (or {@code Sluice.builder().dataSourceFiles})
 * to the loader that {@link #reads} it and registers what {@link #load} returns.
 */
public interface DataSourceFileLoader {

    /** Whether this loader reads the file, by its name (e.g. ending in {@code .py}); must not read the file. */
    boolean reads(Path file);

    /**
     * The data sources the file defines, checked now: a file that cannot be loaded fails here, before any query
     * starts, with a message naming it.
     *
     * @param parallelism the engine's reader threads: how many partitions of a batch are read at once
     */
    List<DataSource> load(Path file, int parallelism);
}
