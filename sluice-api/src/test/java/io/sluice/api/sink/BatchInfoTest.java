package io.sluice.api.sink;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class BatchInfoTest {
    private static final String Q = "3f1c2a9e-0000-4000-8000-000000000001";

    @Test
    void theDigestIsTheSameForTheSameLoggedBatchAndDiffersWithThePlanningTimeOrTheOffsets() {
        BatchInfo a = new BatchInfo(Q, 1, 1_000, List.of("{\"logOffset\":1}"));
        assertThat(a.digest()).hasSize(16).matches("[0-9a-f]{16}")
                .isEqualTo(new BatchInfo(Q, 1, 1_000, List.of("{\"logOffset\":1}")).digest());
        assertThat(new BatchInfo(Q, 1, 2_000, List.of("{\"logOffset\":1}")).digest()).isNotEqualTo(a.digest());
        assertThat(new BatchInfo(Q, 1, 1_000, List.of("{\"logOffset\":2}")).digest()).isNotEqualTo(a.digest());
        // SHA-256 of "1000\n{"logOffset":1}", first 8 bytes: the same in every JVM.
        assertThat(a.digest()).isEqualTo(java.util.HexFormat.of().formatHex(sha256("1000\n{\"logOffset\":1}"), 0, 8));
    }

    @Test
    void anUnknownBatchHasNoDigest() {
        BatchInfo u = BatchInfo.unknown(Q, 4);
        assertThat(u.known()).isFalse();
        assertThat(u.digest()).isEmpty();
        assertThat(u.plannedAtMs()).isEqualTo(-1);
    }

    @Test
    void theConflictMessageNamesTheBatchBothPlansAndTheTwoWaysOut() {
        BatchInfo now = new BatchInfo(Q, 1, 0, List.of("{\"logOffset\":1}", "-"));
        assertThat(now.range()).isEqualTo("offsets [{\"logOffset\":1}, -] planned at 1970-01-01T00:00:00Z");
        assertThat(now.rangeConflict("the S", "digest 00", now.range(), "a new T")).isEqualTo("Batch 1 of query " + Q
                + " is already in the S, written for another plan of that batch: digest 00; this run's checkpoint "
                + "plans batch 1 as offsets [{\"logOffset\":1}, -] planned at 1970-01-01T00:00:00Z. The checkpoint "
                + "was restored from an older copy than the sink's output, so skipping the batch would lose its rows "
                + "and mark them read. Either (a) start over with a fresh checkpoint and a new T, or (b) restore the "
                + "sink's output to the same point as the checkpoint (e.g. restore both from the same backup), then "
                + "restart.");
    }

    private static byte[] sha256(String s) {
        try {
            return java.security.MessageDigest.getInstance("SHA-256")
                    .digest(s.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new AssertionError(e);
        }
    }
}
