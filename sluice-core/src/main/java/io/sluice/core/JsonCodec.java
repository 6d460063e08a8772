package io.sluice.core;

import java.lang.reflect.Constructor;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.lang.reflect.WildcardType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The small JSON writer and reader behind {@link OffsetJson}. Offsets are tiny, so a recursive descent over a
 * String is all it takes (and it keeps Jackson's ObjectMapper, ~300 ms to load, off the start-up path). The
 * engine's, not the public contract's: sluice-api holds no implementation.
 */
final class JsonCodec {
    private JsonCodec() {
    }

    // ------------------------------------------------------------------ writing

    static String write(Object value) {
        StringBuilder sb = new StringBuilder();
        write(value, sb, "the offset");
        return sb.toString();
    }

    private static void write(Object v, StringBuilder sb, String where) {
        if (v == null) {
            sb.append("null");
        } else if (v instanceof String s) {
            quote(s, sb);
        } else if (v instanceof Boolean b) {
            sb.append(b);
        } else if (v instanceof Byte || v instanceof Short || v instanceof Integer || v instanceof Long
                || v instanceof BigInteger) {
            sb.append(v);
        } else if (v instanceof Double || v instanceof Float) {
            double d = ((Number) v).doubleValue();
            if (Double.isNaN(d) || Double.isInfinite(d)) {
                throw new IllegalArgumentException(where + " is " + v + ", which is not a JSON number");
            }
            sb.append(v);
        } else if (v instanceof BigDecimal d) {
            sb.append(d.toString());
        } else if (v instanceof Enum<?> e) {
            quote(e.name(), sb);
        } else if (v instanceof List<?> list) {
            sb.append('[');
            for (int i = 0; i < list.size(); i++) {
                if (i > 0) {
                    sb.append(',');
                }
                write(list.get(i), sb, where + "[" + i + "]");
            }
            sb.append(']');
        } else if (v instanceof Map<?, ?> map) {
            Map<String, Object> sorted = new TreeMap<>();
            for (Map.Entry<?, ?> e : map.entrySet()) {
                if (!(e.getKey() instanceof String k)) {
                    throw new IllegalArgumentException(where + " has a map key " + e.getKey() + " of type "
                            + (e.getKey() == null ? "null" : e.getKey().getClass().getName())
                            + ": JSON object keys must be Strings");
                }
                sorted.put(k, e.getValue());
            }
            writeObject(sorted, sb, where);
        } else if (v instanceof Record r) {
            Map<String, Object> fields = new LinkedHashMap<>();
            for (RecordComponent c : r.getClass().getRecordComponents()) {
                try {
                    var accessor = c.getAccessor();
                    accessor.setAccessible(true);
                    fields.put(c.getName(), accessor.invoke(r));
                } catch (IllegalAccessException | InvocationTargetException | RuntimeException e) {
                    throw new IllegalArgumentException("cannot read component " + c.getName() + " of "
                            + r.getClass().getName() + ": " + e, e);
                }
            }
            writeObject(fields, sb, where);
        } else {
            throw new IllegalArgumentException(where + " is a " + v.getClass().getName() + ", which is not a JSON "
                    + "value: use a record, Map, List, String, Number, Boolean or null");
        }
    }

    private static void writeObject(Map<String, Object> fields, StringBuilder sb, String where) {
        sb.append('{');
        boolean first = true;
        for (Map.Entry<String, Object> e : fields.entrySet()) {
            if (!first) {
                sb.append(',');
            }
            first = false;
            quote(e.getKey(), sb);
            sb.append(':');
            write(e.getValue(), sb, where + "." + e.getKey());
        }
        sb.append('}');
    }

    private static void quote(String s, StringBuilder sb) {
        sb.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                case '\b' -> sb.append("\\b");
                case '\f' -> sb.append("\\f");
                default -> {
                    if (c < 0x20) {
                        sb.append(String.format("\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        sb.append('"');
    }

    // ------------------------------------------------------------------ reading

    /** A number as written, converted once the target type is known. */
    private record Num(String text) {
        boolean integral() {
            return text.indexOf('.') < 0 && text.indexOf('e') < 0 && text.indexOf('E') < 0;
        }
    }

    static Object read(String json, Type type) {
        if (json == null) {
            throw new IllegalArgumentException("no JSON (null)");
        }
        Parser p = new Parser(json);
        p.skipWs();
        Object raw = p.value();
        p.skipWs();
        if (p.pos != json.length()) {
            throw p.error("unexpected text after the value");
        }
        return convert(raw, type, "the offset");
    }

    private static final class Parser {
        private final String s;
        private int pos;

        Parser(String s) {
            this.s = s;
        }

        IllegalArgumentException error(String what) {
            return new IllegalArgumentException("invalid JSON at character " + pos + " of " + s + ": " + what);
        }

        void skipWs() {
            while (pos < s.length() && " \t\r\n".indexOf(s.charAt(pos)) >= 0) {
                pos++;
            }
        }

        Object value() {
            if (pos >= s.length()) {
                throw error("a value was expected");
            }
            char c = s.charAt(pos);
            switch (c) {
                case '{':
                    return object();
                case '[':
                    return array();
                case '"':
                    return string();
                case 't':
                    return literal("true", Boolean.TRUE);
                case 'f':
                    return literal("false", Boolean.FALSE);
                case 'n':
                    return literal("null", null);
                default:
                    if (c == '-' || (c >= '0' && c <= '9')) {
                        return number();
                    }
                    throw error("unexpected '" + c + "'");
            }
        }

        private Object literal(String word, Object v) {
            if (!s.startsWith(word, pos)) {
                throw error(word + " was expected");
            }
            pos += word.length();
            return v;
        }

        private Num number() {
            int start = pos;
            if (s.charAt(pos) == '-') {
                pos++;
            }
            while (pos < s.length() && "0123456789.eE+-".indexOf(s.charAt(pos)) >= 0) {
                pos++;
            }
            String text = s.substring(start, pos);
            try {
                new BigDecimal(text);
            } catch (NumberFormatException e) {
                pos = start;
                throw error("bad number " + text);
            }
            return new Num(text);
        }

        private String string() {
            pos++;
            StringBuilder sb = new StringBuilder();
            while (true) {
                if (pos >= s.length()) {
                    throw error("unterminated string");
                }
                char c = s.charAt(pos++);
                if (c == '"') {
                    return sb.toString();
                }
                if (c != '\\') {
                    sb.append(c);
                    continue;
                }
                if (pos >= s.length()) {
                    throw error("unterminated string");
                }
                char e = s.charAt(pos++);
                switch (e) {
                    case '"', '\\', '/' -> sb.append(e);
                    case 'n' -> sb.append('\n');
                    case 'r' -> sb.append('\r');
                    case 't' -> sb.append('\t');
                    case 'b' -> sb.append('\b');
                    case 'f' -> sb.append('\f');
                    case 'u' -> {
                        if (pos + 4 > s.length()) {
                            throw error("bad \\u escape");
                        }
                        sb.append((char) Integer.parseInt(s.substring(pos, pos + 4), 16));
                        pos += 4;
                    }
                    default -> throw error("bad escape \\" + e);
                }
            }
        }

        private List<Object> array() {
            pos++;
            List<Object> out = new ArrayList<>();
            skipWs();
            if (pos < s.length() && s.charAt(pos) == ']') {
                pos++;
                return out;
            }
            while (true) {
                skipWs();
                out.add(value());
                skipWs();
                if (pos >= s.length()) {
                    throw error("unterminated array");
                }
                char c = s.charAt(pos++);
                if (c == ']') {
                    return out;
                }
                if (c != ',') {
                    pos--;
                    throw error("',' or ']' was expected");
                }
            }
        }

        private Map<String, Object> object() {
            pos++;
            Map<String, Object> out = new LinkedHashMap<>();
            skipWs();
            if (pos < s.length() && s.charAt(pos) == '}') {
                pos++;
                return out;
            }
            while (true) {
                skipWs();
                if (pos >= s.length() || s.charAt(pos) != '"') {
                    throw error("a key was expected");
                }
                String key = string();
                skipWs();
                if (pos >= s.length() || s.charAt(pos) != ':') {
                    throw error("':' was expected");
                }
                pos++;
                skipWs();
                if (out.containsKey(key)) {
                    throw error("duplicate key " + key);
                }
                out.put(key, value());
                skipWs();
                if (pos >= s.length()) {
                    throw error("unterminated object");
                }
                char c = s.charAt(pos++);
                if (c == '}') {
                    return out;
                }
                if (c != ',') {
                    pos--;
                    throw error("',' or '}' was expected");
                }
            }
        }
    }

    // ------------------------------------------------------------------ converting

    private static Object convert(Object raw, Type type, String where) {
        if (type instanceof WildcardType w) {
            return convert(raw, w.getUpperBounds()[0], where);
        }
        if (type instanceof TypeVariable<?> || type instanceof GenericArrayType) {
            return convert(raw, Object.class, where);
        }
        if (type instanceof ParameterizedType pt) {
            Class<?> rawClass = (Class<?>) pt.getRawType();
            Type[] args = pt.getActualTypeArguments();
            if (Map.class.isAssignableFrom(rawClass)) {
                return toMap(raw, args[1], where);
            }
            if (Collection.class.isAssignableFrom(rawClass)) {
                return toList(raw, args[0], where);
            }
            return convert(raw, rawClass, where);
        }
        Class<?> c = (Class<?>) type;
        if (c == Object.class) {
            return plain(raw, where);
        }
        if (raw == null) {
            if (c.isPrimitive()) {
                throw new IllegalArgumentException(where + " is null but " + c + " cannot be null");
            }
            return null;
        }
        if (c.isRecord()) {
            return toRecord(raw, c, where);
        }
        if (c == String.class) {
            return expect(raw, String.class, where, "a string");
        }
        if (c == Boolean.class || c == boolean.class) {
            return expect(raw, Boolean.class, where, "true or false");
        }
        if (c.isEnum()) {
            String name = (String) expect(raw, String.class, where, "a string");
            for (Object constant : c.getEnumConstants()) {
                if (((Enum<?>) constant).name().equals(name)) {
                    return constant;
                }
            }
            throw new IllegalArgumentException(where + " is \"" + name + "\", not a constant of " + c.getName());
        }
        if (Map.class.isAssignableFrom(c)) {
            return toMap(raw, Object.class, where);
        }
        if (List.class.isAssignableFrom(c) || c == Collection.class) {
            return toList(raw, Object.class, where);
        }
        if (Number.class.isAssignableFrom(c) || c.isPrimitive()) {
            Num n = (Num) expect(raw, Num.class, where, "a number");
            try {
                BigDecimal d = new BigDecimal(n.text());
                if (c == long.class || c == Long.class) {
                    return d.longValueExact();
                }
                if (c == int.class || c == Integer.class) {
                    return d.intValueExact();
                }
                if (c == short.class || c == Short.class) {
                    return d.shortValueExact();
                }
                if (c == byte.class || c == Byte.class) {
                    return d.byteValueExact();
                }
                if (c == double.class || c == Double.class) {
                    return Double.parseDouble(n.text());
                }
                if (c == float.class || c == Float.class) {
                    return Float.parseFloat(n.text());
                }
                if (c == BigInteger.class) {
                    return d.toBigIntegerExact();
                }
                if (c == BigDecimal.class) {
                    return d;
                }
                if (c == Number.class) {
                    return plain(n, where);
                }
            } catch (ArithmeticException e) {
                throw new IllegalArgumentException(where + " is " + n.text() + ", which does not fit " + c.getName());
            }
        }
        throw new IllegalArgumentException(where + " cannot be read back as a " + c.getName()
                + ": use a record, Map, List, String, Number, Boolean or an enum");
    }

    private static Object expect(Object raw, Class<?> kind, String where, String what) {
        if (!kind.isInstance(raw)) {
            throw new IllegalArgumentException(where + " is " + describe(raw) + " but " + what + " was expected");
        }
        return raw;
    }

    private static String describe(Object raw) {
        if (raw instanceof Num n) {
            return n.text();
        }
        if (raw instanceof String s) {
            return "\"" + s + "\"";
        }
        if (raw instanceof Map) {
            return "an object";
        }
        if (raw instanceof List) {
            return "an array";
        }
        return String.valueOf(raw);
    }

    /** Untyped: Maps, Lists, Longs/BigIntegers, Doubles. */
    private static Object plain(Object raw, String where) {
        if (raw instanceof Num n) {
            if (n.integral()) {
                BigInteger b = new BigInteger(n.text());
                return b.bitLength() < 64 ? (Object) b.longValue() : b;
            }
            return Double.parseDouble(n.text());
        }
        if (raw instanceof Map<?, ?>) {
            return toMap(raw, Object.class, where);
        }
        if (raw instanceof List<?>) {
            return toList(raw, Object.class, where);
        }
        return raw;
    }

    private static Map<String, Object> toMap(Object raw, Type valueType, String where) {
        Map<?, ?> in = (Map<?, ?>) expect(raw, Map.class, where, "an object");
        Map<String, Object> out = new LinkedHashMap<>();
        in.forEach((k, v) -> out.put((String) k, convert(v, valueType, where + "." + k)));
        return out;
    }

    private static List<Object> toList(Object raw, Type elementType, String where) {
        List<?> in = (List<?>) expect(raw, List.class, where, "an array");
        List<Object> out = new ArrayList<>(in.size());
        for (int i = 0; i < in.size(); i++) {
            out.add(convert(in.get(i), elementType, where + "[" + i + "]"));
        }
        return out;
    }

    private static Object toRecord(Object raw, Class<?> c, String where) {
        Map<?, ?> in = (Map<?, ?>) expect(raw, Map.class, where, "an object for record " + c.getSimpleName());
        RecordComponent[] components = c.getRecordComponents();
        Object[] args = new Object[components.length];
        Class<?>[] types = new Class<?>[components.length];
        for (int i = 0; i < components.length; i++) {
            RecordComponent rc = components[i];
            types[i] = rc.getType();
            if (!in.containsKey(rc.getName()) && rc.getType().isPrimitive()) {
                throw new IllegalArgumentException(where + " has no \"" + rc.getName() + "\" for record "
                        + c.getSimpleName());
            }
            args[i] = convert(in.get(rc.getName()), rc.getGenericType(), where + "." + rc.getName());
        }
        for (Object key : in.keySet()) {
            boolean known = false;
            for (RecordComponent rc : components) {
                known |= rc.getName().equals(key);
            }
            if (!known) {
                throw new IllegalArgumentException(where + " has a key \"" + key + "\" that record "
                        + c.getSimpleName() + " does not have");
            }
        }
        try {
            Constructor<?> ctor = c.getDeclaredConstructor(types);
            ctor.setAccessible(true);
            return ctor.newInstance(args);
        } catch (InvocationTargetException e) {
            throw new IllegalArgumentException("the constructor of " + c.getSimpleName() + " refused " + where + ": "
                    + e.getCause(), e.getCause());
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new IllegalArgumentException("cannot build record " + c.getName() + ": " + e, e);
        }
    }

    // ------------------------------------------------------------------ ordering

    static OffsetJson.Order compare(Object a, Object b) {
        if (a instanceof Number x && b instanceof Number y) {
            int cmp = toDecimal(x).compareTo(toDecimal(y));
            return cmp < 0 ? OffsetJson.Order.BEFORE : cmp > 0 ? OffsetJson.Order.AFTER : OffsetJson.Order.SAME;
        }
        if (a instanceof Map<?, ?> x && b instanceof Map<?, ?> y) {
            if (!x.keySet().equals(y.keySet())) {
                return OffsetJson.Order.UNORDERED;
            }
            OffsetJson.Order result = OffsetJson.Order.SAME;
            for (Object k : x.keySet()) {
                result = combine(result, compare(x.get(k), y.get(k)));
            }
            return result;
        }
        if (a instanceof List<?> x && b instanceof List<?> y) {
            if (x.size() != y.size()) {
                return OffsetJson.Order.UNORDERED;
            }
            OffsetJson.Order result = OffsetJson.Order.SAME;
            for (int i = 0; i < x.size(); i++) {
                result = combine(result, compare(x.get(i), y.get(i)));
            }
            return result;
        }
        return java.util.Objects.equals(a, b) ? OffsetJson.Order.SAME : OffsetJson.Order.UNORDERED;
    }

    private static BigDecimal toDecimal(Number n) {
        return n instanceof BigInteger b ? new BigDecimal(b) : n instanceof Long l ? BigDecimal.valueOf(l)
                : new BigDecimal(n.toString());
    }

    private static OffsetJson.Order combine(OffsetJson.Order a, OffsetJson.Order b) {
        if (a == OffsetJson.Order.UNORDERED || b == OffsetJson.Order.UNORDERED) {
            return OffsetJson.Order.UNORDERED;
        }
        if (a == OffsetJson.Order.SAME) {
            return b;
        }
        if (b == OffsetJson.Order.SAME || a == b) {
            return a;
        }
        return OffsetJson.Order.MIXED;
    }
}
