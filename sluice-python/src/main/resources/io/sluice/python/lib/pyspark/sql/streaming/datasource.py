"""Read limits and the availableNow mixin of PySpark 4.2's Python stream readers."""
from dataclasses import dataclass

__all__ = ["ReadLimit", "ReadAllAvailable", "ReadMinRows", "ReadMaxRows", "ReadMaxFiles", "ReadMaxBytes",
           "SupportsTriggerAvailableNow"]


class ReadLimit:
    """The base of the read limits the engine passes to ``latestOffset(start, limit)``."""


@dataclass
class ReadAllAvailable(ReadLimit):
    """No limit: everything available."""


@dataclass
class ReadMinRows(ReadLimit):
    min_rows: int


@dataclass
class ReadMaxRows(ReadLimit):
    max_rows: int


@dataclass
class ReadMaxFiles(ReadLimit):
    max_files: int


@dataclass
class ReadMaxBytes(ReadLimit):
    max_bytes: int


class SupportsTriggerAvailableNow:
    """Mix into a stream reader to drain what is available at start in several limited batches."""

    def prepareForTriggerAvailableNow(self) -> None:
        from pyspark.errors import PySparkNotImplementedError
        raise PySparkNotImplementedError(errorClass="NOT_IMPLEMENTED",
                                         messageParameters={"feature": "prepareForTriggerAvailableNow"})
