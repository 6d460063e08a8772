package io.sluice.cli;

import io.sluice.core.Trigger;

import java.util.Locale;

/**
 * A trigger as written on the command line or in a pipeline file: {@code availableNow}, {@code once} or
 * {@code processingTime=<interval>} ({@code processingTime=30s}, {@code processingTime=10 seconds},
 * {@code processingTime=0} for back-to-back batches). Names are case-insensitive.
 *
 * @param text    how it is shown, normalised (e.g. {@code processingTime=10 seconds})
 * @param trigger the engine's trigger
 */
record TriggerSpec(String text, Trigger trigger) {

    static final String ACCEPTED = "accepted: availableNow, once, processingTime=<interval> "
            + "(e.g. processingTime=30s, processingTime=10 seconds)";

    /** What a query runs with when no trigger is given: batches back to back, as Spark's default. */
    static final TriggerSpec DEFAULT = new TriggerSpec("processingTime=0", Trigger.defaultTrigger());

    @SuppressWarnings("deprecation") // once is deprecated in the engine (as in Spark) but still offered
    static TriggerSpec parse(String text) throws SpecException {
        String t = text.strip();
        String lower = t.toLowerCase(Locale.ROOT);
        if (lower.equals("availablenow")) {
            return new TriggerSpec("availableNow", Trigger.availableNow());
        }
        if (lower.equals("once")) {
            return new TriggerSpec("once", Trigger.once());
        }
        int eq = t.indexOf('=');
        if (eq > 0 && t.substring(0, eq).strip().equalsIgnoreCase("processingTime")) {
            String interval = t.substring(eq + 1).strip();
            try {
                return new TriggerSpec("processingTime=" + interval, Trigger.processingTime(interval));
            } catch (IllegalArgumentException e) {
                throw new SpecException(e.getMessage()); // names the interval, also one too long for a long
            }
        }
        throw new SpecException(ACCEPTED);
    }

    /** True when the query ends by itself once the data available at start is processed. */
    boolean finite() {
        return trigger instanceof Trigger.AvailableNow || trigger instanceof Trigger.Once;
    }

    boolean availableNow() {
        return trigger instanceof Trigger.AvailableNow;
    }

    @Override
    public String toString() {
        return text;
    }
}
