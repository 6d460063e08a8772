package io.sluice.api.datasource;

/**
 * A source broke its contract: an offset that does not round-trip through JSON, an offset that goes backwards, a
 * partition that cannot be serialized... The message names the source, what it returned and the rule. The query
 * fails with it as the cause of its {@code StreamingQueryException}; nothing of the batch is committed.
 */
public final class SourceContractException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    public SourceContractException(String message) {
        super(message);
    }

    public SourceContractException(String message, Throwable cause) {
        super(message, cause);
    }
}
