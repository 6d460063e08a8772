"""The part of pyspark.sql.types that data source schemas need: the atomic types, DecimalType, ArrayType, MapType,
StructField, StructType (with Spark's JSON form) and Row. Standard library only."""
import json as _json

__all__ = ["DataType", "NullType", "BooleanType", "ByteType", "ShortType", "IntegerType", "LongType", "FloatType",
           "DoubleType", "StringType", "BinaryType", "DateType", "TimestampType", "DecimalType", "ArrayType",
           "MapType", "StructField", "StructType", "Row"]


class DataType:
    """The base of every type. Equal types have equal JSON."""

    def __repr__(self):
        return self.__class__.__name__ + "()"

    def __hash__(self):
        return hash(str(self))

    def __eq__(self, other):
        return isinstance(other, self.__class__) and self.jsonValue() == other.jsonValue()

    def __ne__(self, other):
        return not self.__eq__(other)

    @classmethod
    def typeName(cls):
        return cls.__name__[:-4].lower()

    def simpleString(self):
        return self.typeName()

    def jsonValue(self):
        return self.typeName()

    def json(self):
        return _json.dumps(self.jsonValue(), separators=(",", ":"), sort_keys=True)

    @classmethod
    def fromJson(cls, value):
        return _parse_json_type(value)


class AtomicType(DataType):
    pass


class NullType(DataType):
    @classmethod
    def typeName(cls):
        return "void"


class BooleanType(AtomicType):
    pass


class ByteType(AtomicType):
    def simpleString(self):
        return "tinyint"


class ShortType(AtomicType):
    def simpleString(self):
        return "smallint"


class IntegerType(AtomicType):
    def simpleString(self):
        return "int"


class LongType(AtomicType):
    def simpleString(self):
        return "bigint"


class FloatType(AtomicType):
    pass


class DoubleType(AtomicType):
    pass


class StringType(AtomicType):
    pass


class BinaryType(AtomicType):
    pass


class DateType(AtomicType):
    pass


class TimestampType(AtomicType):
    pass


class DecimalType(AtomicType):
    def __init__(self, precision=10, scale=0):
        self.precision = precision
        self.scale = scale

    def simpleString(self):
        return "decimal(%d,%d)" % (self.precision, self.scale)

    def jsonValue(self):
        return "decimal(%d,%d)" % (self.precision, self.scale)

    def __repr__(self):
        return "DecimalType(%d, %d)" % (self.precision, self.scale)


class ArrayType(DataType):
    def __init__(self, elementType, containsNull=True):
        self.elementType = elementType
        self.containsNull = containsNull

    def simpleString(self):
        return "array<%s>" % self.elementType.simpleString()

    def jsonValue(self):
        return {"type": "array", "elementType": self.elementType.jsonValue(), "containsNull": self.containsNull}

    def __repr__(self):
        return "ArrayType(%r, %s)" % (self.elementType, self.containsNull)


class MapType(DataType):
    def __init__(self, keyType, valueType, valueContainsNull=True):
        self.keyType = keyType
        self.valueType = valueType
        self.valueContainsNull = valueContainsNull

    def simpleString(self):
        return "map<%s,%s>" % (self.keyType.simpleString(), self.valueType.simpleString())

    def jsonValue(self):
        return {"type": "map", "keyType": self.keyType.jsonValue(), "valueType": self.valueType.jsonValue(),
                "valueContainsNull": self.valueContainsNull}

    def __repr__(self):
        return "MapType(%r, %r, %s)" % (self.keyType, self.valueType, self.valueContainsNull)


class StructField(DataType):
    def __init__(self, name, dataType, nullable=True, metadata=None):
        if not isinstance(name, str):
            raise TypeError("field name %r should be a string" % (name,))
        if not isinstance(dataType, DataType):
            raise TypeError("dataType %r should be an instance of DataType" % (dataType,))
        self.name = name
        self.dataType = dataType
        self.nullable = nullable
        self.metadata = metadata or {}

    def simpleString(self):
        return "%s:%s" % (self.name, self.dataType.simpleString())

    def jsonValue(self):
        return {"name": self.name, "type": self.dataType.jsonValue(), "nullable": self.nullable,
                "metadata": self.metadata}

    def __repr__(self):
        return "StructField(%r, %r, %s)" % (self.name, self.dataType, self.nullable)


class StructType(DataType):
    def __init__(self, fields=None):
        self.fields = list(fields) if fields else []
        for f in self.fields:
            if not isinstance(f, StructField):
                raise TypeError("fields should be a list of StructField, got %r" % (f,))
        self.names = [f.name for f in self.fields]

    def add(self, field, data_type=None, nullable=True, metadata=None):
        """Adds a field: a StructField, or a name with a DataType or a type name ("long", "string"...)."""
        if isinstance(field, StructField):
            self.fields.append(field)
        else:
            if data_type is None:
                raise ValueError("Must specify DataType if passing name of struct_field to create.")
            if isinstance(data_type, str):
                data_type = _parse_json_type(data_type)
            self.fields.append(StructField(field, data_type, nullable, metadata))
        self.names = [f.name for f in self.fields]
        return self

    def fieldNames(self):
        return list(self.names)

    def __iter__(self):
        return iter(self.fields)

    def __len__(self):
        return len(self.fields)

    def __getitem__(self, key):
        if isinstance(key, str):
            for f in self.fields:
                if f.name == key:
                    return f
            raise KeyError("No StructField named %s" % key)
        if isinstance(key, int):
            return self.fields[key]
        if isinstance(key, slice):
            return StructType(self.fields[key])
        raise TypeError("StructType keys should be strings, integers or slices")

    def simpleString(self):
        return "struct<%s>" % ",".join(f.simpleString() for f in self.fields)

    def jsonValue(self):
        return {"type": "struct", "fields": [f.jsonValue() for f in self.fields]}

    def __repr__(self):
        return "StructType([%s])" % ", ".join(repr(f) for f in self.fields)


_ATOMIC = {t.typeName(): t for t in (NullType, BooleanType, ByteType, ShortType, IntegerType, LongType,
                                      FloatType, DoubleType, StringType, BinaryType, DateType, TimestampType)}


def _parse_json_type(value):
    """A DataType from Spark's JSON form (the parsed value or its text)."""
    if isinstance(value, str) and value.startswith(("{", '"')):
        value = _json.loads(value)
    if isinstance(value, str):
        if value in _ATOMIC:
            return _ATOMIC[value]()
        if value == "decimal":
            return DecimalType()
        if value.startswith("decimal(") and value.endswith(")"):
            p, s = value[8:-1].split(",")
            return DecimalType(int(p), int(s))
        raise ValueError("Could not parse datatype: %s" % value)
    kind = value.get("type")
    if kind == "struct":
        return StructType([StructField(f["name"], _parse_json_type(f["type"]), f.get("nullable", True),
                                       f.get("metadata")) for f in value["fields"]])
    if kind == "array":
        return ArrayType(_parse_json_type(value["elementType"]), value.get("containsNull", True))
    if kind == "map":
        return MapType(_parse_json_type(value["keyType"]), _parse_json_type(value["valueType"]),
                       value.get("valueContainsNull", True))
    raise ValueError("Could not parse datatype: %s" % (value,))


class Row(tuple):
    """A row: ``Row(name="Alice", age=11)`` has fields, kept in the given order; ``Row("name", "age")`` makes a
    row class to call with values; ``Row(1, 2)`` called on such a class gives a row with those fields."""

    def __new__(cls, *args, **kwargs):
        if args and kwargs:
            raise ValueError("Can not use both args and kwargs to create Row")
        if kwargs:
            row = tuple.__new__(cls, list(kwargs.values()))
            row.__fields__ = list(kwargs.keys())
            return row
        return tuple.__new__(cls, args)

    def asDict(self, recursive=False):
        if not hasattr(self, "__fields__"):
            raise TypeError("Cannot convert a Row class into dict")

        def conv(v):
            if recursive and isinstance(v, Row):
                return v.asDict(True)
            if recursive and isinstance(v, list):
                return [conv(x) for x in v]
            if recursive and isinstance(v, dict):
                return {k: conv(x) for k, x in v.items()}
            return v

        return {k: conv(v) for k, v in zip(self.__fields__, self)}

    def __contains__(self, item):
        if hasattr(self, "__fields__"):
            return item in self.__fields__
        return super().__contains__(item)

    def __call__(self, *args):
        """A row class called with values: a row with its fields."""
        if len(args) > len(self):
            raise ValueError("Can not create Row with fields %s, expected %d values but got %s"
                             % (self, len(self), args))
        row = tuple.__new__(Row, args)
        row.__fields__ = list(self)
        return row

    def __getitem__(self, item):
        if isinstance(item, (int, slice)):
            return super().__getitem__(item)
        try:
            return super().__getitem__(self.__fields__.index(item))
        except (IndexError, AttributeError, ValueError):
            raise KeyError(item)

    def __getattr__(self, item):
        if item.startswith("__"):
            raise AttributeError(item)
        try:
            return self[self.__fields__.index(item)]
        except (IndexError, AttributeError, ValueError):
            raise AttributeError(item)

    def __setattr__(self, key, value):
        if key != "__fields__":
            raise RuntimeError("Row is read-only")
        self.__dict__[key] = value

    def __reduce__(self):
        if hasattr(self, "__fields__"):
            return (_create_row, (self.__fields__, tuple(self)))
        return tuple.__reduce__(self)

    def __repr__(self):
        if hasattr(self, "__fields__"):
            return "Row(%s)" % ", ".join("%s=%r" % (k, v) for k, v in zip(self.__fields__, tuple(self)))
        return "<Row(%s)>" % ", ".join(repr(field) for field in self)


def _create_row(fields, values):
    row = Row(*values)
    row.__fields__ = fields
    return row
