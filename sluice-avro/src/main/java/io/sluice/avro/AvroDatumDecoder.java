package io.sluice.avro;

import io.sluice.api.types.DataType;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.DecoderFactory;

import java.util.Objects;

/**
 * Decodes binary Avro datums (Avro's binary encoding of one value, no container file header, no Confluent frame)
 * of one writer schema into Sluice values of one target type, as Spark's {@code from_avro} and Avro file reading
 * do ({@code GenericDatumReader} then Spark's {@code AvroDeserializer} conversion). With a reader schema, the datum
 * is first resolved against it as Avro's schema resolution does (fields added with defaults, removed, promoted
 * {@code int} → {@code long} → {@code float} → {@code double}, renamed through aliases), and the target type is
 * matched to the reader schema.
 *
 * <p>Values are what {@link io.sluice.api.Row} holds for the target type ({@link io.sluice.api.types.DataType}):
 * {@code Row} (without a schema) for a struct, {@code List} for an array, a {@code LinkedHashMap} of
 * {@code String} keys for a map (in Avro's order, as Spark's), {@code BigDecimal} at the target's scale,
 * {@code Instant}, {@code LocalDate}, {@code byte[]}, {@code String}, boxes; null for an Avro null. Struct fields
 * match Avro record fields by name, case-insensitively (Spark's default), or by position with
 * {@code positionalFieldMatching}; extra Avro fields are skipped; a nullable struct field missing from the record
 * reads as null.
 *
 * <p>Not thread-safe: it reuses its decoder and Avro's datum between calls (one per thread or per partition). The
 * values it returns do not share storage with it. Making one compiles the conversion once; decoding a datum
 * does no schema lookup.
 */
public final class AvroDatumDecoder {
    private final GenericDatumReader<Object> reader;
    private final AvroToSluice.Conv conv;
    private final Schema writerSchema;
    private final Schema readerSchema;
    private final DataType targetType;
    private BinaryDecoder decoder;
    private Object reuse;

    private AvroDatumDecoder(Schema writer, Schema reader, DataType target, boolean positional) {
        this.writerSchema = Objects.requireNonNull(writer, "writerSchema");
        this.readerSchema = reader == null ? writer : reader;
        this.targetType = Objects.requireNonNull(target, "targetType");
        this.conv = AvroToSluice.compile(readerSchema, target, positional);
        this.reader = new GenericDatumReader<>(writer, readerSchema);
    }

    /**
     * A decoder of datums written with {@code writerSchema} into values of {@code targetType}, fields matched by
     * name.
     *
     * @throws IncompatibleSchemaException when the type does not fit the schema (Spark's messages)
     */
    public static AvroDatumDecoder of(Schema writerSchema, DataType targetType) {
        return new AvroDatumDecoder(writerSchema, null, targetType, false);
    }

    /**
     * A decoder of datums written with {@code writerSchema}, resolved against {@code readerSchema} (null: none),
     * into values of {@code targetType}, which must fit the reader schema.
     *
     * @param positionalFieldMatching match struct fields to record fields by position instead of by name
     * @throws IncompatibleSchemaException when the type does not fit the (reader) schema
     */
    public static AvroDatumDecoder of(Schema writerSchema, Schema readerSchema, DataType targetType,
                                      boolean positionalFieldMatching) {
        return new AvroDatumDecoder(writerSchema, readerSchema, targetType, positionalFieldMatching);
    }

    /** The value of one datum: the whole array. */
    public Object decode(byte[] datum) {
        return decode(datum, 0, datum.length);
    }

    /**
     * The value of the datum at {@code datum[offset, offset + length)}; bytes after the value are ignored, as
     * Spark's {@code from_avro} ignores them.
     *
     * @throws MalformedAvroException when the bytes are not a datum of the writer schema, or the value does not
     *                                fit the target type (a null array element where the type has none)
     */
    public Object decode(byte[] datum, int offset, int length) {
        decoder = DecoderFactory.get().binaryDecoder(datum, offset, length, decoder);
        Object avro;
        try {
            avro = reader.read(reuse, decoder);
        } catch (Exception | StackOverflowError e) {
            reuse = null;
            throw malformed(e);
        }
        reuse = avro;
        try {
            return conv.convert(avro);
        } catch (RuntimeException e) {
            throw malformed(e);
        }
    }

    private static MalformedAvroException malformed(Throwable e) {
        String m = e.getMessage();
        return new MalformedAvroException(m == null ? e.getClass().getName() : m, e);
    }

    public Schema writerSchema() {
        return writerSchema;
    }

    /** The reader schema, or the writer schema when none was given. */
    public Schema readerSchema() {
        return readerSchema;
    }

    public DataType targetType() {
        return targetType;
    }
}
