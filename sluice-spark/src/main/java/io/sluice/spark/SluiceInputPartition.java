package io.sluice.spark;

import org.apache.spark.sql.connector.read.InputPartition;

/** A Sluice partition shipped to an executor inside Spark's task (Java serialization, as Spark does). */
record SluiceInputPartition(io.sluice.api.source.InputPartition partition) implements InputPartition {
    private static final long serialVersionUID = 1L;
}
