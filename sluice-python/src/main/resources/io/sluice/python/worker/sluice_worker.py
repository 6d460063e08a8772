"""A Sluice Python worker: runs a user's data source for the JVM over stdin/stdout (protocol 1).

Framing, both ways: int32 length N (big-endian), then N bytes: one byte kind, then the payload.
  JVM -> worker  b'Q' a request, JSON: {"op": ..., ...}
  worker -> JVM  b'H' hello, JSON, once at start: {"protocol": 1, "python": "3.11.7", "pyspark": "sluice" | version}
                 b'A' an answer, JSON: {"result": ...}
                 b'B' a batch of rows (sluice_rows' encoding), during a read
                 b'E' an error, JSON: {"error": "ValueError: ...", "traceback": "..."}; the request is over
Offsets cross as the text json.dumps gives; partitions as base64 pickles. Anything the user's code prints goes to
stderr: stdout carries frames only.
"""
import base64
import importlib.util
import inspect
import itertools
import json
import os
import pickle
import struct
import sys
import traceback

PROTOCOL = 1
_out = None
_in = None


def _use_shim_if_needed(shim):
    try:
        import pyspark.sql.datasource  # noqa: F401
        import pyspark.sql.streaming.datasource  # noqa: F401  (4.2: read limits, availableNow; else the stand-in)
        import pyspark
        return getattr(pyspark, "__version__", "unknown")
    except ImportError:
        for name in [m for m in sys.modules if m == "pyspark" or m.startswith("pyspark.")]:
            del sys.modules[name]
        sys.path.insert(0, shim)
        import pyspark.sql.datasource  # noqa: F401
        return "sluice"


def send(kind, payload):
    _out.write(struct.pack(">i", len(payload) + 1))
    _out.write(kind)
    _out.write(payload)


def send_json(kind, value):
    send(kind, json.dumps(value).encode("utf-8"))


def receive():
    head = _in.read(4)
    if len(head) < 4:
        return None
    (n,) = struct.unpack(">i", head)
    body = _in.read(n)
    if len(body) < n:
        return None
    return body[:1], body[1:]


class Worker:
    def __init__(self):
        self.module = None
        self.cls = None
        self.source = None
        self.schema = None
        self.schema_json = None
        self.encoder = None
        self.reader = None
        self.kind = None
        self.batch_rows = 8192

    # ---- set-up

    def op_load(self, req):
        """Imports the user's file; lists the DataSource classes it defines."""
        from pyspark.sql.datasource import DataSource
        path = req["file"]
        module_name = req.get("module") or os.path.splitext(os.path.basename(path))[0]
        spec = importlib.util.spec_from_file_location(module_name, path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[module_name] = module  # so that pickle finds its classes (partitions) in every worker
        spec.loader.exec_module(module)
        self.module = module
        found = []
        for value in vars(module).values():
            if inspect.isclass(value) and issubclass(value, DataSource) and value is not DataSource \
                    and value.__module__ == module_name:
                found.append({"className": value.__qualname__, "name": value.name()})
        return {"sources": found}

    def op_create(self, req):
        from pyspark.sql.datasource import CaseInsensitiveDict
        self.cls = getattr(self.module, req["className"])
        self.source = self.cls(CaseInsensitiveDict(req.get("options") or {}))
        if req.get("batchRows"):
            self.batch_rows = int(req["batchRows"])
        return {}

    def op_schema(self, req):
        s = self.source.schema()
        if isinstance(s, str):
            return {"ddl": s}
        if hasattr(s, "json"):
            return {"json": s.json()}
        raise TypeError("schema() returned a %s: a StructType or a DDL string is accepted" % type(s).__name__)

    def _set_schema(self, req):
        from pyspark.sql.types import StructType
        from sluice_rows import Encoder
        self.schema_json = json.loads(req["schema"])
        self.schema = StructType.fromJson(self.schema_json)
        self.encoder = Encoder(self.schema_json)

    def op_openStream(self, req):
        """The stream reader (or, when streamReader is not implemented, the simple one)."""
        from pyspark.sql.datasource import SupportsTriggerAvailableNow
        self._set_schema(req)
        try:
            self.reader = self.source.streamReader(self.schema)
            self.kind = "stream"
        except NotImplementedError:
            self.reader = self.source.simpleStreamReader(self.schema)
            self.kind = "simple"
        return {"kind": self.kind, "availableNow": isinstance(self.reader, SupportsTriggerAvailableNow)}

    def op_openBatch(self, req):
        self._set_schema(req)
        try:
            self.reader = self.source.reader(self.schema)
            self.kind = "batch"
        except NotImplementedError:
            self.reader = None
        return {"kind": self.kind}

    # ---- planning

    def op_initialOffset(self, req):
        return {"offset": json.dumps(self.reader.initialOffset())}

    def op_latestOffset(self, req):
        f = self.reader.latestOffset
        params = [p for p in inspect.signature(f).parameters.values()
                  if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        if params:
            end = f(json.loads(req["start"]), _limit_from(req["limit"]))
        else:
            end = f()  # a reader written for Spark 4.0/4.1: latestOffset(self)
        return {"offset": json.dumps(end)}

    def op_defaultReadLimit(self, req):
        return {"limit": _limit_to(self.reader.getDefaultReadLimit())}

    def op_reportLatestOffset(self, req):
        o = self.reader.reportLatestOffset()
        return {"offset": None if o is None else json.dumps(o)}

    def op_prepareForTriggerAvailableNow(self, req):
        self.reader.prepareForTriggerAvailableNow()
        return {}

    def op_partitions(self, req):
        if self.kind == "batch":
            try:
                parts = self.reader.partitions()
            except NotImplementedError:
                parts = [None]
            from pyspark.sql.datasource import InputPartition
            if not isinstance(parts, (list, tuple)) or not all(
                    p is None or isinstance(p, InputPartition) for p in parts):
                raise TypeError("[DATA_SOURCE_TYPE_MISMATCH] Expected all partitions from partitions() to be "
                                "InputPartition, but got %r" % (parts,))
            if not parts:
                parts = [None]
        else:
            parts = self.reader.partitions(json.loads(req["start"]), json.loads(req["end"]))
        return {"partitions": [base64.b64encode(pickle.dumps(p)).decode("ascii") for p in parts]}

    def op_commit(self, req):
        self.reader.commit(json.loads(req["end"]))
        return {}

    def op_stop(self, req):
        if self.reader is not None and hasattr(self.reader, "stop"):
            self.reader.stop()
        return {}

    # ---- reading: rows go as 'B' frames before the answer

    def _send_rows(self, rows):
        it = iter(rows)
        total = 0
        while True:
            chunk = list(itertools.islice(it, self.batch_rows))
            if not chunk:
                break
            if not isinstance(chunk[0], (tuple, list)):
                raise TypeError("[DATA_SOURCE_INVALID_RETURN_TYPE] Unsupported return type ('%s') from Python data "
                                "source '%s'. Expected types: tuple, list, Row."
                                % (type(chunk[0]).__name__, self.cls.name()))
            send(b"B", self.encoder.encode(chunk))
            total += len(chunk)
        return total

    def op_read(self, req):
        partition = pickle.loads(base64.b64decode(req["partition"]))
        return {"rows": self._send_rows(self.reader.read(partition))}

    def op_simpleRead(self, req):
        result = self.reader.read(json.loads(req["start"]))
        if not isinstance(result, tuple) or len(result) != 2:
            raise TypeError("read(start) must return a tuple (rows, end), got %s" % type(result).__name__)
        rows, end = result
        end_json = json.dumps(end)
        n = self._send_rows(rows)
        return {"offset": end_json, "rows": n}

    def op_readBetweenOffsets(self, req):
        rows = self.reader.readBetweenOffsets(json.loads(req["start"]), json.loads(req["end"]))
        return {"rows": self._send_rows(rows)}


def _limit_from(d):
    from pyspark.sql.streaming import datasource as sds
    kind = d["_type"]
    args = {k: v for k, v in d.items() if k != "_type"}
    return getattr(sds, kind)(**args)


def _limit_to(limit):
    import dataclasses
    if limit is None:
        return {"_type": "ReadAllAvailable"}
    d = dataclasses.asdict(limit) if dataclasses.is_dataclass(limit) else dict(vars(limit))
    d["_type"] = type(limit).__name__
    return d


def _error_of(e):
    tb = traceback.format_exception(type(e), e, e.__traceback__)
    error = traceback.format_exception_only(type(e), e)[-1].strip()
    if isinstance(e, SyntaxError) and e.filename:
        error += " (%s, line %s)" % (e.filename, e.lineno)
    return {"error": error, "traceback": "".join(tb)}


def _exit_with_parent():
    """Ends this worker when its JVM is gone (killed with SIGKILL, say), even while user code runs: the JVM is
    the parent, and an orphan is adopted by another process."""
    import threading
    import time
    parent = os.getppid()

    def watch():
        while True:
            time.sleep(0.5)
            if os.getppid() != parent:
                os._exit(3)

    threading.Thread(target=watch, name="sluice-parent-watch", daemon=True).start()


def main():
    global _out, _in
    shim = sys.argv[1]
    _exit_with_parent()
    sys.path.insert(1, os.path.dirname(os.path.abspath(__file__)))
    # stdout carries frames only: keep its descriptor for them and send the user's prints to stderr
    _out = os.fdopen(os.dup(1), "wb", buffering=1 << 16)
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    _in = os.fdopen(os.dup(0), "rb", buffering=1 << 16)
    try:
        flavour = _use_shim_if_needed(shim)
        hello = {"protocol": PROTOCOL, "python": "%d.%d.%d" % sys.version_info[:3], "pyspark": flavour}
    except BaseException as e:  # noqa: B902 - reported to the JVM
        hello = {"protocol": PROTOCOL, "error": _error_of(e)}
    send_json(b"H", hello)
    _out.flush()
    worker = Worker()
    while True:
        frame = receive()
        if frame is None:
            return
        kind, payload = frame
        req = json.loads(payload)
        op = req.get("op")
        if op == "exit":
            return
        try:
            handler = getattr(worker, "op_" + op, None)
            if handler is None:
                raise ValueError("unknown request %r (protocol %d)" % (op, PROTOCOL))
            send_json(b"A", {"result": handler(req)})
        except Exception as e:  # noqa: B902 - every failure goes back to the JVM, the worker stays usable
            send_json(b"E", _error_of(e))
        _out.flush()


if __name__ == "__main__":
    main()
