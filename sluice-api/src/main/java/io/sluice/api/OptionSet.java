package io.sluice.api;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The options a source or sink declares: its {@link OptionDef}s and the prefixes of option families it passes
 * through (Kafka's {@code kafka.}), returned by {@code SourceProvider.options()} and {@code SinkProvider.options()}.
 * The engine checks every given option name against them before a query starts: a name close to a declared one
 * fails, another unknown one is warned about (or fails, with {@code sluice.options.unknown=error}); names under a
 * declared prefix are never unknown. {@link #undeclared()} (the default) turns every check off.
 *
 * <p>Also the typed getters a provider reads its options with: the declared default applies, the type is parsed
 * with {@link Options}' messages and the declared validator runs. Immutable and thread-safe.
 */
public final class OptionSet {
    private static final OptionSet UNDECLARED = new OptionSet(false, List.of(), List.of());
    private static final OptionSet NONE = new OptionSet(true, List.of(), List.of());

    private final boolean declared;
    private final Map<String, OptionDef> byKey;
    private final List<String> prefixes;

    private OptionSet(boolean declared, List<OptionDef> defs, List<String> prefixes) {
        this.declared = declared;
        Map<String, OptionDef> m = new LinkedHashMap<>();
        for (OptionDef d : defs) {
            if (m.put(d.key(), d) != null) {
                throw new IllegalArgumentException("Option '" + d.name() + "' is declared twice");
            }
        }
        this.byKey = Collections.unmodifiableMap(m);
        List<String> p = new ArrayList<>();
        for (String prefix : prefixes) {
            if (prefix.isEmpty()) {
                throw new IllegalArgumentException("A declared option prefix must not be empty");
            }
            p.add(prefix.toLowerCase(Locale.ROOT));
        }
        this.prefixes = List.copyOf(p);
    }

    /** Nothing declared: the engine makes no name checks (the default for third-party providers). */
    public static OptionSet undeclared() {
        return UNDECLARED;
    }

    /** Declared to take no options at all (every option given is unknown). */
    public static OptionSet none() {
        return NONE;
    }

    /** These declarations, in the order the docs list them. */
    public static OptionSet of(OptionDef... defs) {
        return new OptionSet(true, List.of(defs), List.of());
    }

    /** These declarations, in the order the docs list them. */
    public static OptionSet of(List<OptionDef> defs) {
        return new OptionSet(true, defs, List.of());
    }

    /**
     * A copy that also passes through every option whose name starts with one of {@code prefixes} (case-insensitive,
     * e.g. {@code kafka.}): such names are never unknown, unless close to a declared name.
     */
    public OptionSet withPrefixes(String... prefixes) {
        List<String> all = new ArrayList<>(this.prefixes);
        all.addAll(List.of(prefixes));
        return new OptionSet(true, List.copyOf(byKey.values()), all);
    }

    /**
     * The declarations of both sets, this one's first; declared when either is. A name declared in both keeps this
     * set's declaration (a sink may declare {@code path} as required where the engine declares it optional).
     */
    public OptionSet and(OptionSet other) {
        List<OptionDef> all = new ArrayList<>(byKey.values());
        for (OptionDef d : other.byKey.values()) {
            if (!byKey.containsKey(d.key())) {
                all.add(d);
            }
        }
        List<String> p = new ArrayList<>(prefixes);
        p.addAll(other.prefixes);
        return new OptionSet(declared || other.declared, all, p);
    }

    /** False for {@link #undeclared()}: the provider declared nothing, and no name is checked. */
    public boolean declared() {
        return declared;
    }

    /** The declarations, in order. */
    public List<OptionDef> options() {
        return List.copyOf(byKey.values());
    }

    /** The pass-through prefixes, lower case. */
    public List<String> prefixes() {
        return prefixes;
    }

    /** The declaration of this name (case-insensitive). */
    public Optional<OptionDef> find(String name) {
        return Optional.ofNullable(byKey.get(name.toLowerCase(Locale.ROOT)));
    }

    /** True when the name is declared or under a declared prefix (case-insensitive); always true when undeclared. */
    public boolean knows(String name) {
        if (!declared) {
            return true;
        }
        String k = name.toLowerCase(Locale.ROOT);
        if (byKey.containsKey(k)) {
            return true;
        }
        for (String p : prefixes) {
            if (k.startsWith(p)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The value given (its type and validator checked), else the declared default; empty when neither.
     *
     * @throws InvalidOptionException   for a given value of the wrong type, not allowed, or refused by the validator
     * @throws IllegalArgumentException when {@code name} is not declared (a provider's bug, not the user's)
     */
    public Optional<String> get(Options options, String name) {
        OptionDef d = def(name);
        Optional<String> given = options.get(name);
        given.ifPresent(v -> check(d, v));
        return given.or(() -> Optional.ofNullable(d.defaultValue()));
    }

    /**
     * As {@link #get}, for an option that must have a value: one given, else the declared default.
     *
     * @throws InvalidOptionException {@code Option 'x' is missing: the option is required} when there is neither
     */
    public String require(Options options, String name) {
        return get(options, name).orElseThrow(() -> new InvalidOptionException(def(name).name(), null,
                "the option is required"));
    }

    /** An int option with a default or required: the value of {@link #require}, as {@link Options#getInt} words it. */
    public int getInt(Options options, String name) {
        return Integer.parseInt(require(options, name).trim());
    }

    /** A long option with a default or required: the value of {@link #require}, as {@link Options#getLong} words it. */
    public long getLong(Options options, String name) {
        return Long.parseLong(require(options, name).trim());
    }

    /** A boolean option with a default or required: the value of {@link #require}, as {@link Options#getBoolean}. */
    public boolean getBoolean(Options options, String name) {
        return Boolean.parseBoolean(require(options, name).trim().toLowerCase(Locale.ROOT));
    }

    /**
     * Checks every declared option of {@code options}: required ones are present, given values parse as their type,
     * enums take an allowed value, validators accept. For providers that have no messages of their own to keep.
     *
     * @throws InvalidOptionException for the first problem, in declaration order
     */
    public void validate(Options options) {
        for (OptionDef d : byKey.values()) {
            Optional<String> v = options.get(d.name());
            if (v.isPresent()) {
                check(d, v.get());
            } else if (d.required()) {
                throw new InvalidOptionException(d.name(), null, "the option is required");
            }
        }
    }

    private OptionDef def(String name) {
        OptionDef d = byKey.get(name.toLowerCase(Locale.ROOT));
        if (d == null) {
            throw new IllegalArgumentException("Option '" + name + "' is not declared");
        }
        return d;
    }

    /** The type, then the validator; {@link Options}' typed getters word the type errors. */
    private static void check(OptionDef d, String value) {
        Options one = Options.of(Map.of(d.name(), value));
        switch (d.type()) {
            case INT -> one.getInt(d.name());
            case LONG -> one.getLong(d.name());
            case BOOLEAN -> one.getBoolean(d.name(), false);
            case DOUBLE -> {
                try {
                    Double.parseDouble(value.trim());
                } catch (NumberFormatException e) {
                    throw new InvalidOptionException(d.name(), value, "a number is accepted");
                }
            }
            case DURATION -> Durations.timeString(d.name(), value, java.util.concurrent.TimeUnit.MILLISECONDS,
                    java.util.concurrent.TimeUnit.MILLISECONDS);
            case ENUM -> {
                if (d.allowed().stream().noneMatch(a -> a.equalsIgnoreCase(value.trim()))) {
                    throw new InvalidOptionException(d.name(), value, String.join(", ", d.allowed())
                            + " is accepted (case-insensitive)");
                }
            }
            default -> {
            }
        }
        d.validator().check(d.name(), value);
    }

    @Override
    public String toString() {
        return declared ? "OptionSet" + byKey.keySet() + (prefixes.isEmpty() ? "" : " prefixes " + prefixes)
                : "OptionSet[undeclared]";
    }
}
