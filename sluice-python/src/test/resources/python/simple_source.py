"""A simple (unpartitioned) test source: three rows per read, up to 'total'."""
from pyspark.sql.datasource import DataSource, SimpleDataSourceStreamReader


class SimpleCounter(DataSource):
    @classmethod
    def name(cls):
        return "simple_counter"

    def schema(self):
        return "n INT"

    def simpleStreamReader(self, schema):
        return SimpleCounterReader(int(self.options.get("total", "5")))


class SimpleCounterReader(SimpleDataSourceStreamReader):
    def __init__(self, total):
        self.total = total

    def initialOffset(self):
        return {"n": 0}

    def read(self, start):
        end = min(self.total, start["n"] + 3)
        return iter([(i,) for i in range(start["n"], end)]), {"n": end}

    def readBetweenOffsets(self, start, end):
        return iter([(i,) for i in range(start["n"], end["n"])])
