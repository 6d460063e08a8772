import json
import urllib.request
from datetime import datetime

from pyspark.sql.datasource import DataSource, DataSourceStreamReader, InputPartition


class LedgerPartition(InputPartition):
    def __init__(self, start_seq, end_seq):
        self.start_seq = start_seq
        self.end_seq = end_seq


class LedgerSource(DataSource):
    @classmethod
    def name(cls):
        return "ledger"

    def schema(self):
        return "seq BIGINT, account STRING, amountCents BIGINT, ts TIMESTAMP"

    def streamReader(self, schema):
        return LedgerStreamReader(self.options)


class LedgerStreamReader(DataSourceStreamReader):
    def __init__(self, options):
        self.url = options["url"].rstrip("/")
        self.rows_per_partition = int(options.get("rowsPerPartition", 1000))

    def _get(self, path):
        with urllib.request.urlopen(self.url + path, timeout=10) as r:
            return json.loads(r.read())

    def initialOffset(self):
        return {"seq": 0}

    def latestOffset(self):
        return {"seq": self._get("/ledger/latest")["seq"]}

    def partitions(self, start, end):
        return [LedgerPartition(s, min(s + self.rows_per_partition, end["seq"]))
                for s in range(start["seq"], end["seq"], self.rows_per_partition)]

    def read(self, partition):
        expected = partition.end_seq - partition.start_seq
        entries = self._get("/ledger?fromSeq=%d&limit=%d" % (partition.start_seq + 1, expected))
        if len(entries) != expected:
            raise RuntimeError("the ledger returned %d entries for seq %d..%d, expected %d"
                               % (len(entries), partition.start_seq + 1, partition.end_seq, expected))
        for e in entries:
            ts = datetime.fromisoformat(e["ts"].replace("Z", "+00:00"))
            yield (e["seq"], e["account"], e["amountCents"], ts)

    def commit(self, end):
        pass
