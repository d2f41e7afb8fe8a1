#!/usr/bin/env python3
"""Readers that read slowly are kept (issue 39, point 4): two clients each pipeline 60 `get`s of a
1 000-item session (about 90 KB a reply) and read at 1 000 and 3 000 bytes a second.

    tools/slow_reader.py BIN_DIR SECONDS

Prints, for each, the bytes read, the replies begun and whether dynd kept the connection for
the whole time, then the end of dynd's log.
"""
import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time

BIN = sys.argv[1]; SECONDS = float(sys.argv[2])
d = tempfile.mkdtemp(); path = d + "/s"
p = subprocess.Popen([BIN + "/dynd", "--socket", path], stderr=open(d + "/log", "w"))
for _ in range(100):
    if os.path.exists(path): break
    time.sleep(0.05)
def conn():
    s = socket.socket(socket.AF_UNIX); s.connect(path); return s
setup = conn()
items = [{"id": f"i{k}", "center": [10 + k % 40 * 8, 10 + k // 40 * 8], "size": [5, 5]} for k in range(1000)]
setup.sendall((json.dumps({"op": "open", "session": "big", "keep": True, "clock": "manual", "scene": {"items": items}}) + "\n").encode())
setup.recv(1 << 20)
results = {}
def reader(rate):
    s = conn()
    s.sendall(b"".join((json.dumps({"op": "get", "id": k, "session": "big"}) + "\n").encode() for k in range(60)))
    got = 0; replies = 0; start = time.monotonic(); why = "ran the whole time"
    s.setblocking(False)
    while time.monotonic() - start < SECONDS:
        time.sleep(0.25)
        want = int(rate * (time.monotonic() - start)) - got
        while want > 0:
            try:
                chunk = s.recv(min(want, 4096))
            except BlockingIOError:
                break
            if not chunk:
                why = f"closed by dynd after {time.monotonic() - start:.0f} s"; break
            got += len(chunk); want -= len(chunk); replies += chunk.count(b'{"ok"')
        if why != "ran the whole time": break
    results[rate] = (got, replies, why)
ts = [threading.Thread(target=reader, args=(r,)) for r in (1000, 3000)]
for t in ts: t.start()
for t in ts: t.join()
for rate, (got, replies, why) in results.items():
    print(f"reader at {rate} B/s over {SECONDS:.0f} s: read {got} bytes, {replies} replies begun, connection: {why}")
p.terminate(); p.wait()
print(open(d + "/log").read()[-600:])
