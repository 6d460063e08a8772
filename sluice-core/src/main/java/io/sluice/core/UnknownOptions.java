package io.sluice.core;

import io.sluice.api.InvalidOptionException;
import io.sluice.api.OptionDef;
import io.sluice.api.OptionSet;
import io.sluice.api.Options;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The engine's check of option names against a provider's declarations ({@link OptionSet}), run by {@code load()}
 * and {@code start()} before anything else. A name close to a declared one fails: Spark would silently ignore it,
 * and a misspelt {@code startingOffsets} or {@code maxFilesPerTrigger} changes what a query reads without a word.
 * Another unknown name is warned about once per provider and name for the life of the {@link Sluice} (Spark passes
 * such names through silently), or fails under {@code sluice.options.unknown=error}. One instance per {@link Sluice}.
 */
final class UnknownOptions {
    private static final Logger LOG = LoggerFactory.getLogger(UnknownOptions.class);
    /** The engine setting: {@code warn} (default) or {@code error}. */
    static final String CONFIG_KEY = "sluice.options.unknown";

    private final boolean error;
    /** {@code source|sink:provider:name}, lower case: what has been warned about already. */
    private final Set<String> warned = ConcurrentHashMap.newKeySet();

    UnknownOptions(boolean error) {
        this.error = error;
    }

    /**
     * Checks every given name.
     *
     * @param kind     {@code source} or {@code sink}, for the message
     * @param provider the provider's short name
     * @throws InvalidOptionException naming the given name, the provider and the declared name it is close to
     */
    void check(String kind, String provider, OptionSet declared, Options given) {
        if (!declared.declared()) {
            return;
        }
        List<String> names = new ArrayList<>();
        for (OptionDef d : declared.options()) {
            names.add(d.name());
        }
        for (var e : given.asMap().entrySet()) {
            String name = e.getKey();
            if (declared.find(name).isPresent()) {
                continue;
            }
            String where = "Unknown option '" + name + "' for " + kind + " '" + provider + "'";
            // The value is never shown; a secret one is not even kept in the exception.
            String value = Options.isSecretKey(name) ? Options.SECRET_MASK : e.getValue();
            // Also under a pass-through prefix: kafka.bootstrap.server is a typo, not a client setting.
            Optional<String> near = nearest(name, names);
            if (near.isPresent()) {
                throw new InvalidOptionException(name, value, where + ": did you mean '" + near.get() + "'?", true);
            }
            if (declared.knows(name)) {
                continue;
            }
            if (error) {
                throw new InvalidOptionException(name, value, where + " (" + CONFIG_KEY + "=error): "
                        + (names.isEmpty() ? "it takes no options" : "the declared options are "
                        + String.join(", ", names)) + declaredPrefixes(declared), true);
            }
            if (warned.add(kind + ":" + provider.toLowerCase(Locale.ROOT) + ":" + name.toLowerCase(Locale.ROOT))) {
                LOG.warn("{}: it is ignored (set {}=error to refuse unknown options)", where, CONFIG_KEY);
            }
        }
    }

    private static String declaredPrefixes(OptionSet declared) {
        if (declared.prefixes().isEmpty()) {
            return "";
        }
        return ", and any option starting with " + String.join(" or ", declared.prefixes());
    }

    /**
     * The declared name {@code name} is most likely a misspelling of, if any: the same ignoring case and the
     * separators {@code . _ -}; the same but for one trailing {@code s}; or within a Damerau-Levenshtein distance
     * (case-insensitive) of 2, or 1 for names of fewer than 6 characters (where 2 edits make another word). The
     * closest wins, the first declared on a tie.
     */
    static Optional<String> nearest(String name, Collection<String> declared) {
        String n = name.toLowerCase(Locale.ROOT);
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (String d : declared) {
            String k = d.toLowerCase(Locale.ROOT);
            int distance;
            if (bare(k).equals(bare(n)) || k.equals(n + "s") || n.equals(k + "s")) {
                distance = 0;
            } else {
                distance = distance(n, k);
                if (distance > (k.length() < 6 ? 1 : 2)) {
                    continue;
                }
            }
            if (distance < bestDistance) {
                best = d;
                bestDistance = distance;
            }
        }
        return Optional.ofNullable(best);
    }

    private static String bare(String s) {
        return s.replaceAll("[._-]", "");
    }

    /** The optimal-string-alignment form of the Damerau-Levenshtein distance: edits and adjacent swaps. */
    static int distance(String a, String b) {
        int[][] d = new int[a.length() + 1][b.length() + 1];
        for (int i = 0; i <= a.length(); i++) {
            d[i][0] = i;
        }
        for (int j = 0; j <= b.length(); j++) {
            d[0][j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                int v = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
                    v = Math.min(v, d[i - 2][j - 2] + 1);
                }
                d[i][j] = v;
            }
        }
        return d[a.length()][b.length()];
    }
}
