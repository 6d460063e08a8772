"""A test source: numbers 0..total-1 with a word, in partitions; options steer failures and waits."""
import os
import time

from pyspark.sql.datasource import DataSource, DataSourceStreamReader, DataSourceReader, InputPartition
from pyspark.sql.streaming.datasource import ReadMaxRows, ReadAllAvailable, SupportsTriggerAvailableNow


class RangePartition(InputPartition):
    def __init__(self, start, end):
        self.start = start
        self.end = end


class CounterSource(DataSource):
    @classmethod
    def name(cls):
        return "counter"

    def schema(self):
        return "n BIGINT, word STRING"

    def streamReader(self, schema):
        return CounterReader(self.options)

    def reader(self, schema):
        return CounterBatchReader(self.options)


def _rows(options, start, end):
    fail_at = options.get("failAt")
    wait_file = options.get("waitFor")
    for i in range(start, end):
        if fail_at is not None and i == int(fail_at):
            raise ValueError("boom at %d" % i)
        if wait_file is not None and i == int(options.get("waitAt", "0")):
            with open(wait_file + ".pid", "w") as f:
                f.write(str(os.getpid()))
            while not os.path.exists(wait_file):
                time.sleep(0.01)
        yield (i, "w%d" % i)


class CounterReader(DataSourceStreamReader, SupportsTriggerAvailableNow):
    def __init__(self, options):
        self.options = options
        self.total = int(options.get("total", "10"))
        self.per_partition = int(options.get("rowsPerPartition", "4"))
        self.target = None

    def initialOffset(self):
        return {"n": 0}

    def latestOffset(self, start, limit):
        end = self.target if self.target is not None else self.total
        if isinstance(limit, ReadMaxRows):
            end = min(end, start["n"] + limit.max_rows)
        return {"n": end}

    def getDefaultReadLimit(self):
        if "maxRowsPerBatch" in self.options:
            return ReadMaxRows(int(self.options["maxRowsPerBatch"]))
        return ReadAllAvailable()

    def prepareForTriggerAvailableNow(self):
        self.target = self.total

    def partitions(self, start, end):
        return [RangePartition(s, min(end["n"], s + self.per_partition))
                for s in range(start["n"], end["n"], self.per_partition)]

    def read(self, partition):
        return _rows(self.options, partition.start, partition.end)


class CounterBatchReader(DataSourceReader):
    def __init__(self, options):
        self.options = options

    def partitions(self):
        return [RangePartition(0, 3), RangePartition(3, 5)]

    def read(self, partition):
        return _rows(self.options, partition.start, partition.end)
