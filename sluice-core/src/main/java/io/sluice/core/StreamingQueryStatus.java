package io.sluice.core;

/**
 * The instantaneous state of a query, as Spark's {@code StreamingQueryStatus}.
 *
 * @param message          e.g. "Waiting for data to arrive", "Processing new data", "Stopped"
 * @param isDataAvailable  the last trigger found new data
 * @param isTriggerActive  a trigger is being executed now (false while waiting for the next one)
 */
public record StreamingQueryStatus(String message, boolean isDataAvailable, boolean isTriggerActive) {

    public String json() {
        return "{\"message\":" + io.sluice.core.json.Json.quote(message)
                + ",\"isDataAvailable\":" + isDataAvailable + ",\"isTriggerActive\":" + isTriggerActive + "}";
    }
}
