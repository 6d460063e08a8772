package io.sluice.delta;

import io.sluice.api.source.InputPartition;

import java.util.Map;

/**
 * One data file of a batch, read by one reader: its absolute path as Kernel's file system takes it, size,
 * modification time and partition values (text, as in the log). Also the stream's unit of admission.
 *
 * @param deletionVector the file's deletion vector as the log gives it, or null when it has none
 */
record DeltaFile(String path, String logPath, long size, long modificationTime, Map<String, String> partitionValues,
                 DeltaDeletionVector deletionVector) implements InputPartition {
}
