package io.sluice.api.types;

import java.util.Objects;

/** One named column of a {@link StructType}. {@code nullable} is false for a {@code NOT NULL} column. */
public record StructField(String name, DataType dataType, boolean nullable) {
    public StructField {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(dataType, "dataType");
    }

    public static StructField of(String name, DataType dataType) {
        return new StructField(name, dataType, true);
    }

    /** {@code name: type} as in Spark's simpleString. */
    public String simpleString() {
        return name + ":" + dataType.simpleString();
    }

    /** DDL form: the name backquoted when it needs to be, the type, and {@code NOT NULL} where it applies. */
    public String toDDL() {
        return quoteIfNeeded(name) + " " + dataType.sql() + (nullable ? "" : " NOT NULL");
    }

    static String quoteIfNeeded(String name) {
        if (!name.isEmpty() && name.chars().allMatch(c -> c == '_' || Character.isLetterOrDigit(c))
                && !Character.isDigit(name.charAt(0))) {
            return name;
        }
        return "`" + name.replace("`", "``") + "`";
    }
}
