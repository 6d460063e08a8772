package io.sluice.core.checkpoint;

/**
 * The content of {@code commits/N}: batch N is done (the sink committed it). Spark's CommitMetadata.
 *
 * @param nextBatchWatermarkMs the event-time watermark the next batch starts with (0 when none)
 */
public record CommitMetadata(long nextBatchWatermarkMs) {

    /** A commit with no watermark: {@code {"nextBatchWatermarkMs":0}}. */
    public static CommitMetadata empty() {
        return new CommitMetadata(0L);
    }
}
