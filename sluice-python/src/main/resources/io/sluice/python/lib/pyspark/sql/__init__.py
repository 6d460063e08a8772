from pyspark.sql.types import Row  # noqa: F401
