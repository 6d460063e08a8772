package io.sluice.avro;

/**
 * One Avro datum that cannot be decoded with its writer schema (truncated, a bad union branch or length, bytes of
 * another schema) or whose value the target type refuses (a null element in an array declared without nulls).
 * {@link #getCause()} is Avro's or the conversion's exception; the message is its message. A caller applying a
 * parse mode treats this exception as "malformed record" (FAILFAST fails, PERMISSIVE gives null).
 */
public final class MalformedAvroException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public MalformedAvroException(String message, Throwable cause) {
        super(message, cause);
    }
}
