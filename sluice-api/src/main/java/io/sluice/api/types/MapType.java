package io.sluice.api.types;

import java.util.Objects;

/** {@code map<key, value>}; values are {@code java.util.Map}. Keys are never null. */
public record MapType(DataType keyType, DataType valueType, boolean valueContainsNull) implements DataType {
    public MapType {
        Objects.requireNonNull(keyType, "keyType");
        Objects.requireNonNull(valueType, "valueType");
    }

    public static MapType of(DataType keyType, DataType valueType) {
        return new MapType(keyType, valueType, true);
    }

    @Override
    public String simpleString() {
        return "map<" + keyType.simpleString() + "," + valueType.simpleString() + ">";
    }

    @Override
    public String sql() {
        return "MAP<" + keyType.sql() + ", " + valueType.sql() + ">";
    }

    @Override
    public String toString() {
        return simpleString();
    }
}
