package io.sluice.s3;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** {@link SdkWarmUp} goes through a listing, a GET and a PUT on its in-memory answers, with no server. */
class SdkWarmUpTest {

    @Test
    void theWarmUpListsReadsAndWritesWithoutAServer() {
        assertThat(SdkWarmUp.run()).isEqualTo("k x \"0\"");
    }
}
