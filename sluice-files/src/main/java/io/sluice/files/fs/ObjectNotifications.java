package io.sluice.files.fs;

import java.io.IOException;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * New-object notifications for the file source's {@code useNotifications}: a queue of messages naming objects
 * that were created (sluice-s3: S3 event notifications delivered to an SQS queue). Found through
 * {@link java.util.ServiceLoader} as a {@link Provider}, so that sluice-files names no queue service.
 *
 * <p>Delivery is at least once and unordered, and a message may be lost: the file source treats messages as
 * hints (each object is looked up, and the seen-files state decides what is new), lists the path whole at start
 * and every {@code backfillInterval}, and deletes a message only once the files it names are in a committed
 * batch. Used by one thread.
 */
public interface ObjectNotifications extends AutoCloseable {

    /** Opens the notifications of a queue. Registered in {@code META-INF/services}. */
    interface Provider {
        /**
         * Opens {@code queueUrl}.
         *
         * @param pathUri  the source's path (its scheme and bucket choose the settings and credentials)
         * @param queueUrl the queue's URL
         * @param conf     the source's options over the engine's configuration ({@code fs.s3a.*} settings)
         * @throws io.sluice.api.InvalidOptionException for a queue URL it cannot use, naming {@code queueUrl}
         */
        ObjectNotifications open(String pathUri, String queueUrl, Map<String, String> conf);
    }

    /**
     * One delivery of a message.
     *
     * @param id      the message's id, the same on every delivery of it
     * @param handle  what deletes this delivery
     * @param objects the objects it names as created, as {@code bucket/key} (the key decoded); empty for a message
     *                that names none (a test event, a removal)
     */
    record Message(String id, String handle, List<String> objects) {
    }

    /** The messages waiting now (one request, no long wait); empty when there are none. */
    List<Message> receive() throws IOException;

    /** Deletes these deliveries from the queue (a delivery whose handle expired may come again: harmless). */
    void delete(Collection<Message> messages) throws IOException;

    @Override
    void close();
}
