package io.sluice.cli;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ErrorReporterTest {

    @Test
    void aShortMessageIsShownAsItIs() {
        String m = "Cannot read checkpoint file /c/offsets/3: /c/offsets/3: permission denied";
        assertThat(ErrorReporter.readable(m)).isEqualTo(m);
    }

    @Test
    void aLongPartIsCutTo300CharactersAndSaysHowMuchIsLeft() {
        String body = "x".repeat(50_000);
        assertThat(ErrorReporter.readable("GET http://h/p answered 500: " + body + ": after"))
                .isEqualTo("GET http://h/p answered 500: " + "x".repeat(300)
                        + "... (49700 more characters; --verbose for all): after");
    }

    @Test
    void aLongMessageOfManyShortPartsIsCutAt1000Characters() {
        StringBuilder parts = new StringBuilder();
        for (int i = 0; i < 5_000; i++) {
            parts.append("part ").append(i).append(": ");
        }
        String m = parts + "end";
        String shown = ErrorReporter.readable(m);
        assertThat(shown).isEqualTo(m.substring(0, 1000) + "... (" + (m.length() - 1000)
                + " more characters; --verbose for all)");
    }

    @Test
    void aCauseRepeatedRightAfterItselfIsShownOnce() {
        String reply = "the broker answered: NOT_LEADER_OR_FOLLOWER for partition t-0";
        // "x: " + e.getMessage() + ": " + e, as wrappers often build it.
        assertThat(ErrorReporter.readable("Batch 3 failed: " + reply + ": org.apache.kafka.common.KafkaException: "
                + reply)).isEqualTo("Batch 3 failed: " + reply);
        assertThat(ErrorReporter.readable("Batch 3 failed: " + reply + ": " + reply))
                .isEqualTo("Batch 3 failed: " + reply);
        // Short parts may repeat by chance and mean something each time.
        assertThat(ErrorReporter.readable("line 1: bad: line 1: bad")).isEqualTo("line 1: bad: line 1: bad");
    }

    @Test
    void aSurrogatePairIsNeverCutInHalf() {
        String m = "a".repeat(299) + "\uD83D\uDE00" + "tail";
        assertThat(ErrorReporter.readable(m)).startsWith("a".repeat(299) + "... (6 more characters");
    }

    @Test
    void oneLineJoinsLinesAndFallsBackToTheClassName() {
        assertThat(ErrorReporter.oneLine(new IllegalStateException("first\n  second\r\nthird ")))
                .isEqualTo("first second third");
        assertThat(ErrorReporter.oneLine(new IllegalStateException())).isEqualTo("IllegalStateException");
    }
}
