"""The `python` benchmark's per-stage split, Python's side: runs the real worker's read loop (sluice_worker's
Worker: the user's generator cut into batches, sluice_rows' Encoder) over one partition of the source, timing each
stage separately, and writes the encoded batches in the worker's framing to stdout, which the JVM reads and
decodes (PythonStages). Prints one line of seconds to stderr: generate=G encode=E send=S rows=N bytes=B.

argv: lib source.py className total partitions schemaJson batchRows
"""
import itertools
import json
import os
import sys
import time

import sluice_worker

lib, path, cls, total, parts, schema, batch_rows = sys.argv[1:8]
sluice_worker._use_shim_if_needed(lib)
out = os.fdopen(os.dup(1), "wb", buffering=1 << 16)
os.dup2(2, 1)
sluice_worker._out = out
w = sluice_worker.Worker()
w.op_load({"file": path})
w.op_create({"className": cls, "options": {"total": total, "partitions": parts}, "batchRows": int(batch_rows)})
w.op_openStream({"schema": schema})
start = json.loads(w.op_initialOffset({})["offset"])
end = json.loads(w.op_latestOffset({"start": json.dumps(start), "limit": {"_type": "ReadAllAvailable"}})["offset"])
first = w.op_partitions({"start": json.dumps(start), "end": json.dumps(end)})["partitions"][0]
partition = __import__("pickle").loads(__import__("base64").b64decode(first))
it = iter(w.reader.read(partition))
gen = enc = snd = 0.0
rows = size = 0
clock = time.perf_counter
while True:
    t0 = clock()
    chunk = list(itertools.islice(it, w.batch_rows))
    t1 = clock()
    if not chunk:
        gen += t1 - t0
        break
    data = w.encoder.encode(chunk)
    t2 = clock()
    sluice_worker.send(b"B", data)
    t3 = clock()
    gen += t1 - t0
    enc += t2 - t1
    snd += t3 - t2
    rows += len(chunk)
    size += len(data)
t0 = clock()
out.flush()
snd += clock() - t0
out.close()
print("generate=%.6f encode=%.6f send=%.6f rows=%d bytes=%d" % (gen, enc, snd, rows, size), file=sys.stderr)
