package io.sluice.avro;

/**
 * An Avro schema and a Sluice type that do not fit each other, or an Avro schema Sluice cannot represent: Spark's
 * {@code org.apache.spark.sql.avro.IncompatibleSchemaException}, with Spark's messages. Thrown when a mapping, a
 * {@link AvroDatumDecoder} or a {@link AvroDatumEncoder} is made, never while a datum is decoded or encoded (then
 * {@link MalformedAvroException}), except for the value checks Spark makes per value (an enum symbol not in the
 * schema, binary of the wrong size for a {@code fixed}), which Spark reports with this exception too.
 */
public final class IncompatibleSchemaException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    public IncompatibleSchemaException(String message) {
        super(message);
    }

    public IncompatibleSchemaException(String message, Throwable cause) {
        super(message, cause);
    }
}
