"""The "what is new since you last asked" upstream, read naively: the changes live only in this reader's memory."""
import json
import urllib.request

from pyspark.sql.datasource import DataSource, SimpleDataSourceStreamReader


class NaiveChangesSource(DataSource):
    @classmethod
    def name(cls):
        return "py-changes-naive"

    def schema(self):
        return "change STRING"

    def simpleStreamReader(self, schema):
        return NaiveChangesReader(self.options["url"])


class NaiveChangesReader(SimpleDataSourceStreamReader):
    def __init__(self, url):
        self.url = url.rstrip("/")
        self.fetched = []  # everything fetched in this run, only here

    def initialOffset(self):
        return {"n": 0}

    def read(self, start):
        with urllib.request.urlopen(self.url + "/changes", timeout=10) as r:
            new = json.loads(r.read())
        self.fetched.extend(new)
        end = start["n"] + len(new)
        return [(c,) for c in new], {"n": end}

    def readBetweenOffsets(self, start, end):
        # a fresh reader after a restart has nothing: the rows of a logged batch are gone
        return [(c,) for c in self.fetched[start["n"]:end["n"]]]
