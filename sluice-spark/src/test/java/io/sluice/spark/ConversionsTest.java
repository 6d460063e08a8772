package io.sluice.spark;

import io.sluice.api.ReadLimit;
import io.sluice.api.Row;
import io.sluice.api.types.StructType;
import io.sluice.api.source.InputPartition;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.unsafe.types.UTF8String;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The conversions on their own, without a SparkSession. */
class ConversionsTest {

    @Test
    void everyReadLimitMapsToSparksAndBack() {
        List<ReadLimit> limits = List.of(ReadLimit.allAvailable(), ReadLimit.maxRows(7), ReadLimit.maxFiles(2),
                ReadLimit.maxBytes(1024), ReadLimit.minRows(5, 3000),
                ReadLimit.composite(ReadLimit.minRows(5, 3000), ReadLimit.maxRows(9)));
        for (ReadLimit l : limits) {
            assertThat(ReadLimits.toSluice(ReadLimits.toSpark(l))).isEqualTo(l);
        }
        assertThat(ReadLimits.toSpark(ReadLimit.maxFiles(2)))
                .isEqualTo(org.apache.spark.sql.connector.read.streaming.ReadLimit.maxFiles(2));
        assertThat(ReadLimits.toSpark(ReadLimit.composite(ReadLimit.minRows(5, 3000), ReadLimit.maxRows(9))))
                .hasToString("CompositeReadLimit{readLimits=[ReadMinRows{rows=5, maxTriggerDelayMs=3000}, MaxRows: 9]}");
    }

    @Test
    void valuesBecomeSparksInternalForms() {
        StructType schema = StructType.fromDDL("ts timestamp, d date, s string, dec decimal(6,2), n struct<a: int>");
        InternalRow r = new RowConverter(schema).convert(Row.of(Instant.ofEpochSecond(-1, 500_000_999),
                LocalDate.of(1969, 12, 31), "ü", new BigDecimal("1.5"), Row.of((Object) null)));
        assertThat(r.getLong(0)).isEqualTo(-500_000L);
        assertThat(r.getInt(1)).isEqualTo(-1);
        assertThat(r.getUTF8String(2)).isEqualTo(UTF8String.fromString("ü"));
        assertThat(r.getDecimal(3, 6, 2)).isEqualTo(Decimal.apply(new BigDecimal("1.50"), 6, 2));
        assertThat(r.getStruct(4, 1).isNullAt(0)).isTrue();
    }

    @Test
    void schemasMapBothWaysKeepingNullability() {
        StructType s = StructType.fromDDL("a bigint NOT NULL, m map<string, array<decimal(38,18)>>, "
                + "st struct<x: binary NOT NULL>");
        assertThat(SparkTypes.toSluice(SparkTypes.toSpark(s))).isEqualTo(s);
        assertThat(SparkTypes.toSpark(s).toDDL())
                .isEqualTo("a BIGINT NOT NULL,m MAP<STRING, ARRAY<DECIMAL(38,18)>>,st STRUCT<x: BINARY NOT NULL>");
    }

    /** Not Serializable in practice: a field Java serialization cannot write. */
    record Leaky(Object handle) implements InputPartition {
    }

    @Test
    void aPartitionThatCannotTravelToExecutorsIsNamedOnTheDriver() {
        assertThatThrownBy(() -> Partitions.wrap("leaky", List.of(new Leaky(new Object()))))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("The Sluice source 'leaky' planned a partition of class io.sluice.spark.ConversionsTest$Leaky"
                        + " that cannot be serialized to Spark's executors (java.io.NotSerializableException: "
                        + "java.lang.Object). Every field of an InputPartition must be Serializable: keep offsets, "
                        + "file names and other small values in it, never streams, clients or data");
    }
}
