package io.sluice.api.types;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * An ordered list of named columns: the schema of a source, a sink or a nested struct value.
 * Immutable. Field names are looked up case-insensitively, as Spark does by default; an exact match wins.
 */
public final class StructType implements DataType {
    private final List<StructField> fields;
    private final Map<String, Integer> exact;
    private final Map<String, Integer> lower;

    public StructType(List<StructField> fields) {
        this.fields = List.copyOf(fields);
        Map<String, Integer> e = new HashMap<>();
        Map<String, Integer> l = new HashMap<>();
        for (int i = 0; i < this.fields.size(); i++) {
            String n = this.fields.get(i).name();
            e.putIfAbsent(n, i);
            l.putIfAbsent(n.toLowerCase(Locale.ROOT), i);
        }
        this.exact = e;
        this.lower = l;
    }

    public static StructType of(StructField... fields) {
        return new StructType(List.of(fields));
    }

    /**
     * Parses a schema in Spark's DDL form: {@code "seq long, account string, amount decimal(10,2) NOT NULL"}.
     * Column names may be backquoted; a colon between name and type is allowed; a {@code COMMENT 'text'} is
     * accepted and dropped.
     *
     * @throws SchemaParseException naming the position and the offending token
     */
    public static StructType fromDDL(String ddl) {
        return DdlParser.parseSchema(ddl);
    }

    public List<StructField> fields() {
        return fields;
    }

    public int size() {
        return fields.size();
    }

    public StructField field(int index) {
        return fields.get(index);
    }

    public List<String> fieldNames() {
        return fields.stream().map(StructField::name).collect(Collectors.toUnmodifiableList());
    }

    /** The index of the named field, or -1. */
    public int indexOf(String name) {
        Integer i = exact.get(name);
        if (i == null) {
            i = lower.get(name.toLowerCase(Locale.ROOT));
        }
        return i == null ? -1 : i;
    }

    /**
     * The index of the named field.
     *
     * @throws IllegalArgumentException naming the field and the available ones
     */
    public int fieldIndex(String name) {
        int i = indexOf(name);
        if (i < 0) {
            throw new IllegalArgumentException(
                    "No column named '" + name + "'; available columns: " + String.join(", ", fieldNames()));
        }
        return i;
    }

    public Optional<StructField> find(String name) {
        int i = indexOf(name);
        return i < 0 ? Optional.empty() : Optional.of(fields.get(i));
    }

    /** A copy with one more column at the end. */
    public StructType add(String name, DataType type) {
        return add(StructField.of(name, type));
    }

    public StructType add(StructField field) {
        List<StructField> copy = new ArrayList<>(fields);
        copy.add(field);
        return new StructType(copy);
    }

    @Override
    public String simpleString() {
        return fields.stream().map(StructField::simpleString).collect(Collectors.joining(",", "struct<", ">"));
    }

    @Override
    public String sql() {
        return fields.stream()
                .map(f -> StructField.quoteIfNeeded(f.name()) + ": " + f.dataType().sql() + (f.nullable() ? "" : " NOT NULL"))
                .collect(Collectors.joining(", ", "STRUCT<", ">"));
    }

    /** The schema as a DDL string that {@link #fromDDL(String)} reads back to an equal schema. */
    public String toDDL() {
        return fields.stream().map(StructField::toDDL).collect(Collectors.joining(", "));
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof StructType s && s.fields.equals(fields);
    }

    @Override
    public int hashCode() {
        return fields.hashCode();
    }

    @Override
    public String toString() {
        return simpleString();
    }

    /**
     * Checks a schema a user gives a source ({@code schema(..)}, the CLI's {@code --schema}, a pipeline file's
     * {@code source.schema}) and returns it. Refused, with an {@link IllegalArgumentException}:
     * <ul>
     *   <li>an empty schema (from blank DDL such as an unset shell variable): it would read every row as
     *       {@code {}};</li>
     *   <li>duplicate column names, compared case-insensitively as Spark does by default, at the top level and
     *       inside nested structs (also in arrays and maps), with Spark's message
     *       {@code Found duplicate column(s) in the user specified schema: `id`} (each duplicate name in lower
     *       case, in order of first appearance, joined by ", ").</li>
     * </ul>
     */
    public static StructType checkUserSpecified(StructType schema) {
        if (schema.size() == 0) {
            throw new IllegalArgumentException("The user specified schema is empty: give at least one column, as"
                    + " in \"id long, name string\" (an empty schema would read every row as {})");
        }
        checkDuplicates(schema);
        return schema;
    }

    /** Spark's {@code SchemaUtils.checkSchemaColumnNameDuplication}, case-insensitive, recursing as it does. */
    private static void checkDuplicates(DataType type) {
        if (type instanceof ArrayType a) {
            checkDuplicates(a.elementType());
        } else if (type instanceof MapType m) {
            checkDuplicates(m.keyType());
            checkDuplicates(m.valueType());
        } else if (type instanceof StructType s) {
            Set<String> seen = new HashSet<>();
            Set<String> duplicates = new LinkedHashSet<>();
            for (StructField f : s.fields) {
                String lower = f.name().toLowerCase(Locale.ROOT);
                if (!seen.add(lower)) {
                    duplicates.add(lower);
                }
            }
            if (!duplicates.isEmpty()) {
                throw new IllegalArgumentException("Found duplicate column(s) in the user specified schema: "
                        + duplicates.stream().map(d -> "`" + d + "`").collect(Collectors.joining(", ")));
            }
            s.fields.forEach(f -> checkDuplicates(f.dataType()));
        }
    }

    /** An empty schema. */
    public static StructType empty() {
        return new StructType(Collections.emptyList());
    }
}
