package io.sluice.core.checkpoint;

import java.util.Objects;

/**
 * One file of a batch log: its batch id and its content.
 *
 * @param batchId the file's name, a batch id ({@code >= 0})
 * @param value   the parsed content, never null
 */
public record LogEntry<T>(long batchId, T value) {
    public LogEntry {
        Objects.requireNonNull(value, "value");
    }
}
