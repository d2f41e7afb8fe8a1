#!/usr/bin/env python3
"""What one hostile client costs everyone else: the measurements of BENCHMARKS.md "Isolation".

    tools/isolation_bench.py BIN_DIR [--markdown] [--connections 1000]

Starts BIN_DIR/dynd on a temporary socket for each case, runs one heavy reproducer of the issue
"no client can crash, freeze or starve dynd" on one connection while a healthy client sends
`hello` every 5 ms on another, and reports the healthy client's worst and 99th-percentile round
trip. Then: dynd's peak resident memory while 1000 connections queue `get` replies of a
1000-item session and never read (and after they close), and how long SIGTERM takes to end the
process in the middle of the heaviest work. Exits 1 if dynd died or a round trip exceeded
--max-rtt-ms (default 50, the issue's target).
"""
import argparse
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


class Daemon:
    def __init__(self, bin_dir):
        self.dir = tempfile.mkdtemp(prefix="dynd-iso.")
        os.chmod(self.dir, 0o700)
        self.path = os.path.join(self.dir, "d.sock")
        self.proc = subprocess.Popen(
            [os.path.join(bin_dir, "dynd"), "--socket", self.path, "--log-level", "error"],
            stderr=subprocess.DEVNULL)
        for _ in range(200):
            if os.path.exists(self.path):
                break
            time.sleep(0.02)
        self.peak = 0
        self._watching = True
        self._watcher = threading.Thread(target=self._watch, daemon=True)
        self._watcher.start()

    def _watch(self):
        while self._watching and self.proc.poll() is None:
            try:
                self.peak = max(self.peak, rss_kib(self.proc.pid))
            except OSError:
                break
            time.sleep(0.01)

    def connect(self):
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.connect(self.path)
        return s

    def stop(self):
        self._watching = False
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
        return self.proc.returncode


class Healthy:
    """Sends hello every 5 ms and records round trips (ms)."""

    def __init__(self, daemon):
        self.sock = daemon.connect()
        self.file = self.sock.makefile("rb")
        self.samples = []
        self.running = True
        self.failed = None
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self):
        while self.running:
            start = time.perf_counter()
            try:
                self.sock.sendall(b'{"op":"hello"}\n')
                line = self.file.readline()
            except OSError as e:
                self.failed = str(e)
                return
            if not line:
                self.failed = "the daemon closed the healthy connection"
                return
            self.samples.append((time.perf_counter() - start) * 1000)
            time.sleep(0.005)

    def stop(self):
        self.running = False
        self.thread.join(5)
        return self.samples


def send(sock, obj):
    sock.sendall((json.dumps(obj) + "\n").encode())


def pile(n, gravity=True):
    items = [{"id": f"i{i}", "center": [160, 284], "size": [40, 40]} for i in range(n)]
    ids = [f"i{i}" for i in range(n)]
    behaviors = [{"type": "collision", "items": ids, "reference_bounds": True}]
    if gravity:
        behaviors.insert(0, {"type": "gravity", "items": ids})
    return {"items": items, "behaviors": behaviors}


def zigzag(i, points=1024):
    return {"id": f"z{i}", "path": [[10 + (k % 2) * 30, 5 + k % 40] for k in range(points)]}


def case_overlapping_pile(s):
    send(s, {"op": "open", "session": "pile", "fps": 60, "scene": pile(1000)})


def case_manual_pile(s):
    send(s, {"op": "open", "session": "pile", "clock": "manual", "scene": pile(1000)})
    send(s, {"op": "step", "session": "pile", "count": 600})


def case_boundary_storm(s):
    scene = {"items": [{"id": "a", "center": [10, 10], "size": [5, 5]}],
             "behaviors": [{"type": "collision", "items": ["a"],
                            "boundaries": [zigzag(i) for i in range(30)]}]}
    send(s, {"op": "open", "session": "storm", "clock": "manual", "scene": scene})
    # What fits: 4 zigzags (4092 stacked segments, the most a session may hold), then steps.
    scene["behaviors"][0]["boundaries"] = [zigzag(i) for i in range(4)]
    send(s, {"op": "open", "session": "stack", "clock": "manual", "scene": scene})
    send(s, {"op": "step", "session": "stack", "count": 60})


def case_long_manual_step(s):
    behaviors = [{"type": "gravity", "items": ["a", "b"]}] + [
        {"type": "attachment", "item": "a", "to": "b", "length": 50} for _ in range(996)]
    scene = {"items": [{"id": "a", "center": [100, 100], "size": [10, 10]},
                       {"id": "b", "center": [150, 100], "size": [10, 10]}],
             "behaviors": behaviors}
    send(s, {"op": "open", "session": "chain", "clock": "manual", "scene": scene})
    send(s, {"op": "step", "session": "chain", "count": 36000})


def case_close_many_sessions(s):
    lines = b"".join(
        (json.dumps({"op": "open", "session": f"q{i}", "clock": "manual", "scene": {}}) + "\n")
        .encode() for i in range(5000))
    s.sendall(lines)


CASES = [
    ("1000 overlapping items, realtime 60 fps", case_overlapping_pile, 4.0, False),
    ("1000 overlapping items, manual step count 600", case_manual_pile, 4.0, False),
    ("boundary storm (30 × 1024 refused; 4 × 1024 stacked, stepped)", case_boundary_storm, 4.0,
     False),
    ("996 rigid attachments, step count 36000", case_long_manual_step, 4.0, False),
    ("5000 sessions opened, then the owner leaves", case_close_many_sessions, 3.0, True),
]


def run_case(bin_dir, name, body, seconds, close_midway):
    d = Daemon(bin_dir)
    healthy = Healthy(d)
    time.sleep(0.3)
    attacker = d.connect()
    body(attacker)
    time.sleep(seconds / 2)
    if close_midway:
        attacker.close()
    time.sleep(seconds / 2)
    samples = healthy.stop()
    alive = d.proc.poll() is None
    if not close_midway:
        attacker.close()
    d.stop()
    return {"case": name, "samples": len(samples),
            "p50": statistics.median(samples) if samples else None,
            "p99": sorted(samples)[int(len(samples) * 0.99) - 1] if samples else None,
            "worst": max(samples) if samples else None,
            "alive": alive and healthy.failed is None, "peak_rss_mib": d.peak / 1024}


def memory_case(bin_dir, connections):
    d = Daemon(bin_dir)
    owner = d.connect()
    send(owner, {"op": "open", "session": "big", "clock": "manual", "keep": True,
                 "scene": {"items": [{"id": f"i{i}", "center": [i % 300, i // 3], "size": [5, 5]}
                                     for i in range(1000)]}})
    owner.makefile("rb").readline()
    start_rss = rss_kib(d.proc.pid)
    socks = []
    request = b'{"op":"get","session":"big"}\n' * 64
    for _ in range(connections):
        s = d.connect()
        s.setblocking(False)
        for _ in range(8):
            try:
                s.send(request)
            except BlockingIOError:
                break
        socks.append(s)
    time.sleep(3)
    held = rss_kib(d.proc.pid)
    for s in socks:
        s.close()
    time.sleep(2)
    after = rss_kib(d.proc.pid)
    alive = d.proc.poll() is None
    d.stop()
    return {"connections": connections, "start_mib": start_rss / 1024, "peak_mib": d.peak / 1024,
            "held_mib": held / 1024, "after_close_mib": after / 1024, "alive": alive}


def sigterm_case(bin_dir):
    d = Daemon(bin_dir)
    s = d.connect()
    case_manual_pile(s)
    case_long_manual_step(d.connect())
    time.sleep(1.0)
    start = time.perf_counter()
    d.proc.send_signal(signal.SIGTERM)
    d.proc.wait(10)
    took = (time.perf_counter() - start) * 1000
    return {"ms": took, "status": d.proc.returncode, "socket_removed": not os.path.exists(d.path)}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("bin_dir")
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("--connections", type=int, default=1000)
    ap.add_argument("--max-rtt-ms", type=float, default=50)
    args = ap.parse_args()
    ok = True
    rows = [run_case(args.bin_dir, *c) for c in CASES]
    mem = memory_case(args.bin_dir, args.connections)
    term = sigterm_case(args.bin_dir)
    if args.markdown:
        print("| reproducer (one client) | healthy client's round trips | p50 ms | p99 ms | worst ms | dynd alive |")
        print("|---|---|---|---|---|---|")
    for r in rows:
        fmt = lambda v: "–" if v is None else f"{v:.2f}"
        if args.markdown:
            print(f"| {r['case']} | {r['samples']} | {fmt(r['p50'])} | {fmt(r['p99'])} | "
                  f"{fmt(r['worst'])} | {'yes' if r['alive'] else 'NO'} |")
        else:
            print(f"{r['case']}: {r['samples']} round trips, p50 {fmt(r['p50'])} ms, "
                  f"p99 {fmt(r['p99'])} ms, worst {fmt(r['worst'])} ms, alive {r['alive']}")
        if not r["alive"] or r["worst"] is None or r["worst"] > args.max_rtt_ms:
            ok = False
    print()
    print(f"{mem['connections']} connections queuing `get` replies of a 1000-item session, never "
          f"reading: RSS {mem['start_mib']:.1f} MiB before, peak {mem['peak_mib']:.1f} MiB, "
          f"{mem['held_mib']:.1f} MiB while held, {mem['after_close_mib']:.1f} MiB 2 s after "
          f"they closed; alive {mem['alive']}")
    print(f"SIGTERM in the middle of two heavy sessions: exit {term['status']} after "
          f"{term['ms']:.1f} ms, socket removed: {term['socket_removed']}")
    ok = ok and mem["alive"] and term["status"] == 0 and term["socket_removed"]
    print("PASS" if ok else "FAIL")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
