"""The throughput measurement's source: 'total' rows (seq, account, amount) in 'partitions' partitions."""
from pyspark.sql.datasource import DataSource, DataSourceStreamReader, InputPartition


class Span(InputPartition):
    def __init__(self, start, end):
        self.start = start
        self.end = end


class Throughput(DataSource):
    @classmethod
    def name(cls):
        return "py-throughput"

    def schema(self):
        return "seq BIGINT, account STRING, amount BIGINT"

    def streamReader(self, schema):
        return Reader(int(self.options["total"]), int(self.options["partitions"]))


class Reader(DataSourceStreamReader):
    def __init__(self, total, partitions):
        self.total = total
        self.parts = partitions

    def initialOffset(self):
        return {"seq": 0}

    def latestOffset(self, start, limit):
        return {"seq": self.total}

    def partitions(self, start, end):
        step = (end["seq"] - start["seq"] + self.parts - 1) // self.parts
        return [Span(s, min(s + step, end["seq"])) for s in range(start["seq"], end["seq"], step)]

    def read(self, partition):
        for i in range(partition.start, partition.end):
            yield (i, "acct-%d" % (i % 100), i * 10)
