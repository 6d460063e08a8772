package io.sluice.files.sink;

import io.sluice.api.Options;
import io.sluice.api.Row;
import io.sluice.api.SluiceClock;
import io.sluice.api.sink.BatchWriter;
import io.sluice.api.sink.PartitionWriter;
import io.sluice.api.sink.Sink;
import io.sluice.api.sink.SinkContext;
import io.sluice.api.sink.SinkProvider;
import io.sluice.api.types.StructType;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/** Drives a file sink as the engine does, without an engine: one batch at a time, partitions in order. */
final class SinkHarness {
    static final String QUERY_ID = "3f1c2a9e-0000-4000-8000-000000000001";

    private SinkHarness() {
    }

    static SinkProvider provider(String format) {
        return switch (format) {
            case "json" -> new JsonSinkProvider();
            case "csv" -> new CsvSinkProvider();
            case "text" -> new TextSinkProvider();
            default -> throw new IllegalArgumentException(format);
        };
    }

    /** Options with {@code path} set to {@code out}, plus pairs. */
    static Options options(Path out, String... pairs) {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("path", out.toString());
        for (int i = 0; i < pairs.length; i += 2) {
            m.put(pairs[i], pairs[i + 1]);
        }
        return Options.of(m);
    }

    static Sink sink(String format, Options options, StructType schema, SluiceClock clock) {
        SinkProvider p = provider(format);
        p.validate(options);
        return p.createSink(new SinkContext(options, schema, Path.of("/unused-checkpoint"), QUERY_ID, null, clock));
    }

    /** Writes every partition and commits each partition writer, but not the batch: the batch's results. */
    static List<Object> writePartitions(BatchWriter w, List<List<Row>> partitions) throws Exception {
        List<Object> results = new ArrayList<>();
        for (int p = 0; p < partitions.size(); p++) {
            PartitionWriter pw = w.partitionWriter(p);
            for (Row r : partitions.get(p)) {
                pw.write(r);
            }
            results.add(pw.commit());
        }
        return results;
    }

    /** One whole batch. */
    static void batch(Sink sink, long batchId, List<List<Row>> partitions) throws Exception {
        BatchWriter w = sink.beginBatch(batchId);
        w.commit(writePartitions(w, partitions));
    }

    /** Data files a plain listing sees: not hidden, not under hidden or {@code _} folders. Relative, sorted. */
    static List<String> visibleFiles(Path out) throws IOException {
        try (Stream<Path> s = Files.walk(out)) {
            return s.filter(Files::isRegularFile)
                    .map(p -> out.relativize(p).toString())
                    .filter(rel -> {
                        for (String part : rel.split("/")) {
                            if (part.startsWith(".") || part.startsWith("_")) {
                                return false;
                            }
                        }
                        return true;
                    })
                    .sorted().toList();
        }
    }

    /** Every file under the folder, hidden ones included. */
    static List<String> allFiles(Path out) throws IOException {
        try (Stream<Path> s = Files.walk(out)) {
            return s.filter(Files::isRegularFile).map(p -> out.relativize(p).toString()).sorted().toList();
        }
    }

    /** Relative paths of the files the manifest lists. */
    static List<String> manifestFiles(Path out) throws IOException {
        List<String> rel = new ArrayList<>();
        for (SinkFileStatus s : FileSinkManifest.allFiles(out)) {
            rel.add(out.relativize(s.localPath()).toString());
        }
        return rel;
    }

    static String read(Path p) throws IOException {
        return Files.readString(p, StandardCharsets.UTF_8);
    }

    /** The content of the single data file of the output (fails if there is not exactly one). */
    static String onlyFile(Path out) throws IOException {
        List<String> files = visibleFiles(out);
        if (files.size() != 1) {
            throw new AssertionError("Expected one data file, found " + files);
        }
        return read(out.resolve(files.get(0)));
    }
}
