package io.sluice.api;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The options a user gave a source or sink: an immutable map whose keys are case-insensitive (as in Spark), with
 * typed getters that fail with an {@link InvalidOptionException} naming the option, the value and what is
 * accepted. The original spelling of each key is kept for {@link #asMap()}.
 */
public final class Options {
    private static final Options EMPTY = new Options(Map.of());
    private static final List<String> SECRET_KEY_PARTS = List.of("password", "secret", "sasl.jaas.config", "token");
    /** What {@link #toString()} shows instead of a secret value. */
    public static final String SECRET_MASK = "*****";
    private final Map<String, String> byLowerKey;
    private final Map<String, String> original;

    private Options(Map<String, String> original) {
        Map<String, String> lower = new TreeMap<>();
        Map<String, String> orig = new LinkedHashMap<>();
        original.forEach((k, v) -> {
            if (k == null || v == null) {
                throw new IllegalArgumentException("Option keys and values must not be null: " + k + "=" + v);
            }
            String lk = k.toLowerCase(Locale.ROOT);
            if (lower.containsKey(lk)) {
                orig.keySet().removeIf(o -> o.equalsIgnoreCase(k));
            }
            lower.put(lk, v);
            orig.put(k, v);
        });
        this.byLowerKey = Collections.unmodifiableMap(lower);
        this.original = Collections.unmodifiableMap(orig);
    }

    public static Options of(Map<String, String> options) {
        return options.isEmpty() ? EMPTY : new Options(options);
    }

    public static Options empty() {
        return EMPTY;
    }

    /** A copy with one option set (replacing any spelling of the same key). */
    public Options with(String key, String value) {
        Map<String, String> copy = new LinkedHashMap<>(original);
        copy.keySet().removeIf(k -> k.equalsIgnoreCase(key));
        copy.put(key, value);
        return new Options(copy);
    }

    /** The options as given, in the order given, with their original key spelling. */
    public Map<String, String> asMap() {
        return original;
    }

    public boolean contains(String key) {
        return byLowerKey.containsKey(key.toLowerCase(Locale.ROOT));
    }

    public Optional<String> get(String key) {
        return Optional.ofNullable(byLowerKey.get(key.toLowerCase(Locale.ROOT)));
    }

    public String get(String key, String defaultValue) {
        return get(key).orElse(defaultValue);
    }

    /** The value, or an {@link InvalidOptionException} saying the option is required. */
    public String require(String key) {
        return get(key).orElseThrow(() -> new InvalidOptionException(key, null, "the option is required"));
    }

    public long getLong(String key, long defaultValue) {
        return get(key).map(v -> parseLong(key, v)).orElse(defaultValue);
    }

    public Optional<Long> getLong(String key) {
        return get(key).map(v -> parseLong(key, v));
    }

    public int getInt(String key, int defaultValue) {
        return get(key).map(v -> parseInt(key, v)).orElse(defaultValue);
    }

    public Optional<Integer> getInt(String key) {
        return get(key).map(v -> parseInt(key, v));
    }

    public boolean getBoolean(String key, boolean defaultValue) {
        return get(key).map(v -> parseBoolean(key, v)).orElse(defaultValue);
    }

    /** Options whose key starts with {@code prefix} (case-insensitive), with the prefix removed, keys lower-cased. */
    public Map<String, String> withPrefix(String prefix) {
        String p = prefix.toLowerCase(Locale.ROOT);
        Map<String, String> out = new LinkedHashMap<>();
        original.forEach((k, v) -> {
            if (k.toLowerCase(Locale.ROOT).startsWith(p)) {
                out.put(k.substring(prefix.length()), v);
            }
        });
        return out;
    }

    private static long parseLong(String key, String v) {
        try {
            return Long.parseLong(v.trim());
        } catch (NumberFormatException e) {
            throw new InvalidOptionException(key, v, "a whole number (long) is accepted");
        }
    }

    private static int parseInt(String key, String v) {
        try {
            return Integer.parseInt(v.trim());
        } catch (NumberFormatException e) {
            throw new InvalidOptionException(key, v, "a whole number (int) is accepted");
        }
    }

    private static boolean parseBoolean(String key, String v) {
        String t = v.trim();
        if (t.equalsIgnoreCase("true")) {
            return true;
        }
        if (t.equalsIgnoreCase("false")) {
            return false;
        }
        throw new InvalidOptionException(key, v, "true or false is accepted");
    }

    /**
     * True when values of options with this key are secrets that must never be printed. Case-insensitively, a key
     * is secret when it contains {@code password}, {@code secret}, {@code sasl.jaas.config} or {@code token}, or
     * when its last dot-separated part ends with {@code key} or {@code keys}: {@code kafka.ssl.key.password},
     * {@code kafka.ssl.keystore.password}, {@code kafka.ssl.keystore.key} (a PEM private key),
     * {@code kafka.sasl.jaas.config}, {@code apiKey}, {@code aws.secret.access.key}, {@code token}. Where a file
     * or a format is, as {@code kafka.ssl.keystore.location}, {@code kafka.ssl.truststore.location},
     * {@code kafka.ssl.keystore.type} or {@code kafka.key.serializer}, is not a secret and is shown.
     */
    public static boolean isSecretKey(String key) {
        String k = key.toLowerCase(Locale.ROOT);
        for (String part : SECRET_KEY_PARTS) {
            if (k.contains(part)) {
                return true;
            }
        }
        String last = k.substring(k.lastIndexOf('.') + 1);
        return last.endsWith("key") || last.endsWith("keys");
    }

    /** {@code {k1=v1, kafka.ssl.key.password=*****}}: the options in their order, secret values masked. */
    @Override
    public String toString() {
        Map<String, String> shown = new LinkedHashMap<>();
        original.forEach((k, v) -> shown.put(k, isSecretKey(k) ? SECRET_MASK : v));
        return shown.toString();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Options other && other.byLowerKey.equals(byLowerKey);
    }

    @Override
    public int hashCode() {
        return byLowerKey.hashCode();
    }
}
