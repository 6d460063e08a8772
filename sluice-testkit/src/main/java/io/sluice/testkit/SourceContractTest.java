package io.sluice.testkit;

import org.junit.jupiter.api.Test;

/**
 * A JUnit 5 test a source author extends: return the contract to check, with whatever makes the source produce
 * data between triggers; the kit runs {@link SourceContract#check()} as one test.
 *
 * <pre>{@code
 * class LedgerSourceContractTest extends SourceContractTest {
 *     protected SourceContract contract() {
 *         return SourceContract.forFormat("ledger").option("url", server.url())
 *                 .beforeEachTrigger(n -> server.append(10));
 *     }
 * }
 * }</pre>
 */
public abstract class SourceContractTest {

    /** The source and how to drive it; called once per test run. */
    protected abstract SourceContract contract() throws Exception;

    @Test
    void sourceFollowsTheContract() throws Exception {
        contract().check();
    }
}
