package io.sluice.avro;

import io.sluice.api.InvalidOptionException;
import io.sluice.api.OptionDef;
import io.sluice.api.OptionSet;
import io.sluice.api.Options;
import io.sluice.api.function.SqlFunction;
import io.sluice.api.types.MapType;
import io.sluice.api.types.DataType;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The options of {@code from_avro} and {@code to_avro}, declared once: what the functions read and what
 * docs/avro-functions.md lists (AvroFunctionDocsTest compares the two). Options neither function reads are ignored,
 * as Spark ignores them.
 */
final class AvroFunctionOptions {
    static final String PLAIN = "plain";
    static final String CONFLUENT = "confluent";

    static final OptionDef MODE = OptionDef.oneOf("mode", "FAILFAST", List.of("FAILFAST", "PERMISSIVE"),
            "what a value that is not a datum of the schema gives: FAILFAST fails the query, PERMISSIVE gives NULL "
                    + "(a struct of NULLs for a record schema) and makes the result type nullable throughout");
    static final OptionDef AVRO_SCHEMA = OptionDef.of("avroSchema", OptionDef.Type.JSON,
            "a reader schema (JSON) to resolve each datum against, with Avro's schema evolution rules; the result "
                    + "type is its type").withDefaultText("none: the writer schema");
    static final OptionDef DATETIME_REBASE_MODE = OptionDef.oneOf("datetimeRebaseMode", "CORRECTED",
            List.of("CORRECTED"), "dates and timestamps are read in the proleptic Gregorian calendar, as they were "
                    + "written (Spark's LEGACY and EXCEPTION are not supported)");
    static final OptionDef STABLE_UNION_IDS = OptionDef.bool("enableStableIdentifiersForUnionType", false,
            "name the fields of a union's struct after the branches' types (member_int, member_string) instead of "
                    + "member0, member1");
    static final OptionDef STABLE_UNION_PREFIX = OptionDef.string("stableIdentifierPrefixForUnionType",
            "the prefix of those names").withDefault("member_");
    static final OptionDef RECURSIVE_DEPTH = OptionDef.integer("recursiveFieldMaxDepth", -1,
            "-1 refuses a recursive record; 1 to 15 keeps that many levels of it");
    static final OptionDef WIRE_FORMAT = OptionDef.oneOf("wireFormat", PLAIN, List.of(PLAIN, CONFLUENT),
            "Beyond Spark: plain is the bare Avro datum; confluent is a schema registry's framing, the magic byte 0 "
                    + "and the 4-byte big-endian schema id before the datum");
    static final OptionDef SCHEMA_ID = OptionDef.of("schemaId", OptionDef.Type.INT,
            "Beyond Spark: with wireFormat confluent (and only then, where it is required), the schema id that "
                    + "from_avro expects in each header and to_avro writes, 0 to 2147483647")
            .withDefaultText("required with confluent");

    /** What from_avro reads. */
    static final OptionSet FROM_AVRO = OptionSet.of(MODE, AVRO_SCHEMA, DATETIME_REBASE_MODE, STABLE_UNION_IDS,
            STABLE_UNION_PREFIX, RECURSIVE_DEPTH, WIRE_FORMAT, SCHEMA_ID);
    /** What to_avro reads (Beyond Spark: Spark's to_avro takes no options). */
    static final OptionSet TO_AVRO = OptionSet.of(WIRE_FORMAT, SCHEMA_ID);

    private AvroFunctionOptions() {
    }

    /**
     * The options argument at {@code index}: absent, an untyped NULL or a NULL map (no options), or a constant
     * {@code MAP<STRING, STRING>}.
     */
    @SuppressWarnings("unchecked")
    static Options of(SqlFunction.Call call, int index, String refusal) {
        if (call.arguments().size() <= index) {
            return Options.of(Map.of());
        }
        SqlFunction.Argument a = call.arguments().get(index);
        if (a.constant() && (a.type() == null || a.value() == null)) {
            return Options.of(Map.of());
        }
        if (a.constant() && a.type() instanceof MapType m && m.keyType().equals(DataType.stringType())
                && m.valueType().equals(DataType.stringType())) {
            return Options.of((Map<String, String>) a.value());
        }
        throw new IllegalArgumentException(mismatch(call, refusal));
    }

    static String mismatch(SqlFunction.Call call, String detail) {
        return "Cannot resolve \"" + call.sql() + "\" due to data type mismatch: " + detail;
    }

    /** The framing: null for plain, else the schema id of the confluent wire format. */
    static Integer schemaId(OptionSet set, Options options) {
        String format = set.get(options, WIRE_FORMAT.name()).orElse(PLAIN).trim().toLowerCase(Locale.ROOT);
        java.util.Optional<String> id = options.get(SCHEMA_ID.name());
        if (format.equals(PLAIN)) {
            if (id.isPresent()) {
                throw new InvalidOptionException(SCHEMA_ID.name(), id.get(), "Option 'schemaId' is only read with "
                        + "wireFormat 'confluent', but wireFormat is 'plain'", true);
            }
            return null;
        }
        if (id.isEmpty()) {
            throw new InvalidOptionException(SCHEMA_ID.name(), null, "Option 'schemaId' is missing: it is required "
                    + "with wireFormat 'confluent'", true);
        }
        int n = set.getInt(options, SCHEMA_ID.name());
        if (n < 0) {
            throw new InvalidOptionException(SCHEMA_ID.name(), id.get(), "a schema id from 0 to 2147483647 is "
                    + "accepted");
        }
        return n;
    }
}
