package io.sluice.avro;

import io.sluice.api.types.DataType;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Objects;

/**
 * Encodes Sluice values of one type into binary Avro datums of one schema, as Spark's {@code to_avro} does
 * (Spark's {@code AvroSerializer} conversion, then {@code GenericDatumWriter}). Values are those
 * {@link io.sluice.api.Row} holds ({@link io.sluice.api.types.DataType}); struct fields match record fields by name,
 * case-insensitively, or by position. Without an explicit schema ({@link #of(DataType, boolean)}) the schema is
 * {@link AvroSchemas#toAvroType(DataType, boolean)}'s.
 *
 * <p>Not thread-safe: it reuses its buffer and encoder between calls (one per thread or per partition).
 */
public final class AvroDatumEncoder {
    private final SluiceToAvro.Conv conv;
    private final GenericDatumWriter<Object> writer;
    private final Schema schema;
    private final ByteArrayOutputStream out = new ByteArrayOutputStream(256);
    private BinaryEncoder encoder;

    private AvroDatumEncoder(DataType type, boolean nullable, Schema schema, boolean positional) {
        this.schema = Objects.requireNonNull(schema, "schema");
        this.conv = SluiceToAvro.compile(Objects.requireNonNull(type, "type"), nullable, schema, positional);
        this.writer = new GenericDatumWriter<>(schema);
    }

    /** An encoder of {@code type}'s values into the schema Spark derives for it ({@code topLevelRecord}). */
    public static AvroDatumEncoder of(DataType type, boolean nullable) {
        return new AvroDatumEncoder(type, nullable, AvroSchemas.toAvroType(type, nullable), false);
    }

    /**
     * An encoder of {@code type}'s values into datums of {@code schema}.
     *
     * @param nullable whether values may be null (then the schema should be a union with {@code null})
     * @throws IncompatibleSchemaException when the type does not fit the schema (Spark's messages)
     */
    public static AvroDatumEncoder of(DataType type, boolean nullable, Schema schema, boolean positionalFieldMatching) {
        return new AvroDatumEncoder(type, nullable, schema, positionalFieldMatching);
    }

    /** The schema datums are written with. */
    public Schema schema() {
        return schema;
    }

    /**
     * The datum of one value (a new array).
     *
     * @throws IllegalArgumentException    for a null where the schema has no null (Spark's
     *                                     {@code AVRO_CANNOT_WRITE_NULL_FIELD}), a decimal too wide for its fixed
     * @throws IncompatibleSchemaException for a string not among an enum's symbols, binary of the wrong size for a
     *                                     fixed (Spark's messages)
     */
    public byte[] encode(Object value) {
        Object avro = conv.convert(value);
        out.reset();
        encoder = EncoderFactory.get().binaryEncoder(out, encoder);
        try {
            writer.write(avro, encoder);
            encoder.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (NullPointerException e) {
            throw new IllegalArgumentException("Cannot write null as Avro " + schema + ": " + e.getMessage(), e);
        }
        return out.toByteArray();
    }

    /** Sluice's value as Avro's generic value, for writers of container files. */
    Object toAvro(Object value) {
        return conv.convert(value);
    }
}
