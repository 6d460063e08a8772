"""PySpark's Python Data Source API (pyspark.sql.datasource, Spark 4.2), as Sluice runs it: the base classes a
user's source subclasses. The engine (Sluice's JVM) calls them through its Python workers."""
from abc import ABC, abstractmethod

from pyspark.errors import PySparkNotImplementedError
from pyspark.sql.streaming.datasource import (  # noqa: F401  (4.2 names, also importable from here)
    ReadLimit, ReadAllAvailable, ReadMinRows, ReadMaxRows, ReadMaxFiles, ReadMaxBytes, SupportsTriggerAvailableNow)

__all__ = ["DataSource", "DataSourceReader", "DataSourceStreamReader", "SimpleDataSourceStreamReader",
           "DataSourceWriter", "DataSourceStreamWriter", "WriterCommitMessage", "InputPartition",
           "CaseInsensitiveDict", "DataSourceRegistration"]


def _not_implemented(feature):
    return PySparkNotImplementedError(errorClass="NOT_IMPLEMENTED", messageParameters={"feature": feature})


class CaseInsensitiveDict(dict):
    """The options: a dict whose keys are compared case-insensitively (kept lower-cased, as PySpark does)."""

    def __init__(self, *args, **kwargs):
        super().__init__()
        self.update(*args, **kwargs)

    def __setitem__(self, key, value):
        super().__setitem__(key.lower(), value)

    def __getitem__(self, key):
        return super().__getitem__(key.lower())

    def __delitem__(self, key):
        super().__delitem__(key.lower())

    def __contains__(self, key):
        return isinstance(key, str) and super().__contains__(key.lower())

    def get(self, key, default=None):
        return super().get(key.lower(), default)

    def pop(self, key, *default):
        return super().pop(key.lower(), *default)

    def update(self, *args, **kwargs):
        for k, v in dict(*args, **kwargs).items():
            self[k] = v

    def copy(self):
        return CaseInsensitiveDict(self)


class DataSource(ABC):
    """A data source: a name, a schema and readers. Built with the user's options (``self.options``)."""

    def __init__(self, options):
        self.options = options

    @classmethod
    def name(cls):
        """The name ``format(...)`` finds this source by; the class name by default."""
        return cls.__name__

    def schema(self):
        """A StructType or a DDL string such as ``"a INT, b STRING"``."""
        raise _not_implemented("schema")

    def reader(self, schema):
        raise _not_implemented("reader")

    def writer(self, schema, overwrite):
        raise _not_implemented("writer")

    def streamWriter(self, schema, overwrite):
        raise _not_implemented("streamWriter")

    def streamReader(self, schema):
        raise _not_implemented("streamReader")

    def simpleStreamReader(self, schema):
        raise _not_implemented("simpleStreamReader")


class InputPartition:
    """A partition of the data to read; ``value`` is anything picklable. Subclass it to carry more."""

    def __init__(self, value):
        self.value = value

    def __repr__(self):
        attributes = ", ".join("%s=%r" % (k, v) for k, v in self.__dict__.items())
        return "%s(%s)" % (self.__class__.__name__, attributes)


class DataSourceReader(ABC):
    """A bounded reader (one-off reads)."""

    def pushFilters(self, filters):
        return filters

    def partitions(self):
        raise _not_implemented("partitions")

    @abstractmethod
    def read(self, partition):
        """Yields the rows of a partition: tuples, lists or Rows."""
        ...


class DataSourceStreamReader(ABC):
    """A partitioned stream reader; offsets are JSON-serializable dicts."""

    def initialOffset(self):
        raise _not_implemented("initialOffset")

    def latestOffset(self, start=None, limit=None):
        raise _not_implemented("latestOffset")

    def getDefaultReadLimit(self):
        return ReadAllAvailable()

    def reportLatestOffset(self):
        return None

    def partitions(self, start, end):
        raise _not_implemented("partitions")

    @abstractmethod
    def read(self, partition):
        ...

    def commit(self, end):
        pass

    def stop(self):
        pass


class SimpleDataSourceStreamReader(ABC):
    """A stream reader without partitioning, for small sources; runs where the engine plans."""

    def initialOffset(self):
        raise _not_implemented("initialOffset")

    def read(self, start):
        """Returns (rows, end): the rows after ``start`` and the offset after them."""
        raise _not_implemented("read")

    def readBetweenOffsets(self, start, end):
        raise _not_implemented("readBetweenOffsets")

    def commit(self, end):
        pass


class WriterCommitMessage:
    pass


class DataSourceWriter(ABC):
    """Not supported by Sluice yet: Python sinks."""


class DataSourceStreamWriter(ABC):
    """Not supported by Sluice yet: Python sinks."""


class DataSourceRegistration:
    """``spark.dataSource``: Sluice registers the sources of a file itself; register() only records the class."""

    registered = []

    def register(self, dataSource):
        DataSourceRegistration.registered.append(dataSource)
