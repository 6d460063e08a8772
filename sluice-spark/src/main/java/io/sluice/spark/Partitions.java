package io.sluice.spark;

import io.sluice.api.source.InputPartition;

import java.io.IOException;
import java.io.ObjectOutputStream;
import java.io.OutputStream;
import java.util.List;

/** Wraps a source's partitions for Spark, checking on the driver that each one can travel to an executor. */
final class Partitions {
    private Partitions() {
    }

    static org.apache.spark.sql.connector.read.InputPartition[] wrap(String source, List<InputPartition> parts) {
        org.apache.spark.sql.connector.read.InputPartition[] out =
                new org.apache.spark.sql.connector.read.InputPartition[parts.size()];
        for (int i = 0; i < out.length; i++) {
            InputPartition p = parts.get(i);
            checkSerializable(source, p);
            out[i] = new SluiceInputPartition(p);
        }
        return out;
    }

    /**
     * Spark would fail the task later with a bare NotSerializableException deep in its scheduler; this names the
     * source and the class to fix instead.
     */
    private static void checkSerializable(String source, InputPartition p) {
        try (ObjectOutputStream out = new ObjectOutputStream(OutputStream.nullOutputStream())) {
            out.writeObject(p);
        } catch (IOException e) {
            throw new IllegalStateException("The Sluice source '" + source + "' planned a partition of class "
                    + p.getClass().getName() + " that cannot be serialized to Spark's executors (" + e
                    + "). Every field of an InputPartition must be Serializable: keep offsets, file names and other"
                    + " small values in it, never streams, clients or data", e);
        }
    }
}
