"""Rows to Sluice's binary batch encoding (protocol 1), one batch of rows at a time, column by column.

A batch: int32 row count, then each column of the schema in order. A column: one byte, 1 when some value is
null (then one byte per row, 1 for null), then the non-null values, densely:
  boolean 1 byte; tinyint 1; smallint 2; int 4; bigint 8; float 4 (IEEE); double 8; date 4 (days since
  1970-01-01); timestamp 8 (microseconds since 1970-01-01T00:00:00Z); string and binary: int32 lengths of every
  value, then their bytes (UTF-8 for strings); decimal: like string, the plain text of the value at the type's
  scale; array, map, struct: each value nested (see _nested).
All integers are big-endian. Nested values (inside arrays, maps and structs) are one byte null flag, then the
value as above for a single value; an array is int32 count then elements; a map int32 count then key, value
pairs (keys never null); a struct its fields in order.
"""
import datetime as _dt
import decimal as _decimal
import struct as _struct
from operator import itemgetter as _itemgetter

_EPOCH_DAYS = _dt.date(1970, 1, 1).toordinal()
_EPOCH = _dt.datetime(1970, 1, 1, tzinfo=_dt.timezone.utc)
_FIXED = {"boolean": "?", "byte": "b", "short": "h", "integer": "i", "long": "q", "float": "f", "double": "d"}
# the fixed-width types whose values struct packs as they are (a boolean column is checked first: '?' takes anything)
_FAST = {k: v for k, v in _FIXED.items() if k != "boolean"}
_SQL = {"boolean": "BOOLEAN", "byte": "TINYINT", "short": "SMALLINT", "integer": "INT", "long": "BIGINT",
        "float": "FLOAT", "double": "DOUBLE", "string": "STRING", "binary": "BINARY", "date": "DATE",
        "timestamp": "TIMESTAMP"}
_ACCEPTS = {"boolean": (bool,), "byte": (int,), "short": (int,), "integer": (int,), "long": (int,),
            "float": (float, int), "double": (float, int), "string": (str,), "binary": (bytes, bytearray),
            "date": (_dt.date,), "timestamp": (_dt.datetime,)}


class RowTypeError(Exception):
    """A value that does not fit its column: names the column, the type and the value's Python type."""


RowTypeError.__module__ = "builtins"  # printed as "RowTypeError: ...", not under this module's name


def sql_name(t):
    if isinstance(t, str):
        return _SQL.get(t, t.upper())
    kind = t["type"]
    if kind == "array":
        return "ARRAY<%s>" % sql_name(t["elementType"])
    if kind == "map":
        return "MAP<%s, %s>" % (sql_name(t["keyType"]), sql_name(t["valueType"]))
    return "STRUCT<%s>" % ", ".join("%s: %s" % (f["name"], sql_name(f["type"])) for f in t["fields"])


def _mismatch(column, t, value):
    return RowTypeError("column '%s' of type %s got a value of Python type %s: %s"
                        % (column, sql_name(t), type(value).__name__, _short(value)))


def _short(value):
    text = repr(value)
    return text if len(text) <= 100 else text[:100] + "..."


def _micros(v):
    if v.tzinfo is None:
        v = v.astimezone()  # a naive datetime is local time, as PySpark reads it
    d = v - _EPOCH
    return (d.days * 86400 + d.seconds) * 1000000 + d.microseconds


def _decimal_text(column, t, v):
    scale = int(t[t.index(",") + 1:-1])
    precision = int(t[8:t.index(",")])
    if isinstance(v, int) and not isinstance(v, bool):
        v = _decimal.Decimal(v)
    if not isinstance(v, _decimal.Decimal):
        raise _mismatch(column, t, v)
    q = v.quantize(_decimal.Decimal(1).scaleb(-scale), rounding=_decimal.ROUND_HALF_UP)
    if len(q.as_tuple().digits) > precision and q != 0:
        raise RowTypeError("column '%s' of type %s got %s, which does not fit %d digits"
                           % (column, sql_name(t), v, precision))
    return format(q, "f").encode()


class Encoder:
    """Encodes batches of rows for one schema (Spark's JSON form of a struct, parsed)."""

    def __init__(self, schema_json):
        self.fields = schema_json["fields"]
        self.names = [f["name"] for f in self.fields]
        self.width = len(self.fields)

    def encode(self, rows):
        n = len(rows)
        out = [_struct.pack(">i", n)]
        if n == 0:
            return b"".join(out)
        if self.width == 0:
            return out[0]
        first = rows[0]
        if hasattr(first, "__fields__"):
            rows = [self._by_name(r) for r in rows]
        # every row has the schema's width: the sum of the widths says so when no row is short (itemgetter then
        # raises IndexError below), and costs less than a set of them
        if sum(map(len, rows)) != n * self.width:
            self._bad_width(rows)
        # one column at a time: map(itemgetter) is about twice as fast as zip(*rows) for batches this size, and a
        # tuple is passed to struct.pack(*col) without a copy
        try:
            columns = [tuple(map(_itemgetter(i), rows)) for i in range(self.width)]
        except IndexError:
            self._bad_width(rows)
            raise
        for f, col in zip(self.fields, columns):
            self._column(out, f["name"], f["type"], col, n)
        return b"".join(out)

    def _bad_width(self, rows):
        widths = set(map(len, rows))
        if widths != {self.width}:
            bad = next(w for w in widths if w != self.width)
            raise RowTypeError("[DATA_SOURCE_RETURN_SCHEMA_MISMATCH] Return schema mismatch in the result from "
                               "'read' method. Expected: %d columns, Found: %d columns. Make sure the returned "
                               "values match the required output schema." % (self.width, bad))

    def _by_name(self, r):
        fields = getattr(r, "__fields__", None)
        if fields is None:
            return r
        if fields == self.names:
            return tuple(r)
        d = dict(zip(fields, r))
        missing = [c for c in self.names if c not in d]
        if missing:
            raise RowTypeError("[DATA_SOURCE_RETURN_SCHEMA_MISMATCH] the Row has no field %s (its fields: %s; the "
                               "schema's: %s)" % (missing[0], ", ".join(fields), ", ".join(self.names)))
        return tuple(d[c] for c in self.names)

    def _column(self, out, name, t, col, n):
        # The common case first, without a scan for None: a column of plain numbers or strings packs in one C call
        # that fails on a None or a value of another type; then the general path below says what is wrong.
        fmt = _FAST.get(t) if isinstance(t, str) else None
        if fmt is not None:
            try:
                data = _struct.pack(">%d%s" % (n, fmt), *col)
            except Exception:  # noqa: B902 - the general path raises the precise error
                pass
            else:
                out.append(b"\x00")
                out.append(data)
                return
        elif t == "string":
            try:
                joined = "".join(col)
            except TypeError:
                pass
            else:
                if joined.isascii():
                    out.append(b"\x00")
                    out.append(_struct.pack(">%di" % n, *tuple(map(len, col))))
                    out.append(joined.encode("ascii"))
                    return
        self._general(out, name, t, col, n)

    def _general(self, out, name, t, col, n):
        if None in col:
            out.append(b"\x01")
            out.append(bytes(1 if v is None else 0 for v in col))
            col = [v for v in col if v is not None]
        else:
            out.append(b"\x00")
        m = len(col)
        fmt = _FIXED.get(t) if isinstance(t, str) else None
        if fmt is not None:
            try:
                if t == "boolean":
                    self._check(name, t, col)
                out.append(_struct.pack(">%d%s" % (m, fmt), *col))
            except (_struct.error, OverflowError):  # OverflowError: a float beyond FLOAT's range
                self._check(name, t, col)
                self._range(name, t, col)
            return
        if t == "string":
            try:
                joined = "".join(col)
            except TypeError:
                self._check(name, t, col)
                raise
            if joined.isascii():  # one encode for the whole column; lengths in characters are lengths in bytes
                out.append(_struct.pack(">%di" % m, *tuple(map(len, col))))  # a tuple unpacks faster than a map
                out.append(joined.encode("ascii"))
                return
            try:
                data = [v.encode("utf-8") for v in col]
            except AttributeError:
                self._check(name, t, col)
                raise
            out.append(_struct.pack(">%di" % m, *map(len, data)))
            out.append(b"".join(data))
            return
        if t == "binary":
            self._check(name, t, col)
            out.append(_struct.pack(">%di" % m, *map(len, col)))
            out.append(b"".join(col))
            return
        if t == "date":
            try:
                out.append(_struct.pack(">%di" % m, *[v.toordinal() - _EPOCH_DAYS for v in col]))
            except AttributeError:
                self._check(name, t, col)
                raise
            return
        if t == "timestamp":
            self._check(name, t, col)
            out.append(_struct.pack(">%dq" % m, *map(_micros, col)))
            return
        if isinstance(t, str) and t.startswith("decimal"):
            data = [_decimal_text(name, t, v) for v in col]
            out.append(_struct.pack(">%di" % m, *map(len, data)))
            out.append(b"".join(data))
            return
        for v in col:
            self._nested(out, name, t, v)

    @staticmethod
    def _check(name, t, col):
        accepted = _ACCEPTS[t]
        for v in col:
            if not isinstance(v, accepted) or (isinstance(v, bool) and t != "boolean"):
                raise _mismatch(name, t, v)

    @staticmethod
    def _range(name, t, col):
        fmt = ">" + _FIXED[t]
        for v in col:
            try:
                _struct.pack(fmt, v)
            except (_struct.error, OverflowError):
                raise RowTypeError("column '%s' of type %s got %r, which is out of its range"
                                   % (name, sql_name(t), v))

    def _nested(self, out, name, t, v):
        """One value, not null (the caller wrote its null flag where one is due)."""
        if isinstance(t, str):
            if t in _FIXED:
                self._check(name, t, [v])
                try:
                    out.append(_struct.pack(">" + _FIXED[t], v))
                except (_struct.error, OverflowError):
                    self._range(name, t, [v])
            elif t == "string":
                if not isinstance(v, str):
                    raise _mismatch(name, t, v)
                b = v.encode("utf-8")
                out.append(_struct.pack(">i", len(b)))
                out.append(b)
            elif t == "binary":
                self._check(name, t, [v])
                out.append(_struct.pack(">i", len(v)))
                out.append(bytes(v))
            elif t == "date":
                self._check(name, t, [v])
                out.append(_struct.pack(">i", v.toordinal() - _EPOCH_DAYS))
            elif t == "timestamp":
                self._check(name, t, [v])
                out.append(_struct.pack(">q", _micros(v)))
            elif t.startswith("decimal"):
                b = _decimal_text(name, t, v)
                out.append(_struct.pack(">i", len(b)))
                out.append(b)
            else:
                raise RowTypeError("column '%s': type %s is not supported" % (name, t))
            return
        kind = t["type"]
        if kind == "array":
            if not isinstance(v, (list, tuple)):
                raise _mismatch(name, t, v)
            out.append(_struct.pack(">i", len(v)))
            for e in v:
                self._flagged(out, name, t["elementType"], e)
        elif kind == "map":
            if not isinstance(v, dict):
                raise _mismatch(name, t, v)
            out.append(_struct.pack(">i", len(v)))
            for k, e in v.items():
                if k is None:
                    raise RowTypeError("column '%s' of type %s got a map with a None key" % (name, sql_name(t)))
                self._nested(out, name, t["keyType"], k)
                self._flagged(out, name, t["valueType"], e)
        else:
            fields = t["fields"]
            if isinstance(v, dict):
                v = tuple(v.get(f["name"]) for f in fields)
            elif hasattr(v, "__fields__"):
                d = dict(zip(v.__fields__, v))
                v = tuple(d.get(f["name"]) for f in fields)
            if not isinstance(v, (list, tuple)) or len(v) != len(fields):
                raise _mismatch(name, t, v)
            for f, e in zip(fields, v):
                self._flagged(out, name + "." + f["name"], f["type"], e)

    def _flagged(self, out, name, t, v):
        if v is None:
            out.append(b"\x01")
        else:
            out.append(b"\x00")
            self._nested(out, name, t, v)
