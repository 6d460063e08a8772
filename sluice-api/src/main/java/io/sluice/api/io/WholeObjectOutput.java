package io.sluice.api.io;

import java.io.IOException;
import java.io.OutputStream;

/**
 * An output stream whose object becomes visible whole, and only at {@link #close()}: before close no reader (in
 * this or another process) sees the object or a part of it (local: a temp file renamed at close; S3: a single PUT,
 * or a multipart upload completed only at close). {@link Storage#create(String, boolean)} makes one.
 *
 * <p>{@link #close()} publishes; when it returns normally the object is visible and durable. {@link #abort()}
 * discards everything written and publishes nothing (an S3 multipart upload is aborted); close after abort, and a
 * second close, do nothing. A writer that fails must call {@link #abort()}, typically
 * {@code catch (Throwable t) { out.abort(); throw t; }} before the try-with-resources closes it. Not thread-safe.
 */
public abstract class WholeObjectOutput extends OutputStream {

    /** For implementations. */
    protected WholeObjectOutput() {
    }

    /**
     * Publishes the object.
     *
     * @throws java.nio.file.FileAlreadyExistsException if the output was created with {@code overwrite = false}
     *         and the object exists at close (S3: {@code If-None-Match: *} on the completion); nothing is published
     * @throws IOException when the object cannot be published; nothing is published then
     */
    @Override
    public abstract void close() throws IOException;

    /** Discards what was written; nothing is published. Never throws for a store that is unreachable. */
    public abstract void abort();
}
