package io.sluice.parquet;

import io.sluice.api.OptionDef;
import io.sluice.files.format.FileFormats;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The module's packaging: found through ServiceLoader, and no Hadoop class at run time. */
class ParquetRuntimeTest {

    @Test
    void noHadoopClassIsOnTheClassPath() {
        // Every other test of this module writes and reads Parquet on this class path.
        assertThatThrownBy(() -> Class.forName("org.apache.hadoop.conf.Configuration"))
                .isInstanceOf(ClassNotFoundException.class);
    }

    @Test
    void theFormatIsRegisteredAfterTheBuiltInOnes() {
        assertThat(FileFormats.NAMES).contains("parquet");
        assertThat(FileFormats.ALL).extracting(f -> f.name()).containsExactly("json", "csv", "text", "parquet");
        assertThat(FileFormats.named("PARQUET")).isInstanceOf(ParquetFileFormat.class);
        assertThat(new ParquetSinkProvider().options().options()).extracting(OptionDef::name)
                .contains("compression", "parquet.block.size").doesNotContain("codec");
        assertThat(new ParquetSourceProvider().shortName()).isEqualTo("parquet");
    }

    @Test
    void int96NanosecondsAreCutToMicrosecondsAsSparkReadsThem() {
        java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(12).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        b.putLong(3_723_456_789_999L).putInt(2_440_589); // 1970-01-02 01:02:03.456789999
        assertThat(ParquetRowWriter.fromInt96(b.array())).isEqualTo(java.time.Instant.parse(
                "1970-01-02T01:02:03.456789Z"));
    }
}
