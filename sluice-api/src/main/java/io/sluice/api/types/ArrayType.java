package io.sluice.api.types;

import java.util.Objects;

/** {@code array<element>}; values are {@code java.util.List}. */
public record ArrayType(DataType elementType, boolean containsNull) implements DataType {
    public ArrayType {
        Objects.requireNonNull(elementType, "elementType");
    }

    public static ArrayType of(DataType elementType) {
        return new ArrayType(elementType, true);
    }

    @Override
    public String simpleString() {
        return "array<" + elementType.simpleString() + ">";
    }

    @Override
    public String sql() {
        return "ARRAY<" + elementType.sql() + ">";
    }

    @Override
    public String toString() {
        return simpleString();
    }
}
