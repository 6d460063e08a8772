package io.sluice.delta;

import com.fasterxml.jackson.databind.JsonNode;
import io.delta.kernel.internal.actions.DeletionVectorDescriptor;

import java.io.Serializable;
import java.util.Optional;

/**
 * A data file's deletion vector descriptor (the log's {@code deletionVector} field), kept as plain values so that a
 * {@link DeltaFile} stays serializable; Kernel's {@link DeletionVectorDescriptor} is made from it when the file is
 * read.
 */
record DeltaDeletionVector(String storageType, String pathOrInlineDv, Integer offset, int sizeInBytes,
                           long cardinality) implements Serializable {

    static DeltaDeletionVector of(DeletionVectorDescriptor d) {
        return d == null ? null : new DeltaDeletionVector(d.getStorageType(), d.getPathOrInlineDv(),
                d.getOffset().orElse(null), d.getSizeInBytes(), d.getCardinality());
    }

    /** From an add action's {@code deletionVector} JSON, or null when it is absent. */
    static DeltaDeletionVector of(JsonNode dv) {
        if (dv == null || dv.isNull() || dv.isMissingNode()) {
            return null;
        }
        return new DeltaDeletionVector(dv.get("storageType").asText(), dv.get("pathOrInlineDv").asText(),
                dv.hasNonNull("offset") ? dv.get("offset").asInt() : null, dv.get("sizeInBytes").asInt(),
                dv.get("cardinality").asLong());
    }

    DeletionVectorDescriptor toKernel() {
        return new DeletionVectorDescriptor(storageType, pathOrInlineDv, Optional.ofNullable(offset), sizeInBytes,
                cardinality);
    }
}
