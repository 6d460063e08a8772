package io.sluice.api.source;

import java.io.Serializable;

/**
 * A slice of one batch's range that one reader reads. Serializable so a bridge can ship it to another process;
 * keep it small (offsets, file names), never data.
 */
public interface InputPartition extends Serializable {
}
