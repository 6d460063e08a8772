package io.sluice.cli;

import io.sluice.core.StreamFrame;

import java.util.List;

/**
 * The one place where the command line calls the SQL transformations of {@link StreamFrame}.
 *
 * <p>{@code where:} steps become {@link StreamFrame#where(String)}, {@code select:} steps
 * {@link StreamFrame#selectExpr(String...)}; see docs/transformations.md for the SQL they accept.
 */
final class Transforms {

    private Transforms() {
    }

    /**
     * The frame with every step applied in order. Called before the query starts, so an expression the engine
     * rejects fails the run before any batch.
     *
     * @throws io.sluice.core.AnalysisException for an expression that does not parse or resolve
     */
    static StreamFrame apply(StreamFrame frame, List<Transform> steps) {
        StreamFrame f = frame;
        for (Transform t : steps) {
            f = switch (t.kind()) {
                case WHERE -> f.where(t.condition());
                case SELECT -> f.selectExpr(t.expressions().toArray(String[]::new));
            };
        }
        return f;
    }
}
