package io.sluice.avro;

import io.sluice.api.InvalidOptionException;
import io.sluice.api.OptionDef;
import io.sluice.api.OptionSet;
import io.sluice.api.Options;
import org.apache.avro.Schema;
import org.apache.avro.file.CodecFactory;

import java.util.List;
import java.util.Locale;

/**
 * spark-avro's options for the file source and the file sink (docs/formats/avro.md), declared once with Spark's
 * names and defaults, and read with Spark's messages ({@code AvroOptions}).
 */
final class AvroOptionDefs {
    static final String AVRO_SCHEMA = "avroSchema";
    static final String POSITIONAL = "positionalFieldMatching";
    static final String IGNORE_EXTENSION = "ignoreExtension";
    static final String STABLE_ID = "enableStableIdentifiersForUnionType";
    static final String STABLE_ID_PREFIX = "stableIdentifierPrefixForUnionType";
    static final String RECURSIVE_DEPTH = "recursiveFieldMaxDepth";
    static final String RECORD_NAME = "recordName";
    static final String RECORD_NAMESPACE = "recordNamespace";
    static final String COMPRESSION = "compression";
    static final String DEFLATE_LEVEL = "spark.sql.avro.deflate.level";
    static final String XZ_LEVEL = "spark.sql.avro.xz.level";
    static final String ZSTD_LEVEL = "spark.sql.avro.zstandard.level";
    /** spark-avro's {@code AvroCompressionCodec} short names, in Spark's order. */
    static final List<String> CODECS = List.of("uncompressed", "deflate", "snappy", "bzip2", "xz", "zstandard");

    static final OptionSet READ = OptionSet.of(
            OptionDef.string(AVRO_SCHEMA, "the reader schema (Avro JSON): files are resolved against it")
                    .withDefaultText("none"),
            OptionDef.bool(IGNORE_EXTENSION, true, "false: files whose name does not end in .avro are skipped"),
            OptionDef.bool(POSITIONAL, false, "match columns to Avro fields by position, not by name"),
            OptionDef.bool(STABLE_ID, false, "union members named after their type, not member0..."),
            OptionDef.of(STABLE_ID_PREFIX, OptionDef.Type.STRING, "the prefix of those names").withDefault("member_"),
            OptionDef.integer(RECURSIVE_DEPTH, -1, "how deep a recursive record is read (1 to 15); -1 refuses it"));

    static final OptionSet WRITE = OptionSet.of(
            OptionDef.string(AVRO_SCHEMA, "the output schema (Avro JSON)").withDefaultText("derived from the columns"),
            OptionDef.of(RECORD_NAME, OptionDef.Type.STRING, "the top-level record's name").withDefault("topLevelRecord"),
            OptionDef.of(RECORD_NAMESPACE, OptionDef.Type.STRING, "its namespace").withDefault(""),
            OptionDef.oneOf(COMPRESSION, "snappy", CODECS, "the codec of the files' blocks"),
            OptionDef.bool(POSITIONAL, false, "match columns to Avro fields by position, not by name"),
            OptionDef.integer(DEFLATE_LEVEL, -1, "the deflate level, 1 to 9, or -1 (6)"),
            OptionDef.integer(XZ_LEVEL, 6, "the xz level, 1 to 9"),
            OptionDef.integer(ZSTD_LEVEL, 3, "the zstandard level"));

    private AvroOptionDefs() {
    }

    /** The reading side: the reader schema, if any, and how Avro types are mapped. */
    record Read(Schema avroSchema, boolean ignoreExtension, boolean positional, AvroSchemas.ReadSettings settings) {
        static Read of(Options o) {
            Schema schema = schema(o);
            boolean ignoreExtension = bool(o, IGNORE_EXTENSION, true);
            boolean positional = bool(o, POSITIONAL, false);
            boolean stable = bool(o, STABLE_ID, false);
            String prefix = o.get(STABLE_ID_PREFIX).orElse("member_");
            int depth = o.getInt(RECURSIVE_DEPTH, -1);
            if (depth > AvroSchemas.RECURSIVE_FIELD_MAX_DEPTH_LIMIT) {
                throw new InvalidOptionException(RECURSIVE_DEPTH, Integer.toString(depth), "Should not be greater "
                        + "than " + AvroSchemas.RECURSIVE_FIELD_MAX_DEPTH_LIMIT + ".");
            }
            return new Read(schema, ignoreExtension, positional, new AvroSchemas.ReadSettings(stable, prefix, depth));
        }
    }

    /** The writing side: the output schema (given or derived), the codec. */
    record Write(Schema avroSchema, String recordName, String recordNamespace, String codecName, CodecFactory codec,
                 boolean positional) {
        /** Spark's file name part: {@code .snappy.avro}, {@code .zstandard.avro}..., {@code .avro} uncompressed. */
        String extension() {
            return codecName.equals("uncompressed") ? ".avro" : "." + codecName + ".avro";
        }

        static Write of(Options o) {
            Schema schema = schema(o);
            String name = o.get(RECORD_NAME).orElse(AvroSchemas.DEFAULT_RECORD_NAME);
            String namespace = o.get(RECORD_NAMESPACE).orElse("");
            String codecName = o.get(COMPRESSION).orElse("snappy").toLowerCase(Locale.ROOT);
            int deflate = o.getInt(DEFLATE_LEVEL, -1);
            if (deflate != -1 && (deflate < 1 || deflate > 9)) {
                throw new InvalidOptionException(DEFLATE_LEVEL, Integer.toString(deflate), "1 to 9, or -1 (level 6), is "
                        + "accepted");
            }
            int xz = o.getInt(XZ_LEVEL, 6);
            if (xz < 1 || xz > 9) {
                throw new InvalidOptionException(XZ_LEVEL, Integer.toString(xz), "1 to 9 is accepted");
            }
            int zstd = o.getInt(ZSTD_LEVEL, 3);
            CodecFactory codec = switch (codecName) {
                case "uncompressed" -> CodecFactory.nullCodec();
                case "deflate" -> CodecFactory.deflateCodec(deflate);
                case "snappy" -> CodecFactory.snappyCodec();
                case "bzip2" -> CodecFactory.bzip2Codec();
                case "xz" -> CodecFactory.xzCodec(xz);
                case "zstandard" -> CodecFactory.zstandardCodec(zstd, false, false);
                default -> throw new InvalidOptionException(COMPRESSION, codecName, "[CODEC_SHORT_NAME_NOT_FOUND] "
                        + "Cannot find a short name for the codec " + codecName + ". SQLSTATE: 42704", true);
            };
            return new Write(schema, name, namespace, codecName, codec, bool(o, POSITIONAL, false));
        }
    }

    private static Schema schema(Options o) {
        String json = o.get(AVRO_SCHEMA).orElse(null);
        if (json == null) {
            return null;
        }
        try {
            return AvroSchemas.parse(json);
        } catch (IllegalArgumentException e) {
            throw new InvalidOptionException(AVRO_SCHEMA, json, "Invalid value for option '" + AVRO_SCHEMA + "': "
                    + e.getMessage(), true);
        }
    }

    /** Spark reads these with Scala's {@code toBoolean}: true or false, any case. */
    private static boolean bool(Options o, String key, boolean dflt) {
        return o.getBoolean(key, dflt);
    }
}
