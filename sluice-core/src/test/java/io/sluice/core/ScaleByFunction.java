package io.sluice.core;

import io.sluice.api.function.SqlFunction;
import io.sluice.api.types.DataType;

/**
 * A contributed SQL function for the tests, listed in this module's test META-INF/services:
 * {@code scale_by(x BIGINT, factor constant INT)} is {@code x * factor}, null for a null {@code x}.
 */
public class ScaleByFunction implements SqlFunction {
    @Override
    public String name() {
        return "scale_by";
    }

    @Override
    public Binding bind(Call call) {
        if (call.arguments().size() != 2) {
            throw new IllegalArgumentException("The function `scale_by` requires 2 parameters but the actual number is "
                    + call.arguments().size() + ".");
        }
        Argument x = call.arguments().get(0);
        Argument factor = call.arguments().get(1);
        if (x.type() != null && !x.type().equals(DataType.longType())) {
            throw new IllegalArgumentException("Cannot resolve \"" + call.sql() + "\" due to data type mismatch: "
                    + "the first parameter requires the \"BIGINT\" type, however \"" + x.sql() + "\" has the type \""
                    + x.type().sql() + "\".");
        }
        if (!factor.constant() || !(factor.value() instanceof Integer)) {
            throw new IllegalArgumentException("Cannot resolve \"" + call.sql() + "\" due to data type mismatch: "
                    + "the factor \"" + factor.sql() + "\" must be a constant INT.");
        }
        long by = (Integer) factor.value();
        return new Binding(DataType.longType(), x.nullable(), args -> args[0] == null ? null : (Long) args[0] * by);
    }
}
