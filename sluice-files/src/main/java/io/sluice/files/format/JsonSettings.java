package io.sluice.files.format;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonFactoryBuilder;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import io.sluice.api.InvalidOptionException;
import io.sluice.api.Options;
import io.sluice.values.JsonToRow;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Optional;

/** The json format's options (Spark's JSONOptionsInRead), validated. Immutable. */
final class JsonSettings {
    final ParseMode mode;
    final String corruptColumn;
    final boolean multiLine;
    /** The record separator's bytes, or null for Hadoop's default (\n, \r, \r\n). */
    final byte[] lineSep;
    /** The charset given by encoding/charset, or null: UTF-8 for JSON lines, detected for multiLine. */
    final Charset charset;
    final boolean allowNonNumericNumbers;
    final Locale locale;
    final TemporalParsers temporal;
    final JsonFactory factory;
    /** The JSON-to-row rules' options (sluice-values). */
    final JsonToRow.Settings values;
    /** The bounds on one value, given to the parser. */
    final JsonLimits limits;
    // schema inference
    final boolean primitivesAsString;
    final boolean prefersDecimal;
    final boolean dropFieldIfAllNull;
    final boolean inferTimestamp;
    final double samplingRatio;

    private JsonSettings(Options o, JsonLimits limits) {
        this.limits = limits;
        mode = ParseMode.of(o);
        corruptColumn = OptionValues.corruptColumn(o);
        multiLine = OptionValues.bool(o, "multiLine", false);
        Optional<String> sep = OptionValues.lineSep(o);
        charset = OptionValues.anyCharset(o).orElse(null);
        if (charset != null && !multiLine) {
            String key = o.contains("encoding") ? "encoding" : "charset";
            String given = o.get(key).orElseThrow();
            if (charset.equals(Charset.forName("UTF-16")) || charset.equals(Charset.forName("UTF-32"))) {
                throw new InvalidOptionException(key, given, "The " + given + " encoding must not be included in "
                        + "the denyList when multiLine is disabled:\ndenylist: UTF-16, UTF-32", true);
            }
            if (!charset.equals(StandardCharsets.UTF_8) && sep.isEmpty()) {
                throw new InvalidOptionException(key, given,
                        "The lineSep option must be specified for the " + given + " encoding", true);
            }
        }
        lineSep = sep.map(s -> s.getBytes(charset == null ? StandardCharsets.UTF_8 : charset)).orElse(null);
        allowNonNumericNumbers = OptionValues.bool(o, "allowNonNumericNumbers", true);
        locale = OptionValues.locale(o);
        temporal = TemporalParsers.of(o, true);
        factory = new JsonFactoryBuilder()
                .streamReadConstraints(limits.constraints())
                .configure(JsonReadFeature.ALLOW_JAVA_COMMENTS, OptionValues.bool(o, "allowComments", false))
                .configure(JsonReadFeature.ALLOW_UNQUOTED_FIELD_NAMES, OptionValues.bool(o, "allowUnquotedFieldNames", false))
                .configure(JsonReadFeature.ALLOW_SINGLE_QUOTES, OptionValues.bool(o, "allowSingleQuotes", true))
                .configure(JsonReadFeature.ALLOW_LEADING_ZEROS_FOR_NUMBERS, OptionValues.bool(o, "allowNumericLeadingZeros", false))
                .configure(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS, allowNonNumericNumbers)
                .configure(JsonReadFeature.ALLOW_BACKSLASH_ESCAPING_ANY_CHARACTER,
                        OptionValues.bool(o, "allowBackslashEscapingAnyCharacter", false))
                .configure(JsonReadFeature.ALLOW_UNESCAPED_CONTROL_CHARS, OptionValues.bool(o, "allowUnquotedControlChars", false))
                .build();
        values = new JsonToRow.Settings(factory, allowNonNumericNumbers, locale, temporal.reader);
        primitivesAsString = OptionValues.bool(o, "primitivesAsString", false);
        prefersDecimal = OptionValues.bool(o, "prefersDecimal", false);
        dropFieldIfAllNull = OptionValues.bool(o, "dropFieldIfAllNull", false);
        inferTimestamp = OptionValues.bool(o, "inferTimestamp", false);
        samplingRatio = OptionValues.samplingRatio(o);
    }

    static JsonSettings of(Options o) {
        return new JsonSettings(o, JsonLimits.DEFAULT);
    }

    /** With other bounds than {@link JsonLimits#DEFAULT}: tests use small ones. */
    static JsonSettings of(Options o, JsonLimits limits) {
        return new JsonSettings(o, limits);
    }
}
