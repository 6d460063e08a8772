package io.sluice.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Random;

import org.junit.jupiter.api.Test;

class ProgressTimeTest {
    private static final DateTimeFormatter SPARK_FORM =
            DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

    @Test
    void writesSparksFormInUtc() {
        assertThat(ProgressTime.format(0)).isEqualTo("1970-01-01T00:00:00.000Z");
        assertThat(ProgressTime.format(1_764_424_800_123L)).isEqualTo("2025-11-29T14:00:00.123Z");
        assertThat(ProgressTime.format(-1)).isEqualTo("1969-12-31T23:59:59.999Z");
        assertThat(ProgressTime.format(951_782_400_007L)).isEqualTo("2000-02-29T00:00:00.007Z");
    }

    @Test
    void givesWhatTheFormatterGivesForAnyInstant() {
        long[] edges = {Long.MIN_VALUE / 1000, -62_135_596_800_001L, -62_135_596_800_000L, 253_402_300_799_999L,
                253_402_300_800_000L, Long.MAX_VALUE / 1000};
        for (long ms : edges) {
            assertThat(ProgressTime.format(ms)).as("%d", ms).isEqualTo(SPARK_FORM.format(Instant.ofEpochMilli(ms)));
        }
        Random random = new Random(20261129L);
        for (int i = 0; i < 20_000; i++) {
            long ms = random.nextLong() % 300_000_000_000_000L;
            assertThat(ProgressTime.format(ms)).as("%d", ms).isEqualTo(SPARK_FORM.format(Instant.ofEpochMilli(ms)));
        }
    }
}
