"""A crash-test source: every trigger offers 100 more numbers, read in two partitions."""
import os

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
        return EndlessReader(self.options.get("pidDir"))


class EndlessReader(DataSourceStreamReader):
    def __init__(self, pid_dir=None):
        self.pid_dir = pid_dir

    def initialOffset(self):
        return {"n": 0}

    def latestOffset(self, start, limit):
        return {"n": start["n"] + 100}

    def partitions(self, start, end):
        middle = (start["n"] + end["n"]) // 2
        return [Span(start["n"], middle), Span(middle, end["n"])]

    def read(self, partition):
        if self.pid_dir:  # the reading workers' pids, for a test that kills them
            open(os.path.join(self.pid_dir, str(os.getpid())), "w").close()
        for i in range(partition.start, partition.end):
            yield (i, "w%d" % i)
