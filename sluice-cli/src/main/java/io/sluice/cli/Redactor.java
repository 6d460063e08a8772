package io.sluice.cli;

import io.sluice.api.Options;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Hides secret option values in everything the command line prints: option listings, error messages, stack
 * traces and progress lines.
 *
 * <p>An option is secret as {@link Options#isSecretKey(String)} says: its key, ignoring case, contains
 * {@code password}, {@code secret}, {@code sasl.jaas.config} or {@code token}, or its last dot-separated part
 * ends with {@code key} or {@code keys} (so {@code ssl.key.password}, {@code apiKey},
 * {@code kafka.sasl.jaas.config}, {@code aws.secret.access.key} are secret, {@code ssl.keystore.location} is not).
 * Its value is shown as {@value #MASK}. A redactor built from options also replaces every occurrence of each secret value in free text, so a message
 * that echoes a secret (e.g. {@code Invalid value 's3cr3t' for option 'password'}) does not leak it. Immutable
 * and thread-safe.
 */
public final class Redactor {
    /** What a secret value is shown as. */
    public static final String MASK = Options.SECRET_MASK;

    private static final Redactor NONE = new Redactor(List.of());

    /** Secret values, longest first, so a value containing another is replaced whole. */
    private final List<String> secrets;

    private Redactor(List<String> secrets) {
        this.secrets = secrets;
    }

    /** A redactor that knows no secret values: {@link #text} returns its input; {@link #options} still masks. */
    public static Redactor none() {
        return NONE;
    }

    /** A redactor for the secret values among these option maps. */
    @SafeVarargs
    public static Redactor of(Map<String, String>... optionMaps) {
        List<String> values = new ArrayList<>();
        for (Map<String, String> options : optionMaps) {
            options.forEach((k, v) -> {
                if (isSecret(k) && v != null && !v.isEmpty() && !values.contains(v)) {
                    values.add(v);
                }
            });
        }
        values.sort(Comparator.comparingInt(String::length).reversed());
        return values.isEmpty() ? NONE : new Redactor(List.copyOf(values));
    }

    /** True when the values of options with this key must never be printed. */
    public static boolean isSecret(String key) {
        return Options.isSecretKey(key);
    }

    /** The value as it may be printed for this key. */
    public static String value(String key, String value) {
        return isSecret(key) ? MASK : value;
    }

    /**
     * A {@code KEY=VALUE} argument that has no {@code =}, as it may be printed in a usage error. Written with
     * another separator ({@code kafka.ssl.key.password:S3cret}, or a space), a secret key's value is masked
     * ({@code kafka.ssl.key.password:*****}); with none, text that names a secret is masked whole, since where
     * its value starts cannot be told.
     */
    public static String pairWithoutEquals(String pair) {
        for (int i = 0; i < pair.length(); i++) {
            char c = pair.charAt(i);
            if (c == ':' || Character.isWhitespace(c)) {
                return isSecret(pair.substring(0, i).strip()) ? pair.substring(0, i + 1) + MASK : pair;
            }
        }
        return isSecret(pair) ? MASK : pair;
    }

    /** {@code {k1=v1, password=*****}}, in the map's order. */
    public static String options(Map<String, String> options) {
        Map<String, String> shown = new LinkedHashMap<>();
        options.forEach((k, v) -> shown.put(k, value(k, v)));
        return shown.toString();
    }

    /** The text with every known secret value replaced by {@value #MASK}; null stays null. */
    public String text(String text) {
        if (text == null || secrets.isEmpty()) {
            return text;
        }
        String out = text;
        for (String secret : secrets) {
            out = out.replace(secret, MASK);
        }
        return out;
    }
}
