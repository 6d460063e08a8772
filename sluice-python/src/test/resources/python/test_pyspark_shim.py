"""Unit tests of Sluice's pure-Python pyspark stand-in and of the row encoding, on the real python3."""
import datetime
import decimal
import json
import pickle
import struct
import unittest

from pyspark.errors import PySparkNotImplementedError
from pyspark.sql.datasource import (DataSource, DataSourceReader, DataSourceStreamReader, InputPartition,
                                    SimpleDataSourceStreamReader, CaseInsensitiveDict)
from pyspark.sql.streaming.datasource import (ReadAllAvailable, ReadMaxRows, ReadMinRows, ReadMaxFiles,
                                              ReadMaxBytes, SupportsTriggerAvailableNow)
from pyspark.sql.types import (Row, StructType, StructField, LongType, StringType, IntegerType, DecimalType,
                               ArrayType, MapType, TimestampType)
from sluice_rows import Encoder, RowTypeError


class Source(DataSource):
    def schema(self):
        return "a INT, b STRING"


class DataSourceTest(unittest.TestCase):
    def test_name_defaults_to_the_class_name(self):
        self.assertEqual(Source.name(), "Source")

    def test_options_are_case_insensitive(self):
        s = Source(CaseInsensitiveDict({"Url": "x"}))
        self.assertEqual(s.options["url"], "x")
        self.assertEqual(s.options["URL"], "x")
        self.assertIn("uRl", s.options)
        self.assertEqual(list(s.options.keys()), ["url"])

    def test_unimplemented_readers_raise_not_implemented(self):
        with self.assertRaises(PySparkNotImplementedError) as e:
            Source({}).streamReader(None)
        self.assertEqual(str(e.exception), "[NOT_IMPLEMENTED] streamReader is not implemented.")
        self.assertIsInstance(e.exception, NotImplementedError)

    def test_stream_reader_defaults(self):
        class R(DataSourceStreamReader):
            def read(self, partition):
                return iter([])
        r = R()
        self.assertEqual(r.getDefaultReadLimit(), ReadAllAvailable())
        self.assertIsNone(r.reportLatestOffset())
        self.assertIsNone(r.commit({"a": 1}))
        with self.assertRaises(NotImplementedError):
            r.initialOffset()

    def test_read_abstract(self):
        with self.assertRaises(TypeError):
            DataSourceReader()

    def test_simple_reader_and_mixin(self):
        class S(SimpleDataSourceStreamReader, SupportsTriggerAvailableNow):
            pass
        s = S()
        self.assertIsInstance(s, SupportsTriggerAvailableNow)
        with self.assertRaises(NotImplementedError):
            s.readBetweenOffsets({}, {})

    def test_input_partition_pickles(self):
        p = pickle.loads(pickle.dumps(InputPartition(7)))
        self.assertEqual(p.value, 7)
        self.assertEqual(repr(p), "InputPartition(value=7)")

    def test_read_limits(self):
        self.assertEqual(ReadMaxRows(5).max_rows, 5)
        self.assertEqual(ReadMinRows(2), ReadMinRows(min_rows=2))
        self.assertEqual(ReadMaxFiles(3).max_files, 3)
        self.assertEqual(ReadMaxBytes(4).max_bytes, 4)


class TypesTest(unittest.TestCase):
    def test_struct_json_round_trip(self):
        s = StructType([StructField("a", LongType()), StructField("b", StringType(), False)]) \
            .add("c", DecimalType(10, 2)).add("d", ArrayType(MapType(StringType(), IntegerType())))
        self.assertEqual(StructType.fromJson(json.loads(s.json())), s)
        self.assertEqual(s.fieldNames(), ["a", "b", "c", "d"])
        self.assertEqual(s.simpleString(), "struct<a:bigint,b:string,c:decimal(10,2),d:array<map<string,int>>>")
        self.assertEqual(s["b"].nullable, False)
        self.assertEqual(len(s), 4)

    def test_row(self):
        r = Row(seq=1, account="a")
        self.assertEqual(r, (1, "a"))
        self.assertEqual((r.seq, r["account"]), (1, "a"))
        self.assertEqual(r.asDict(), {"seq": 1, "account": "a"})
        self.assertEqual(repr(r), "Row(seq=1, account='a')")
        self.assertEqual(pickle.loads(pickle.dumps(r)).asDict(), {"seq": 1, "account": "a"})
        Person = Row("name", "age")
        self.assertEqual(Person("x", 3).age, 3)


SCHEMA = {"type": "struct", "fields": [
    {"name": "n", "type": "long", "nullable": True, "metadata": {}},
    {"name": "s", "type": "string", "nullable": True, "metadata": {}}]}


class EncoderTest(unittest.TestCase):
    def test_columns_with_and_without_nulls(self):
        b = Encoder(SCHEMA).encode([(1, "a"), (None, "bé")])
        expected = (struct.pack(">i", 2) + b"\x01\x00\x01" + struct.pack(">q", 1)
                    + b"\x00" + struct.pack(">ii", 1, 3) + b"a" + "bé".encode())
        self.assertEqual(b, expected)

    def test_rows_by_name(self):
        e = Encoder(SCHEMA)
        self.assertEqual(e.encode([Row(s="x", n=5)]), e.encode([(5, "x")]))

    def test_wrong_width(self):
        with self.assertRaises(RowTypeError) as e:
            Encoder(SCHEMA).encode([(1,)])
        self.assertEqual(str(e.exception), "[DATA_SOURCE_RETURN_SCHEMA_MISMATCH] Return schema mismatch in the "
                         "result from 'read' method. Expected: 2 columns, Found: 1 columns. Make sure the returned "
                         "values match the required output schema.")

    def test_wrong_type_names_column_and_python_type(self):
        with self.assertRaises(RowTypeError) as e:
            Encoder(SCHEMA).encode([(1, "a"), ("2", "b")])
        self.assertEqual(str(e.exception), "column 'n' of type BIGINT got a value of Python type str: '2'")
        with self.assertRaises(RowTypeError) as e:
            Encoder(SCHEMA).encode([(1, 2.5)])
        self.assertEqual(str(e.exception), "column 's' of type STRING got a value of Python type float: 2.5")

    def test_out_of_range(self):
        schema = {"type": "struct", "fields": [{"name": "i", "type": "integer", "nullable": True, "metadata": {}}]}
        with self.assertRaises(RowTypeError) as e:
            Encoder(schema).encode([(2 ** 31,)])
        self.assertEqual(str(e.exception), "column 'i' of type INT got 2147483648, which is out of its range")

    def test_timestamp_and_decimal(self):
        schema = {"type": "struct", "fields": [
            {"name": "t", "type": "timestamp", "nullable": True, "metadata": {}},
            {"name": "d", "type": "decimal(5,2)", "nullable": True, "metadata": {}}]}
        t = datetime.datetime(1970, 1, 1, 0, 0, 1, 5, tzinfo=datetime.timezone.utc)
        b = Encoder(schema).encode([(t, decimal.Decimal("1.5"))])
        self.assertEqual(b, struct.pack(">i", 1) + b"\x00" + struct.pack(">q", 1000005)
                         + b"\x00" + struct.pack(">i", 4) + b"1.50")
        with self.assertRaises(RowTypeError) as e:
            Encoder(schema).encode([(t, decimal.Decimal("1234.5"))])
        self.assertEqual(str(e.exception), "column 'd' of type DECIMAL(5,2) got 1234.5, which does not fit 5 digits")


if __name__ == "__main__":
    unittest.main()
