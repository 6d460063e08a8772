package io.sluice.testkit;

/**
 * A source broke a rule of the source contract. The message reads
 * {@code rule '<rule>' broke on range <start> -> <end>: <what happened>} (without the range for rules about a
 * single offset or the whole run). An {@link AssertionError}, so test frameworks report it as a failure.
 */
public final class ContractViolation extends AssertionError {
    private static final long serialVersionUID = 1L;
    private final String rule;
    private final String range;

    ContractViolation(String rule, String range, String detail, Throwable cause) {
        super("rule '" + rule + "' broke" + (range == null ? "" : " on range " + range) + ": " + detail, cause);
        this.rule = rule;
        this.range = range;
    }

    /** The rule's name, e.g. {@code replayable}; see {@link SourceContract} for the list. */
    public String rule() {
        return rule;
    }

    /** The range as {@code <start json> -> <end json>}, or null when the rule is not about a range. */
    public String range() {
        return range;
    }
}
