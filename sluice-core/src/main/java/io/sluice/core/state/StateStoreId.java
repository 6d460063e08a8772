package io.sluice.core.state;

/**
 * One store: an operator of the query (numbered from 0, top-down from the sink, as Spark numbers them) and one of
 * its state partitions ({@code 0 .. spark.sql.shuffle.partitions - 1}).
 *
 * @param operatorId  the operator's number, the folder {@code state/<operatorId>}
 * @param partitionId the partition, the folder {@code state/<operatorId>/<partitionId>}
 */
public record StateStoreId(int operatorId, int partitionId) {
    public StateStoreId {
        if (operatorId < 0 || partitionId < 0) {
            throw new IllegalArgumentException("Negative state store id " + operatorId + "/" + partitionId);
        }
    }
}
