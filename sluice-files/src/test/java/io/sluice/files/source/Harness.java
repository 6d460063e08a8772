package io.sluice.files.source;

import io.sluice.api.Offset;
import io.sluice.api.Options;
import io.sluice.api.ReadLimit;
import io.sluice.api.Row;
import io.sluice.api.SluiceClock;
import io.sluice.api.source.InputPartition;
import io.sluice.api.source.PartitionReader;
import io.sluice.api.source.SourceProvider;
import io.sluice.api.source.StreamContext;
import io.sluice.api.types.StructType;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Drives a file source stream by hand, as the engine would: {@code latestOffset}, {@code planPartitions}, the
 * readers, {@code commit}. Each call of {@link #open} is a new run (a restart) on the same metadata folder.
 */
final class Harness {
    static final StructType SCHEMA = StructType.fromDDL("id long, name string");

    final Path input;
    final Path metadata;
    final Map<String, String> options = new LinkedHashMap<>();
    StructType schema = SCHEMA;
    String format = "json";
    FileStreamSource stream;
    Offset committed;

    Harness(Path input, Path metadata) {
        this.input = input;
        this.metadata = metadata;
        options.put("path", input.toString());
    }

    Harness option(String k, Object v) {
        options.put(k, String.valueOf(v));
        return this;
    }

    /** Starts a run: validates the options as load() would, then builds the stream. */
    FileStreamSource open() {
        if (stream != null) {
            stream.stop();
        }
        SourceProvider p = format.equals("text") ? TestProviders.text() : TestProviders.json();
        Options o = Options.of(options);
        StructType resolved = p.resolveSchema(o, Optional.ofNullable(schema));
        stream = (FileStreamSource) p.createStream(new StreamContext(o, resolved, metadata, SluiceClock.system(),
                "q", 0));
        return stream;
    }

    Offset start() {
        return committed != null ? committed : stream.initialOffset();
    }

    /** latestOffset from the last committed position under the stream's default limit; null when nothing new. */
    Offset next() {
        return next(stream.defaultReadLimit());
    }

    Offset next(ReadLimit limit) {
        Offset e = stream.latestOffset(start(), limit);
        return e == null || Offset.same(e, start()) ? null : e;
    }

    /** One whole batch: latestOffset, plan, read, commit. Returns its rows, or null when nothing was new. */
    List<Row> batch() {
        return batch(stream.defaultReadLimit());
    }

    List<Row> batch(ReadLimit limit) {
        Offset end = next(limit);
        if (end == null) {
            return null;
        }
        List<Row> rows = read(start(), end);
        stream.commit(end);
        committed = end;
        return rows;
    }

    List<Row> read(Offset start, Offset end) {
        List<Row> out = new ArrayList<>();
        for (InputPartition part : stream.planPartitions(start, end)) {
            try (PartitionReader r = stream.createReader(part)) {
                while (r.next()) {
                    out.add(r.get());
                }
            } catch (RuntimeException e) {
                throw e;
            } catch (Exception e) {
                throw new RuntimeException(e);
            }
        }
        return out;
    }

    /** The file names of log offsets (from, to]. */
    List<String> names(long fromExclusive, long toInclusive) {
        List<String> out = new ArrayList<>();
        for (FileEntry e : stream.seenFilesLog().entries(fromExclusive, toInclusive)) {
            out.add(e.path().substring(e.path().lastIndexOf('/') + 1));
        }
        return out;
    }

    static long id(Offset o) {
        return FileSourceOffset.of(o);
    }

    static List<Long> ids(List<Row> rows) {
        return rows.stream().map(r -> r.getLong(0)).toList();
    }
}
