package io.sluice.python;

import io.sluice.api.types.ArrayType;
import io.sluice.api.types.AtomicType;
import io.sluice.api.types.DataType;
import io.sluice.api.types.DecimalType;
import io.sluice.api.types.MapType;
import io.sluice.api.types.StructField;
import io.sluice.api.types.StructType;
import io.sluice.core.OffsetJson;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Schemas in Spark's JSON form ({@code StructType.json()} in PySpark), both ways. */
final class SchemaJson {
    private SchemaJson() {
    }

    static String write(StructType schema) {
        return OffsetJson.write(value(schema));
    }

    static StructType read(String json) {
        DataType t = type(OffsetJson.read(json));
        if (!(t instanceof StructType s)) {
            throw new IllegalArgumentException("Not a struct schema: " + json);
        }
        return s;
    }

    static Object value(DataType t) {
        if (t instanceof AtomicType a) {
            return switch (a) {
                case BYTE_TYPE -> "byte";
                case SHORT_TYPE -> "short";
                case INT_TYPE -> "integer";
                case LONG_TYPE -> "long";
                default -> a.simpleString();
            };
        }
        if (t instanceof DecimalType d) {
            return "decimal(" + d.precision() + "," + d.scale() + ")";
        }
        Map<String, Object> m = new LinkedHashMap<>();
        if (t instanceof ArrayType a) {
            m.put("type", "array");
            m.put("elementType", value(a.elementType()));
            m.put("containsNull", a.containsNull());
        } else if (t instanceof MapType mt) {
            m.put("type", "map");
            m.put("keyType", value(mt.keyType()));
            m.put("valueType", value(mt.valueType()));
            m.put("valueContainsNull", mt.valueContainsNull());
        } else {
            StructType s = (StructType) t;
            List<Object> fields = new ArrayList<>();
            for (StructField f : s.fields()) {
                Map<String, Object> fm = new LinkedHashMap<>();
                fm.put("name", f.name());
                fm.put("type", value(f.dataType()));
                fm.put("nullable", f.nullable());
                fm.put("metadata", Map.of());
                fields.add(fm);
            }
            m.put("type", "struct");
            m.put("fields", fields);
        }
        return m;
    }

    static DataType type(Object v) {
        if (v instanceof String s) {
            return switch (s) {
                case "boolean" -> AtomicType.BOOLEAN_TYPE;
                case "byte" -> AtomicType.BYTE_TYPE;
                case "short" -> AtomicType.SHORT_TYPE;
                case "integer" -> AtomicType.INT_TYPE;
                case "long" -> AtomicType.LONG_TYPE;
                case "float" -> AtomicType.FLOAT_TYPE;
                case "double" -> AtomicType.DOUBLE_TYPE;
                case "string" -> AtomicType.STRING_TYPE;
                case "binary" -> AtomicType.BINARY_TYPE;
                case "date" -> AtomicType.DATE_TYPE;
                case "timestamp" -> AtomicType.TIMESTAMP_TYPE;
                case "decimal" -> new DecimalType(10, 0);
                default -> {
                    if (s.startsWith("decimal(") && s.endsWith(")")) {
                        String[] ps = s.substring(8, s.length() - 1).split(",");
                        yield new DecimalType(Integer.parseInt(ps[0].trim()), Integer.parseInt(ps[1].trim()));
                    }
                    throw new IllegalArgumentException("Sluice has no type '" + s + "' (from a Python schema)");
                }
            };
        }
        Map<?, ?> m = (Map<?, ?>) v;
        String kind = String.valueOf(m.get("type"));
        switch (kind) {
            case "array":
                return new ArrayType(type(m.get("elementType")), !Boolean.FALSE.equals(m.get("containsNull")));
            case "map":
                return new MapType(type(m.get("keyType")), type(m.get("valueType")),
                        !Boolean.FALSE.equals(m.get("valueContainsNull")));
            case "struct":
                List<StructField> fields = new ArrayList<>();
                for (Object f : (List<?>) m.get("fields")) {
                    Map<?, ?> fm = (Map<?, ?>) f;
                    fields.add(new StructField((String) fm.get("name"), type(fm.get("type")),
                            !Boolean.FALSE.equals(fm.get("nullable"))));
                }
                return new StructType(fields);
            default:
                throw new IllegalArgumentException("Sluice has no type " + v + " (from a Python schema)");
        }
    }
}
