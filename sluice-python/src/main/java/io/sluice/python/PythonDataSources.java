package io.sluice.python;

import io.sluice.api.datasource.DataSource;
import io.sluice.api.datasource.DataSourceFileLoader;
import io.sluice.core.Sluice;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Python data sources: the {@code DataSource} subclasses a {@code .py} file defines against PySpark's
 * {@code pyspark.sql.datasource}, run by Sluice's engine through {@code python3} worker processes (PySpark is not
 * needed: a pure-Python stand-in is used when it is not installed).
 *
 * <p>Register them with {@code Sluice.builder().dataSourceFiles(path)} or
 * {@code sluice.registerDataSourceFiles(path)} (this module's {@link DataSourceFileLoader} reads {@code .py}
 * files), or with {@link #register(Sluice, Path)}; then {@code readStream().format(name)} finds each by its
 * {@code name()}. Loading a file imports it in a worker: a missing {@code python3}, a file that does not import,
 * or one without a {@code DataSource} subclass fails at once with a {@link PythonSourceException}.
 */
public final class PythonDataSources implements DataSourceFileLoader {
    /** Rows per batch a reading worker sends (Spark's {@code maxRecordsPerBatch} is 10,000). */
    static final int BATCH_ROWS = 8192;

    /** For ServiceLoader. */
    public PythonDataSources() {
    }

    @Override
    public boolean reads(Path file) {
        return file.getFileName() != null && file.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".py");
    }

    @Override
    public List<DataSource> load(Path file, int parallelism) {
        return load(file, parallelism, BATCH_ROWS);
    }

    /**
     * The data sources a {@code .py} file defines, each read by at most {@code readers} worker processes at once.
     *
     * @throws PythonSourceException when python3 cannot start, the file does not import or defines no source
     */
    public static List<DataSource> load(Path file, int readers, int batchRows) {
        if (!Files.isRegularFile(file)) {
            throw new IllegalArgumentException("No such Python file: " + file);
        }
        Path abs = file.toAbsolutePath().normalize();
        String fileName = abs.getFileName().toString();
        String module = fileName.substring(0, fileName.length() - 3);
        List<DataSource> out = new ArrayList<>();
        try (PythonWorker w = PythonWorker.start(fileName)) {
            Map<String, Object> answer;
            try {
                answer = w.call("load", Map.of("file", abs.toString(), "module", module));
            } catch (PythonSourceException e) {
                throw new PythonSourceException("Cannot load Python data sources from " + abs + ": "
                        + e.getMessage().substring(e.getMessage().indexOf(": ") + 2), e.traceback());
            }
            for (Object o : (List<?>) answer.get("sources")) {
                Map<?, ?> m = (Map<?, ?>) o;
                out.add(new PythonDataSource((String) m.get("name"), abs, module, (String) m.get("className"),
                        Math.max(1, readers), batchRows));
            }
        }
        if (out.isEmpty()) {
            throw new PythonSourceException("Cannot load Python data sources from " + abs + ": it defines no "
                    + "subclass of pyspark.sql.datasource.DataSource", (String) null);
        }
        return out;
    }

    /** Registers the sources of a {@code .py} file, or of every {@code .py} file in a folder, on {@code sluice}. */
    public static Sluice register(Sluice sluice, Path path) {
        return sluice.registerDataSourceFiles(path);
    }
}
