package io.sluice.python;

import io.sluice.api.types.StructType;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** What a worker needs to run one source: the file, the class, the options and (for readers) the schema. */
record WorkerSpec(String sourceName, Path file, String module, String className, Map<String, String> options,
                  StructType schema, int batchRows) {

    /** Starts a worker with the user's file imported and the data source built from the options. */
    PythonWorker startWithSource() {
        PythonWorker w = PythonWorker.start(sourceName);
        try {
            w.call("load", Map.of("file", file.toString(), "module", module));
            Map<String, Object> create = new LinkedHashMap<>();
            create.put("className", className);
            create.put("options", options);
            create.put("batchRows", batchRows);
            w.call("create", create);
            return w;
        } catch (RuntimeException e) {
            w.kill();
            throw e;
        }
    }

    /** A worker with the reader of this kind ("stream" or "batch") open; returns the worker's answer too. */
    PythonWorker startReader(String kind, Map<String, Object>[] answer) {
        PythonWorker w = startWithSource();
        try {
            Map<String, Object> a = w.call(kind.equals("batch") ? "openBatch" : "openStream",
                    Map.of("schema", SchemaJson.write(schema)));
            if (answer != null) {
                answer[0] = a;
            }
            return w;
        } catch (RuntimeException e) {
            w.kill();
            throw e;
        }
    }

    static final List<String> KINDS = List.of("stream", "batch");
}
