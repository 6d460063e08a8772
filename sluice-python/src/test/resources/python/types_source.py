"""A test source with a column of every Sluice type: one full row, one row of nulls."""
import datetime
import decimal

from pyspark.sql.datasource import DataSource, DataSourceStreamReader, InputPartition
from pyspark.sql.types import (StructType, StructField, BooleanType, ByteType, ShortType, IntegerType, LongType,
                               FloatType, DoubleType, DecimalType, StringType, BinaryType, DateType, TimestampType,
                               ArrayType, MapType, Row)


class TypesSource(DataSource):
    @classmethod
    def name(cls):
        return "types"

    def schema(self):
        return StructType([
            StructField("bo", BooleanType()), StructField("by", ByteType()), StructField("sh", ShortType()),
            StructField("i", IntegerType()), StructField("l", LongType()), StructField("f", FloatType()),
            StructField("d", DoubleType()), StructField("de", DecimalType(12, 3)), StructField("s", StringType()),
            StructField("bi", BinaryType()), StructField("da", DateType()), StructField("ts", TimestampType()),
            StructField("ar", ArrayType(LongType())), StructField("ma", MapType(StringType(), DoubleType())),
            StructField("st", StructType([StructField("x", IntegerType()), StructField("y", StringType())]))])

    def streamReader(self, schema):
        return TypesReader()


class TypesReader(DataSourceStreamReader):
    def initialOffset(self):
        return {"v": 0}

    def latestOffset(self, start, limit):
        return {"v": 1}

    def partitions(self, start, end):
        return [InputPartition(None)]

    def read(self, partition):
        yield (True, -128, 32767, -2147483648, 9223372036854775807, 1.5, -2.25, decimal.Decimal("123456789.125"),
               "héllo ☃", b"\x00\xff", datetime.date(2024, 2, 29),
               datetime.datetime(2025, 1, 1, 12, 30, 0, 123456, tzinfo=datetime.timezone.utc),
               [1, None, 3], {"a": 1.0, "b": None}, Row(y="z", x=7))
        yield (None,) * 15
