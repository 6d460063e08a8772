package io.sluice.api;

import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * The declaration of one option of a source or sink: its name, type, default (or that it is required), an optional
 * validator and a one-line doc, as Kafka's {@code ConfigDef} declares a setting. A provider lists its declarations
 * in an {@link OptionSet}; the engine checks given option names against them (a misspelt name fails, an unknown one
 * is warned about) and the docs' option tables are checked against them.
 *
 * <p>Immutable: the {@code with...} methods return copies. Names are compared case-insensitively, as option keys are.
 *
 * @param name         the option's name as documented, e.g. {@code maxFilesPerTrigger}
 * @param type         what kind of value it takes
 * @param defaultValue the value used when the option is not given, as text; null when there is none (the option
 *                     is then optional without a default, or {@code required})
 * @param defaultText  how the docs show the default: the default value, a description of a computed default
 *                     ("the number of cores"), {@code required} or {@code none}
 * @param required     true when the option must be given
 * @param allowed      for {@link Type#ENUM}: the accepted values (compared case-insensitively); empty otherwise
 * @param validator    checks a given value; {@link Validator#NONE} when only the type is checked
 * @param doc          one line saying what the option does
 */
public record OptionDef(String name, Type type, String defaultValue, String defaultText, boolean required,
                        List<String> allowed, Validator validator, String doc) {

    /** The kind of value an option takes. Typed getters of {@link OptionSet} parse by it. */
    public enum Type {
        STRING, INT, LONG, DOUBLE, BOOLEAN,
        /** A time string such as {@code 10s}, {@code 5m} or {@code 100ms}. */
        DURATION,
        /** One of {@link OptionDef#allowed()}, case-insensitive. */
        ENUM,
        /** JSON text, such as Kafka's per-partition offsets. */
        JSON
    }

    /**
     * Checks one given value; throws an {@link InvalidOptionException} naming the option, the value and what is
     * accepted.
     */
    @FunctionalInterface
    public interface Validator {
        /** Accepts every value. */
        Validator NONE = (name, value) -> { };

        void check(String name, String value);
    }

    public OptionDef {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(doc, "doc");
        if (name.isBlank()) {
            throw new IllegalArgumentException("An option name must not be blank");
        }
        allowed = List.copyOf(allowed);
        validator = validator == null ? Validator.NONE : validator;
        if (defaultText == null) {
            defaultText = required ? "required" : defaultValue != null ? defaultValue : "none";
        }
    }

    /** An optional option of this type without a default; add one with {@link #withDefault}. */
    public static OptionDef of(String name, Type type, String doc) {
        return new OptionDef(name, type, null, null, false, List.of(), Validator.NONE, doc);
    }

    /** An optional string option. */
    public static OptionDef string(String name, String doc) {
        return of(name, Type.STRING, doc);
    }

    /** An optional boolean option with this default. */
    public static OptionDef bool(String name, boolean defaultValue, String doc) {
        return of(name, Type.BOOLEAN, doc).withDefault(Boolean.toString(defaultValue));
    }

    /** An optional int option with this default. */
    public static OptionDef integer(String name, int defaultValue, String doc) {
        return of(name, Type.INT, doc).withDefault(Integer.toString(defaultValue));
    }

    /** An optional long option with this default. */
    public static OptionDef longValue(String name, long defaultValue, String doc) {
        return of(name, Type.LONG, doc).withDefault(Long.toString(defaultValue));
    }

    /** An enum option taking one of {@code allowed} (case-insensitive), with this default (or null for none). */
    public static OptionDef oneOf(String name, String defaultValue, List<String> allowed, String doc) {
        return new OptionDef(name, Type.ENUM, defaultValue, null, false, allowed, Validator.NONE, doc);
    }

    /** A copy with this default value, also shown as the docs' default. */
    public OptionDef withDefault(String value) {
        return new OptionDef(name, type, value, value, false, allowed, validator, doc);
    }

    /** A copy whose docs show this default, for a computed default ({@code the number of cores}). */
    public OptionDef withDefaultText(String text) {
        return new OptionDef(name, type, defaultValue, text, required, allowed, validator, doc);
    }

    /** A copy marked required: no default; the docs show {@code required}. */
    public OptionDef asRequired() {
        return new OptionDef(name, type, null, "required", true, allowed, validator, doc);
    }

    /** A copy checked by {@code validator} (after the type). */
    public OptionDef validatedBy(Validator v) {
        return new OptionDef(name, type, defaultValue, defaultText, required, allowed, v, doc);
    }

    /** The name lower-cased, the key of case-insensitive lookups. */
    public String key() {
        return name.toLowerCase(Locale.ROOT);
    }
}
