package io.sluice.kafka;

import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.errors.InterruptException;
import org.apache.kafka.common.errors.TimeoutException;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * Bounded waits on Kafka client calls, shared by the source, the sink and the {@code sluice kafka} commands, and the
 * one message for brokers that did not answer in time.
 *
 * <p>Callers may rely on: {@link #await} never waits (much) longer than the timeout it is given, reacts to
 * {@link Thread#interrupt()} at once, and turns every time-out (the client's own or the wait's) into a
 * {@link KafkaUnreachableException} naming the bootstrap servers and the setting that bounds the wait.
 */
public final class KafkaCalls {
    /**
     * Sluice's bound on one Kafka client call, 30 s, used where the user set none: {@code kafka.default.api.timeout.ms}
     * for the source and {@code kafka.max.block.ms} for the sink (Kafka's own default for both is 60 s).
     */
    public static final long DEFAULT_TIMEOUT_MS = 30_000L;
    /** The wait itself outlasts the call's own time-out a little, so the client's more precise error wins. */
    private static final long GRACE_MS = 5_000L;

    private KafkaCalls() {
    }

    /** Where a client connects and what bounds its calls, for messages. */
    public record Target(String bootstrapServers, String bootstrapSetting, long timeoutMs, String timeoutSetting) {
        /** The exception for brokers that did not answer within {@link #timeoutMs()}. */
        public KafkaUnreachableException unreachable(Throwable cause) {
            return new KafkaUnreachableException(this, cause);
        }
    }

    /**
     * The future's value, waiting at most about {@code target.timeoutMs()} (the call itself should carry the same
     * time-out, e.g. {@code timeoutMs(..)} on its Admin options).
     *
     * @throws KafkaUnreachableException when the call or the wait timed out
     * @throws InterruptException        (Kafka's, the interrupt flag set again) when the thread was interrupted
     * @throws ExecutionException        when the call failed otherwise
     */
    public static <T> T await(KafkaFuture<T> future, Target target, String what) throws ExecutionException {
        try {
            return future.get(target.timeoutMs() + GRACE_MS, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            throw new InterruptException("Interrupted while trying to " + what, e);
        } catch (java.util.concurrent.TimeoutException e) {
            throw target.unreachable(e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof TimeoutException) {
                throw target.unreachable(e.getCause());
            }
            throw e;
        }
    }

    /** {@code 30 s} for whole seconds, else {@code 1500 ms}. */
    static String duration(long ms) {
        return ms % 1000 == 0 ? ms / 1000 + " s" : ms + " ms";
    }
}
