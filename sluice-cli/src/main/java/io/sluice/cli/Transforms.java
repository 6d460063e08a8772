package io.sluice.cli;

import io.sluice.core.StreamFrame;

import java.util.List;

/**
 * The one place where the command line calls the SQL transformations of {@link StreamFrame}.
 *
 * <p>{@code StreamFrame.where(String)} and {@code StreamFrame.selectExpr(String...)} are not in this build yet.
 * To switch transformations on once they are: delete the {@code throw} line below, uncomment the loop after it,
 * and change {@code RunCommandTest.transformsAreNotAvailableYet} to expect the transformed rows.
 */
final class Transforms {

    private Transforms() {
    }

    /**
     * The frame with every step applied in order. Called before the query starts, so an expression the engine
     * rejects fails the run before any batch.
     *
     * @throws IllegalStateException when there are steps and this build has no transformations
     */
    static StreamFrame apply(StreamFrame frame, List<Transform> steps) {
        if (steps.isEmpty()) {
            return frame;
        }
        throw new IllegalStateException("transformations are not available in this build");
        // StreamFrame f = frame;
        // for (Transform t : steps) {
        //     f = switch (t.kind()) {
        //         case WHERE -> f.where(t.condition());
        //         case SELECT -> f.selectExpr(t.expressions().toArray(String[]::new));
        //     };
        // }
        // return f;
    }
}
