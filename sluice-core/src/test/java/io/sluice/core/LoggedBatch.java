package io.sluice.core;

import io.sluice.api.sink.BatchInfo;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** The {@link BatchInfo} the engine hands the sink for a batch, rebuilt from the checkpoint's {@code offsets/N}. */
public final class LoggedBatch {
    private LoggedBatch() {
    }

    public static BatchInfo of(Path checkpoint, String queryId, long batchId) throws IOException {
        List<String> lines = Files.readAllLines(checkpoint.resolve("offsets").resolve(Long.toString(batchId)));
        long plannedAt = Long.parseLong(lines.get(1).replaceAll(".*\"batchTimestampMs\":(\\d+).*", "$1"));
        return new BatchInfo(queryId, batchId, plannedAt, lines.subList(2, lines.size()));
    }
}
