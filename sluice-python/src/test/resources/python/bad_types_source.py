from pyspark.sql.datasource import DataSource, DataSourceStreamReader, InputPartition


class BadTypes(DataSource):
    @classmethod
    def name(cls):
        return "bad_types"

    def schema(self):
        return "seq BIGINT, account STRING"

    def streamReader(self, schema):
        return BadReader()


class BadReader(DataSourceStreamReader):
    def initialOffset(self):
        return {"n": 0}

    def latestOffset(self):
        return {"n": 2}

    def partitions(self, start, end):
        return [InputPartition(1)]

    def read(self, partition):
        yield (1, "a")
        yield ("2", "b")
