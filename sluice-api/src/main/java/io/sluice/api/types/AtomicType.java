package io.sluice.api.types;

/** A type without parameters: boolean, numbers, string, binary, date and timestamp. */
public enum AtomicType implements DataType {
    BOOLEAN_TYPE("boolean", "BOOLEAN"),
    BYTE_TYPE("tinyint", "TINYINT"),
    SHORT_TYPE("smallint", "SMALLINT"),
    INT_TYPE("int", "INT"),
    LONG_TYPE("bigint", "BIGINT"),
    FLOAT_TYPE("float", "FLOAT"),
    DOUBLE_TYPE("double", "DOUBLE"),
    STRING_TYPE("string", "STRING"),
    BINARY_TYPE("binary", "BINARY"),
    DATE_TYPE("date", "DATE"),
    TIMESTAMP_TYPE("timestamp", "TIMESTAMP");

    private final String simple;
    private final String sql;

    AtomicType(String simple, String sql) {
        this.simple = simple;
        this.sql = sql;
    }

    @Override
    public String simpleString() {
        return simple;
    }

    @Override
    public String sql() {
        return sql;
    }

    @Override
    public String toString() {
        return simple;
    }
}
