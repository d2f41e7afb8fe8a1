#!/usr/bin/env python3
"""A healthy dynd client in its own process: what everyone else waits while a heavy client runs.

    python3 tools/fairness_probe.py SOCKET [--hello-ms 5] [--step-ms 20] [--max-seconds 120]

Opens two connections to the dynd at SOCKET. On the first it sends `hello` every 5 ms; on the
second it opens its own manual scene session of 2 items (elastic, frictionless, bouncing in their
bounds, so that every frame moves something) and sends a one-frame `step` every 20 ms. Two
connections, so that a `hello` never queues behind the probe's own step (a connection's requests
are answered in order) and each figure measures one thing: the loop (`hello`) and the frame path
(`step`). Each request is sent when it is due and its previous one has been answered (never
pipelined: a late reply delays the next send, it does not pile requests up). Round trips are timed
with the monotonic clock, from just before `send` to the moment the reply's line is complete.

One thread, one `select` over both sockets and standard input: no lock, no GIL contention with
anything (the heavy client runs in another process). It prints `ready` on standard output once
its session is open, runs until standard input has a line or closes (or --max-seconds), waits up
to --grace seconds for the replies still owed (sending nothing more), then prints one JSON object:
for `hello` and `step`, `count`, `p50`, `p99`, `worst` (ms) and
`unanswered` (a request still waiting at the end counts with the time it had waited so far, a
lower bound) and `worst_at`, when the worst one was sent (s since the start); `late_ms`, the
most a send was late for its due time while its previous request was
answered (the probe's own scheduling delay: when it is large, the machine, not dynd, held the
probe); `cpu_ms`, the probe's own CPU time; `problem`, the first protocol fault seen, or null.
"""

import argparse
import json
import math
import os
import resource
import select
import socket
import sys
import time

SCENE = {
    "bounds": [200, 200],
    "items": [{"id": "a", "center": [50, 50], "size": [20, 20]},
              {"id": "b", "center": [150, 120], "size": [20, 20]}],
    "behaviors": [
        {"type": "collision", "id": "box", "items": ["a", "b"], "reference_bounds": True},
        {"type": "dynamic_item", "id": "bouncy", "items": ["a", "b"], "elasticity": 1,
         "friction": 0, "resistance": 0, "angular_resistance": 0}],
}


def percentile(sorted_values, p):
    if not sorted_values:
        return None
    k = min(len(sorted_values) - 1, max(0, math.ceil(p / 100 * len(sorted_values)) - 1))
    return sorted_values[k]


class Channel:
    """One connection sending one kind of request on a period, one at a time."""

    def __init__(self, path, op, period, fields):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(path)
        self.op, self.period, self.fields = op, period, fields
        self.buf = b""
        self.serial = 0
        self.sent_at = None  # monotonic time of the request waiting for its reply
        self.due = 0.0
        self.rtts = []
        self.worst = (0.0, 0.0)  # (when it was sent, round trip)
        self.late = 0.0

    def request(self, obj, timeout=10):
        """A blocking request for setting up: its reply (events before it are skipped)."""
        self.sock.sendall(json.dumps(obj).encode() + b"\n")
        deadline = time.monotonic() + timeout
        while True:
            line = self._line(deadline)
            msg = json.loads(line)
            if "ok" in msg:
                return msg

    def _line(self, deadline):
        while b"\n" not in self.buf:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"no reply from dynd within the set-up time ({self.op})")
            self.sock.settimeout(left)
            chunk = self.sock.recv(1 << 16)
            if not chunk:
                raise ConnectionError("dynd closed the probe's connection")
            self.buf += chunk
        line, self.buf = self.buf.split(b"\n", 1)
        return line

    def send_if_due(self, now):
        if self.sent_at is not None or now < self.due:
            return
        self.late = max(self.late, now - self.due)
        self.serial += 1
        line = json.dumps({"op": self.op, "id": self.serial, **self.fields}).encode() + b"\n"
        self.sent_at = time.monotonic()
        self.sock.sendall(line)

    def on_readable(self):
        """Reads what is there; returns a problem or None."""
        chunk = self.sock.recv(1 << 20)
        if not chunk:
            return f"dynd closed the probe's {self.op} connection"
        self.buf += chunk
        while b"\n" in self.buf:
            line, self.buf = self.buf.split(b"\n", 1)
            if b'"ok"' not in line[:8]:
                continue  # an event (the step's frame)
            now = time.monotonic()
            # Checked by its head, not parsed: a hello reply is 7 KB of parameter tables, and
            # parsing it would cost the probe more than dynd spends on it.
            head = b'{"ok":true,"id":%d' % self.serial
            if self.sent_at is None or not line.startswith(head) or line[len(head):][:1] not in (
                    b",", b"}"):
                return f"unexpected reply to the probe's {self.op}: {line[:200]!r}"
            self.rtts.append(now - self.sent_at)
            if now - self.sent_at >= self.worst[1]:
                self.worst = (self.sent_at, now - self.sent_at)
            self.sent_at = None
            # The next request is due one period after this one was due, or now if that passed.
            self.due = max(self.due + self.period, now)
        return None

    def summary(self, start, end):
        values = sorted(self.rtts)
        unanswered = 0
        worst_at = self.worst[0]
        if self.sent_at is not None:
            values = sorted(values + [end - self.sent_at])
            unanswered = 1
            if end - self.sent_at >= self.worst[1]:
                worst_at = self.sent_at
        ms = lambda v: None if v is None else round(v * 1000, 3)  # noqa: E731
        return {"count": len(values), "p50": ms(percentile(values, 50)),
                "p99": ms(percentile(values, 99)), "worst": ms(values[-1] if values else None),
                "worst_at": round(worst_at - start, 3) if values else None,
                "unanswered": unanswered}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("socket")
    ap.add_argument("--hello-ms", type=float, default=5)
    ap.add_argument("--step-ms", type=float, default=20)
    ap.add_argument("--max-seconds", type=float, default=120)
    ap.add_argument("--grace", type=float, default=2)
    args = ap.parse_args()
    session = f"probe{os.getpid()}"
    hello = Channel(args.socket, "hello", args.hello_ms / 1000, {})
    step = Channel(args.socket, "step", args.step_ms / 1000, {"session": session, "count": 1})
    reply = step.request({"op": "open", "session": session, "clock": "manual", "scene": SCENE})
    if reply.get("ok") is not True:
        print(json.dumps({"problem": f"the probe's open was refused: {reply}"}), flush=True)
        return 1
    for item, v in (("a", [700, 300]), ("b", [-500, 650])):
        step.request({"op": "add_velocity", "session": session, "item": item, "velocity": v})
    for ch in (hello, step):
        ch.sock.setblocking(False)
    print("ready", flush=True)
    start = time.monotonic()
    hello.due = step.due = start
    problem = None
    stdin = sys.stdin.fileno()
    end_by = start + args.max_seconds
    stopping = False
    while True:
        now = time.monotonic()
        owed = [ch for ch in (hello, step) if ch.sent_at is not None]
        if now >= end_by or stopping and not owed:
            break
        if now >= end_by - args.grace and not stopping:
            stopping, end_by = True, now + args.grace
        try:
            for ch in (hello, step):
                if not stopping:
                    ch.send_if_due(now)
        except OSError as e:
            problem = f"the probe could not send: {e}"
            break
        waits = [ch.due - now for ch in (hello, step) if ch.sent_at is None and not stopping]
        timeout = max(0.0, min(waits + [end_by - now]))
        watched = [hello.sock, step.sock] + ([] if stopping else [stdin])
        readable, _, _ = select.select(watched, [], [], timeout)
        if stdin in readable:
            stopping, end_by = True, time.monotonic() + args.grace
        try:
            for ch in (hello, step):
                if ch.sock in readable:
                    problem = ch.on_readable() or problem
        except (OSError, ValueError) as e:
            problem = f"the probe's connection failed: {e}"
        if problem:
            break
    end = time.monotonic()
    usage = resource.getrusage(resource.RUSAGE_SELF)
    print(json.dumps({
        "seconds": round(end - start, 3), "hello": hello.summary(start, end),
        "step": step.summary(start, end),
        "late_ms": round(max(hello.late, step.late) * 1000, 3),
        "cpu_ms": round((usage.ru_utime + usage.ru_stime) * 1000, 1), "problem": problem}),
        flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
