"""Sluice's stand-in for PySpark: only the Python Data Source API (pyspark.sql.datasource) and the part of
pyspark.sql.types that schemas need. Sluice puts it on a worker's path only when PySpark is not importable."""
__version__ = "4.2.0+sluice"
