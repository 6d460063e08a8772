package io.sluice.core.checkpoint;

import java.util.Objects;

/**
 * Where a query starts, from its checkpoint (Spark's populateStartOffsets). Returned by
 * {@link Checkpoint#recover()}; exactly one of:
 * <ul>
 *   <li>{@link Fresh}: nothing logged; batch 0 starts at each source's initial offset (starting options apply).
 *   <li>{@link Resume}: the last logged batch is committed; plan a new batch {@code nextBatchId} from its end.
 *   <li>{@link Rerun}: the last logged batch is not committed; run it again with exactly the logged range,
 *       without asking the sources for new offsets and without writing {@code offsets/} again.
 * </ul>
 */
public sealed interface RecoveryPlan permits RecoveryPlan.Fresh, RecoveryPlan.Resume, RecoveryPlan.Rerun {

    /** The id of the first batch the query runs. */
    long firstBatchId();

    /** An empty checkpoint: start at batch 0. */
    record Fresh() implements RecoveryPlan {
        @Override
        public long firstBatchId() {
            return 0L;
        }
    }

    /**
     * Batch {@code nextBatchId - 1} is committed: plan {@code nextBatchId} starting at {@code startOffsets}.
     *
     * @param nextBatchId  the batch to plan (latest logged id + 1)
     * @param startOffsets the offsets of the latest (committed) batch, i.e. where the next one starts
     * @param lastCommit   that batch's commit (its {@code nextBatchWatermarkMs} seeds the watermark)
     */
    record Resume(long nextBatchId, OffsetSeq startOffsets, CommitMetadata lastCommit) implements RecoveryPlan {
        public Resume {
            Objects.requireNonNull(startOffsets, "startOffsets");
            Objects.requireNonNull(lastCommit, "lastCommit");
        }

        @Override
        public long firstBatchId() {
            return nextBatchId;
        }
    }

    /**
     * Batch {@code batchId} was logged but not committed: run it again over the logged range.
     *
     * @param batchId      the batch to re-run (the latest logged id)
     * @param startOffsets the end of the previous batch ({@code offsets/<batchId - 1>}); null for batch 0, where
     *                     each source starts at its initial offset
     * @param endOffsets   the logged end of this batch ({@code offsets/<batchId>})
     */
    record Rerun(long batchId, OffsetSeq startOffsets, OffsetSeq endOffsets) implements RecoveryPlan {
        public Rerun {
            Objects.requireNonNull(endOffsets, "endOffsets");
            if ((startOffsets == null) != (batchId == 0)) {
                throw new IllegalArgumentException("startOffsets must be null exactly for batch 0");
            }
        }

        @Override
        public long firstBatchId() {
            return batchId;
        }
    }
}
