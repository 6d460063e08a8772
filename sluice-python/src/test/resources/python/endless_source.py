"""A crash-test source: every trigger offers 100 more numbers, read in two partitions."""
from pyspark.sql.datasource import DataSource, DataSourceStreamReader, InputPartition


class Span(InputPartition):
    def __init__(self, start, end):
        self.start = start
        self.end = end


class EndlessSource(DataSource):
    @classmethod
    def name(cls):
        return "endless"

    def schema(self):
        return "n BIGINT, word STRING"

    def streamReader(self, schema):
        return EndlessReader()


class EndlessReader(DataSourceStreamReader):
    def initialOffset(self):
        return {"n": 0}

    def latestOffset(self, start, limit):
        return {"n": start["n"] + 100}

    def partitions(self, start, end):
        middle = (start["n"] + end["n"]) // 2
        return [Span(start["n"], middle), Span(middle, end["n"])]

    def read(self, partition):
        for i in range(partition.start, partition.end):
            yield (i, "w%d" % i)
