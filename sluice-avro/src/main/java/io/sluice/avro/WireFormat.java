package io.sluice.avro;

/**
 * A schema registry's framing of a Kafka value (Confluent's "wire format", also written by other registries'
 * serializers in their compatibility mode): the magic byte 0, the writer schema's id as 4 bytes big-endian, then
 * the Avro datum. Beyond Spark, whose from_avro reads the datum from byte 0. No registry is asked anything: the id
 * is checked against the one the query was given.
 */
final class WireFormat {
    static final int HEADER = 5;
    static final byte MAGIC = 0;

    private WireFormat() {
    }

    /**
     * Where the datum starts in a framed value.
     *
     * @throws MalformedAvroException for a value shorter than the header, another first byte, or another schema id
     */
    static int bodyOffset(byte[] value, int expectedId) {
        if (value.length > 0 && value[0] != MAGIC) {
            throw new MalformedAvroException(String.format("the value starts with the byte 0x%02X, not the magic "
                    + "byte 0 of the wire format (option wireFormat 'confluent')", value[0] & 0xFF), null);
        }
        if (value.length < HEADER) {
            throw new MalformedAvroException("the value has " + value.length + " byte" + (value.length == 1 ? "" : "s")
                    + ", fewer than the 5 of the wire format's header (the magic byte 0 and a 4-byte schema id)",
                    null);
        }
        int id = ((value[1] & 0xFF) << 24) | ((value[2] & 0xFF) << 16) | ((value[3] & 0xFF) << 8) | (value[4] & 0xFF);
        if (id != expectedId) {
            throw new MalformedAvroException("the value's header has the schema id " + Integer.toUnsignedString(id)
                    + ", but from_avro expects the schema id " + expectedId + " (option schemaId)", null);
        }
        return HEADER;
    }

    /** The framed value: the header with {@code schemaId}, then {@code datum}. */
    static byte[] frame(byte[] datum, int schemaId) {
        byte[] out = new byte[HEADER + datum.length];
        out[0] = MAGIC;
        out[1] = (byte) (schemaId >>> 24);
        out[2] = (byte) (schemaId >>> 16);
        out[3] = (byte) (schemaId >>> 8);
        out[4] = (byte) schemaId;
        System.arraycopy(datum, 0, out, HEADER, datum.length);
        return out;
    }
}
