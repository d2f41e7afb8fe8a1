#!/usr/bin/env python3
"""Fair by cost: what a healthy client waits while a heavy but valid client runs (issue 25).

    tools/fairness_bench.py BIN_DIR [--markdown] [--only NAME,...] [--max-hello-ms 50]
                            [--max-step-ms 100] [--max-stop-ms 100] [--quick] [--list]

For each reproducer below, starts BIN_DIR/dynd on a private temporary socket, builds what the
reproducer needs, starts the healthy client (tools/fairness_probe.py, its own process: `hello`
every 5 ms on one connection, a one-frame `step` of its own 2-item manual session every 20 ms on
another), runs the heavy client from this process, stops the probe and reports its worst and
99th-percentile `hello` and `step` round trips, with each case's own figures:

  rules        1 000 items of 4×4 pt on a 40-column grid, gravity, collision `c` over all, 16
               `dynamic_item` behaviors each with 16 repeating rules of 8 `set` effects on `c`'s
               mode (256 rules × 8), opened on two connections, `step` dt 3 on each, then both
               disconnect; also: the time from the disconnect until dynd's CPU use is back to
               idle (the first 100 ms in which it used less than 5 % of a core more than it did
               idle, read from /proc/PID/task/*/schedstat every 10 ms)
  workers1     dynd --workers 1, one `step` dt 2 of 1 000 items under 8 noise fields (8 000
               field items; a session holds at most 8 192)
  motion       the worst valid spring and decay scenes: 1 000 items under one spring (ζ 0.05,
               so it runs the whole time) and, in a second session, 1 000 items under one decay
               (Flutter's drag 0.135, so none stops in 2 s); one `step` dt 2 on each at once
  document     `define` of the costliest valid document (near 1 MiB: 1 000 items placed by
               expressions of six parameters, 32 release rules (the most) of 4 effects each
               adding a spring over all of them) again and again for 3 s, then a session of it
               stepped dt 1 in 1920×1080
  attachments  opens of 2 items + 996 rigid attachments, one after another, for 3 s
  add-group    150 failing `add_group` lines in one write on a 32-behavior × 1 000-item scene (the
               most items a session's behaviors may name, 32 768);
               then 150 more and SIGINT: how long dynd takes to exit
  behaviors    300 `behaviors` requests in one write on that scene
  path-open    a refused `open` of 700 path items (regular 64-gons), two connections repeating
               it for 3 s
  nonreaders   200 connections pipeline 128 `get`s of a 1 000-item session each and never read;
               then a new client connects every 100 ms for 2 s: its connect + `hello` time
  debug        `debug` on the 32 × 1 000 scene with 250-byte ids: the requester's answer
               (reply, error or none), dynd's RSS growth
  contacts     `step` dt 1 on 1 000 items stacked on one spot in one collision behavior, the
               requester reading as fast as it can: does it get its reply? (--quick: 200 items
               with 200-byte ids, as much output in a fifth of the time)
  pipelined    3 000 `hello`s in one write from a client that reads as fast as it can, then
               3 000 `get`s of a 1 000-item session the same way: how many replies come
               (--quick: 300 `get`s)
  memory       32-behavior × 1 000-item scenes opened on one connection until one is
               refused (at most 40 s): how many were admitted, their RSS each, dynd's peak RSS.
               A budget of gigabytes cannot be reached in a bench's time: when dynd has
               `--memory-budget`, the case gives it 256 MiB and checks that a scene is refused
               for memory before the RSS passes twice that; without the option it fails

issue 39's, whose cost was one internal Box2D step without a bound:

  group-storm      a group of 100 stacked 64-gons (1 100 pieces, one body) and 50 hubs held
                   away by a spring: 40 cheap one-frame steps, the spring retargeted onto the
                   pile, then 60 one-frame steps, each timed
  crossing-groups  two sessions of two overlapping groups of 10 64-gons in one collision,
                   stepped one frame at a time for 6 s; a fresh client's first one-frame step
  storm-leave      the group storm's owner disconnects mid-storm: when dynd's work stops
  gon-memory       kept sessions of 372 stacked 64-gons (4 092 pieces, collision mode
                   boundaries), each stepped once, under --memory-budget 128 until one is
                   refused: peak RSS must stay under 2 × 128 + 64 MiB
  storm-sigterm    SIGTERM in the middle of the group storm

and those of the earlier issue "no client can crash, freeze or starve dynd" (a client that sends
and never reads): pile-realtime, pile-step, boundary-storm, chain-step, many-sessions (--list
describes them), held-output (1 000 connections that pipeline `get`s and never read: dynd's RSS
before, while they are held and 2 s after they close) and sigterm (SIGTERM in the middle of two
heavy steps: exit 0, socket removed, how long it took).

A case fails when the probe's worst `hello` or `step` passes --max-hello-ms / --max-step-ms,
when the probe saw a protocol fault, when dynd died, or on the case's own check (named in its
row). Every loop is bounded in count and time, and each case in time (its `timeout`): a stalled
dynd is killed and the case reported as failed, with the probe's waits so far as lower bounds
(`≥`). Exit status: 0 when every case passed, 1 otherwise, 2 when the run could not start.
"""

import argparse
import collections
import glob
import json
import math
import os
import select
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

PROBE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fairness_probe.py")
QUIET_WINDOW = 0.1      # s: "work stops" = a window this long ...
QUIET_SHARE = 0.05      # ... in which dynd used less than this share of a core above idle
MAX_STOP_MS = 100       # rules: the work must stop this soon after its owner left
MAX_SIGINT_MS = 250     # add-group, sigterm: a signal must end dynd this soon, mid-work
MAX_DEBUG_RSS_MIB = 128  # debug: what one reply may add to dynd's RSS
MEMORY_SECONDS = 40     # memory: 32 × 1 000 scenes opened for at most so long
MEMORY_BUDGET_MIB = 256  # memory: the budget the case gives dynd (--memory-budget), if it can
QUICK_TIMEOUT = 10      # --quick: at most this long for any case's heavy part
BIG_BEHAVIORS = 32      # the big scene's behaviors, 1 000 items each: the most items a session's
#                         behaviors may name (32 768, PROTOCOL.md section 12)
QUICK_PILE = (200, 200)  # --quick: the contact storm's items and their id length (the same
#                          output as 1 000 short ids, > 8 MiB in one batch today, in a fifth of
#                          the time: 2 s in a debug build)
QUICK_GETS = 300        # --quick: pipelined gets of the 1 000-item session (27 MB of replies; a
#                          debug build takes about 7 ms to write one: 3 000 would take 20 s)


# ---------------------------------------------------------------------------------------------
# dynd, its CPU and memory


def status_kib(pid, key):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(key + ":"):
                return int(line.split()[1])
    return 0


def cpu_seconds(pid):
    """CPU time of every thread of pid, in seconds (nanosecond counters: schedstat)."""
    total = 0
    for path in glob.glob(f"/proc/{pid}/task/*/schedstat"):
        try:
            with open(path) as f:
                total += int(f.read().split()[0])
        except (OSError, ValueError, IndexError):
            pass
    return total / 1e9


class Daemon:
    def __init__(self, bin_dir, extra=()):
        self.dir = tempfile.mkdtemp(prefix="dynd-fair.")
        os.chmod(self.dir, 0o700)
        self.path = os.path.join(self.dir, "d.sock")
        self.log = open(os.path.join(self.dir, "dynd.log"), "wb")
        self.proc = subprocess.Popen(
            [os.path.join(bin_dir, "dynd"), "--socket", self.path, "--log-level", "warning",
             *extra], stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 15
        while True:
            try:
                s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                s.connect(self.path)
                s.close()
                break
            except OSError:
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"dynd did not start: {self.log_tail()}")
                time.sleep(0.02)

    @property
    def pid(self):
        return self.proc.pid

    def alive(self):
        return self.proc.poll() is None

    def peak_rss_mib(self):
        try:
            return status_kib(self.pid, "VmHWM") / 1024
        except OSError:
            return None

    def rss_mib(self):
        try:
            return status_kib(self.pid, "VmRSS") / 1024
        except OSError:
            return None

    def log_tail(self, n=600):
        try:
            with open(os.path.join(self.dir, "dynd.log"), errors="replace") as f:
                return f.read()[-n:]
        except OSError:
            return ""

    def stop(self):
        if self.alive():
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.log.close()
        shutil.rmtree(self.dir, ignore_errors=True)


# ---------------------------------------------------------------------------------------------
# The healthy client


class Probe:
    def __init__(self, socket_path, max_seconds):
        self.proc = subprocess.Popen(
            [sys.executable, PROBE, socket_path, "--max-seconds", str(max_seconds)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.result = None
        self.lock = threading.Lock()
        line = self._line(15)
        if line != b"ready":
            self.proc.kill()
            raise RuntimeError(f"the probe did not start: {line!r}")

    def _line(self, timeout):
        out = self.proc.stdout
        ready, _, _ = select.select([out], [], [], timeout)
        return out.readline().strip() if ready else None

    def stop(self):
        with self.lock:
            if self.result is None:
                try:
                    self.proc.stdin.write(b"stop\n")
                    self.proc.stdin.flush()
                except OSError:
                    pass
                line = self._line(10)
                try:
                    self.result = json.loads(line) if line else None
                except ValueError:
                    self.result = None
                if self.result is None:
                    self.result = {"problem": "the probe did not report"}
                self.proc.kill()
                self.proc.wait()
            return self.result


# ---------------------------------------------------------------------------------------------
# The heavy client's means


def line(obj):
    return json.dumps(obj, separators=(",", ":")).encode() + b"\n"


class Client:
    """A blocking connection with deadlines; counts what it reads."""

    def __init__(self, path):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(path)
        self.buf = bytearray()
        self.bytes_read = 0
        self.events = collections.Counter()

    def send(self, obj):
        self.sock.sendall(line(obj))

    def reply(self, timeout):
        """The next reply (events before it are counted); None at EOF or when time is up."""
        deadline = time.monotonic() + timeout
        while True:
            k = self.buf.find(b"\n")
            if k >= 0:
                raw = bytes(self.buf[:k])
                del self.buf[:k + 1]
                if raw.startswith(b'{"ev"'):
                    self.events[json.loads(raw)["ev"]] += 1
                    continue
                return json.loads(raw)
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            self.sock.settimeout(left)
            try:
                chunk = self.sock.recv(1 << 20)
            except (socket.timeout, OSError):
                return None
            if not chunk:
                return None
            self.bytes_read += len(chunk)
            self.buf += chunk

    def request(self, obj, timeout=30):
        self.send(obj)
        return self.reply(timeout)

    def pump(self, data, replies, timeout):
        """Writes data while reading as fast as possible, until `replies` reply lines came, EOF,
        or the time is up. Returns (reply lines read, seconds, why it ended)."""
        sock = self.sock
        sock.setblocking(False)
        view = memoryview(data)
        got = 0
        tail = b"\n"  # as if a line had just ended: the first reply counts too
        start = time.monotonic()
        deadline = start + timeout
        why = "complete"
        try:
            while got < replies:
                left = deadline - time.monotonic()
                if left <= 0:
                    why = "timeout"
                    break
                r, w, _ = select.select([sock], [sock] if view else [], [], left)
                if w:
                    try:
                        n = sock.send(view[:1 << 20])
                        view = view[n:]
                    except BlockingIOError:
                        pass
                    except OSError as e:
                        why = f"send failed: {e.strerror}"
                        break
                if r:
                    try:
                        chunk = sock.recv(1 << 22)
                    except BlockingIOError:
                        continue
                    except OSError as e:
                        why = f"closed by dynd ({e.strerror})"
                        break
                    if not chunk:
                        why = "closed by dynd (EOF)"
                        break
                    self.bytes_read += len(chunk)
                    # Replies start with {"ok"; events ({"ev") are not counted.
                    got += (tail + chunk).count(b'\n{"ok"')
                    tail = chunk[-5:]
        finally:
            sock.setblocking(True)
        return got, time.monotonic() - start, why

    def close(self):
        self.sock.close()


def gon(item, x, y, r=20):
    """A path item: a regular 64-gon of radius r (11 convex pieces, the most a path makes)."""
    path = [[round(r * math.cos(k * math.tau / 64), 3), round(r * math.sin(k * math.tau / 64), 3)]
            for k in range(64)]
    return {"id": item, "center": [x, y], "size": [2 * r, 2 * r], "shape": "path", "path": path}


def manual_open(session, items, behaviors=(), bounds=None):
    scene = {"items": items, "behaviors": list(behaviors)}
    if bounds:
        scene["bounds"] = bounds
    return {"op": "open", "session": session, "clock": "manual", "scene": scene}


def grid_items(n, side=5, cols=40, pitch=8, ids=None):
    return [{"id": ids[k] if ids else f"i{k}",
             "center": [10 + (k % cols) * pitch, 10 + (k // cols) * pitch], "size": [side, side]}
            for k in range(n)]


def item_id(k, length):
    """An item id of exactly `length` bytes (at least the decimal digits of k and one letter)."""
    tail = str(k)
    return "i" + "x" * max(0, length - 1 - len(tail)) + tail


def open_big_scene(client, session, behaviors=BIG_BEHAVIORS, items=1000, id_len=0, timeout=120):
    """A manual scene of `items` items and `behaviors` gravity behaviors each naming all of them
    (opened with the items, then the behaviors pipelined as add_behavior lines, which keeps every
    line under the 1 MiB line limit). Returns None, or the refusal that stopped it."""
    ids = [item_id(k, id_len) if id_len else f"i{k}" for k in range(items)]
    reply = client.request(manual_open(session, grid_items(items, ids=ids)), timeout)
    if not reply or not reply.get("ok"):
        return reply or {"error": {"code": "no reply", "message": "open"}}
    ids_json = json.dumps(ids, separators=(",", ":")).encode()
    head = b'{"op":"add_behavior","session":' + json.dumps(session).encode()
    data = b"".join(head + b',"behavior":{"type":"gravity","id":"b%d","items":' % k + ids_json
                    + b"}}\n" for k in range(behaviors))
    refusal = None
    sent = threading.Thread(target=client.sock.sendall, args=(data,), daemon=True)
    sent.start()
    for _ in range(behaviors):
        reply = client.reply(timeout)
        if not reply:
            return {"error": {"code": "no reply", "message": "add_behavior"}}
        if not reply.get("ok") and refusal is None:
            refusal = reply
    sent.join(timeout)
    return refusal


# ---------------------------------------------------------------------------------------------
# The cases. Each has `setup(run)` (before the probe starts; may return a state) and
# `heavy(run, state)` (while the probe runs), which returns its extras: figures for the table
# (`shown`), and failures (`fails`).


class Case:
    daemon_args = ()
    ends_daemon = False  # the case stops dynd itself (a signal)
    timeout = 30  # s, for heavy()
    setup_timeout = 120

    def daemon_arguments(self, args):
        return self.daemon_args

    def setup(self, run):
        return None


class Rules(Case):
    name = "rules"
    title = "256 action rules × 8 `set`, two sessions, `step` dt 3, then disconnect"
    timeout = 45

    @staticmethod
    def scene():
        items = grid_items(1000, side=4)
        ids = [i["id"] for i in items]
        modes = ["everything", "items"]
        rule = {"when": {"always": True}, "repeat": True,
                "then": [{"set": {"behavior": "c", "mode": modes[e % 2]}} for e in range(8)]}
        behaviors = [{"type": "gravity", "id": "g", "items": ids},
                     {"type": "collision", "id": "c", "items": ids, "reference_bounds": True}]
        behaviors += [{"type": "dynamic_item", "id": f"d{k}", "items": ids,
                       "action": [rule] * 16} for k in range(16)]
        return items, behaviors

    def setup(self, run):
        items, behaviors = self.scene()
        clients = []
        for k in range(2):
            c = Client(run.daemon.path)
            reply = c.request(manual_open(f"rules{k}", items, behaviors), 60)
            if not reply or not reply.get("ok"):
                raise RuntimeError(f"the rules scene was refused: {reply}")
            clients.append(c)
        return clients

    def heavy(self, run, clients):
        for k, c in enumerate(clients):
            c.send({"op": "step", "id": 1, "session": f"rules{k}", "dt": 3})
        time.sleep(0.5)
        for c in clients:
            c.close()
        shown, fails = run.work_stops(time.monotonic())
        c = Client(run.daemon.path)
        listed = c.request({"op": "list"}, 2)
        c.close()
        if listed and listed.get("ok"):
            left = [x["session"] for x in listed["sessions"] if x["session"].startswith("rules")]
            shown["their sessions still open then"] = len(left)
        return shown, fails


class Workers1(Case):
    name = "workers1"
    title = "`--workers 1`, one `step` dt 2 of 1 000 items under 8 noise fields"
    daemon_args = ("--workers", "1")

    def setup(self, run):
        items = grid_items(1000, cols=300, pitch=1)
        ids = [i["id"] for i in items]
        fields = [{"type": "field", "kind": "noise", "items": ids, "strength": 1,
                   "smoothness": 0.5, "animation_speed": 2,
                   "region": {"union": [{"radius": 200}, {"inverse": {"size": [10, 10]}}]}}
                  for _ in range(8)]
        c = Client(run.daemon.path)
        reply = c.request(manual_open("fields", items, fields), 60)
        if not reply or not reply.get("ok"):
            raise RuntimeError(f"the field scene was refused: {reply}")
        return c

    def heavy(self, run, c):
        start = time.monotonic()
        reply = c.request({"op": "step", "id": 1, "session": "fields", "dt": 2},
                          run.time_left() - 2)
        took = time.monotonic() - start
        if not reply:
            return {"heavy step": f"no reply in {took:.1f} s"}, ["the heavy step got no reply"]
        return {"heavy step": f"{took * 1000:.0f} ms"}, []


class Motion(Case):
    name = "motion"
    title = "1 000 items under one spring, 1 000 under one decay, `step` dt 2 on each"

    @staticmethod
    def scenes():
        items = grid_items(1000)
        ids = [i["id"] for i in items]
        spring = {"type": "spring", "id": "s", "items": ids, "target": [160, 284],
                  "stiffness": 40, "damping_ratio": 0.05, "initial_velocity": [900, -1400]}
        decay = {"type": "decay", "id": "d", "items": ids, "drag": 0.135,
                 "initial_velocity": [700, -600]}
        return manual_open("spring", items, [spring]), manual_open("decay", items, [decay])

    def setup(self, run):
        clients = []
        for scene in self.scenes():
            c = Client(run.daemon.path)
            reply = c.request(scene, 60)
            if not reply or not reply.get("ok"):
                raise RuntimeError(f"the {scene['session']} scene was refused: {reply}")
            clients.append(c)
        return clients

    def heavy(self, run, clients):
        start = time.monotonic()
        for c, session in zip(clients, ("spring", "decay")):
            c.send({"op": "step", "id": 1, "session": session, "dt": 2})
        shown, fails = {}, []
        for c, session in zip(clients, ("spring", "decay")):
            reply = c.reply(max(1, run.time_left() - 2))
            took = time.monotonic() - start
            if not reply or not reply.get("ok"):
                shown[f"{session} step"] = f"no reply in {took:.1f} s"
                fails.append(f"the {session} step got no reply: {reply}")
            else:
                shown[f"{session} step"] = f"{took * 1000:.0f} ms"
        return shown, fails


class Document(Case):
    name = "document"
    title = "`define` of the costliest valid document, again and again for 3 s, then its session stepped"
    seconds = 3

    @staticmethod
    def document(name):
        """Near 1 MiB: 1 000 items placed by expressions of six parameters, gravity and walls
        over all, and the most release rules, whose effects add springs over all of them."""
        params = [{"name": f"p{k}", "default": 5, "min": 1, "max": 10} for k in range(6)]
        items = [{"id": f"i{k}", "center": [f"=min_x + 10 + {k % 40} * 8 * p0 / 10",
                                            f"=min_y + 10 + {k // 40} * 8 * p1 / 10"],
                  "size": ["=p2 / 2 + 1", "=p3 / 2 + 1"]} for k in range(1000)]
        ids = [i["id"] for i in items]
        spring = {"add_behavior": {"type": "spring", "id": "s", "items": ids,
                                   "target": ["=release.x", "=release.y"],
                                   "response": "=p4 / 10", "damping_ratio": "=p5 / 5"}}
        document = {"transition": name, "parameters": params,
                    "scene": {"items": items, "behaviors": [
                        {"type": "gravity", "id": "g", "items": ids},
                        {"type": "collision", "id": "c", "items": ids, "reference_bounds": True}]},
                    "release": [{"when": f"release.vx > {k}", "then": [spring] * 4}
                                for k in range(32)],
                    "done": [{"at_rest": True, "outcome": "rested"}]}
        return document

    def heavy(self, run, _):
        c = Client(run.daemon.path)
        times, n = [], 0
        end = time.monotonic() + self.seconds
        while time.monotonic() < end and run.time_left() > 5:
            n += 1
            start = time.monotonic()
            reply = c.request({"op": "define", "id": n, "document": self.document(f"doc{n}")},
                              run.time_left() - 3)
            if not reply or not reply.get("ok"):
                return {"defines": n - 1}, [f"define {n} failed: {reply}"]
            times.append(time.monotonic() - start)
        reply = c.request({"op": "open", "session": "d", "transition": "doc1", "clock": "manual",
                           "bounds": [1920, 1080]}, run.time_left() - 3)
        if not reply or not reply.get("ok"):
            return {"defines": n}, [f"the document's open failed: {reply}"]
        start = time.monotonic()
        reply = c.request({"op": "step", "session": "d", "dt": 1}, run.time_left() - 2)
        stepped = time.monotonic() - start
        if not reply or not reply.get("ok"):
            return {"defines": n}, [f"the document's step got no reply: {reply}"]
        return {"defines": n, "define, slowest": f"{max(times) * 1000:.0f} ms",
                "step dt 1": f"{stepped * 1000:.0f} ms"}, []


class Attachments(Case):
    name = "attachments"
    title = "opens of 2 items + 996 rigid attachments, for 3 s"
    seconds = 3

    def heavy(self, run, _):
        behaviors = [{"type": "gravity", "items": ["a", "b"]}] + [
            {"type": "attachment", "item": "a", "to": "b", "length": 50} for _ in range(996)]
        items = [{"id": "a", "center": [100, 100], "size": [10, 10]},
                 {"id": "b", "center": [150, 100], "size": [10, 10]}]
        c = Client(run.daemon.path)
        times = []
        end = time.monotonic() + self.seconds
        n = 0
        while time.monotonic() < end and run.time_left() > 3:
            n += 1
            start = time.monotonic()
            reply = c.request(manual_open(f"chain{n}", items, behaviors), run.time_left() - 2)
            if not reply or not reply.get("ok"):
                return {"opens": n - 1}, [f"open {n} failed: {reply}"]
            times.append(time.monotonic() - start)
            c.request({"op": "close", "session": f"chain{n}"}, 10)
        times.sort()
        return {"opens": len(times), "open p50": f"{times[len(times) // 2] * 1000:.1f} ms",
                "open worst": f"{times[-1] * 1000:.1f} ms"}, []


class BigScene(Case):
    """The 32-behavior × 1 000-item scene of the add_group and behaviors reproducers."""
    id_len = 0

    def setup(self, run):
        c = Client(run.daemon.path)
        start = time.monotonic()
        refusal = open_big_scene(c, "big", id_len=self.id_len,
                                 timeout=self.setup_timeout)
        if refusal:
            raise RuntimeError(f"the {BIG_BEHAVIORS} × 1000 scene was refused: {refusal}")
        run.note(f"{BIG_BEHAVIORS} behaviors × 1000 items built in "
                 f"{time.monotonic() - start:.1f} s")
        return c


class AddGroup(BigScene):
    name = "add-group"
    title = "150 failing `add_group` in one write, 32 behaviors × 1 000 items; then SIGINT"
    timeout = 40
    ends_daemon = True

    def heavy(self, run, c):
        def burst(base):
            return b"".join(line({"op": "add_group", "id": base + k, "session": "big",
                                  "group": {"id": f"g{k}", "items": [f"i{k}"]}})
                            for k in range(150))
        got, took, why = c.pump(burst(0), 150, run.time_left() - 8)
        shown = {"150 replies": f"{took * 1000:.0f} ms" if got == 150 else f"{got} ({why})"}
        fails = [] if got == 150 else [f"{got} of 150 replies ({why})"]
        run.stop_probe()
        # The same burst again, and SIGINT 20 ms into it.
        try:
            c.sock.sendall(burst(1000))
        except OSError:
            pass
        time.sleep(0.02)
        start = time.monotonic()
        run.daemon.proc.send_signal(signal.SIGINT)
        try:
            run.daemon.proc.wait(max(1.0, run.time_left() - 2))
            took = time.monotonic() - start
            shown["SIGINT → exit"] = f"{took * 1000:.0f} ms"
            if took * 1000 > MAX_SIGINT_MS:
                fails.append(f"SIGINT took {took * 1000:.0f} ms (target {MAX_SIGINT_MS} ms)")
        except subprocess.TimeoutExpired:
            shown["SIGINT → exit"] = f"≥ {time.monotonic() - start:.1f} s"
            fails.append("dynd did not exit after SIGINT")
        return shown, fails


class Behaviors(BigScene):
    name = "behaviors"
    title = "300 `behaviors` in one write, 32 behaviors × 1 000 items"

    def heavy(self, run, c):
        data = b"".join(line({"op": "behaviors", "id": k, "session": "big"}) for k in range(300))
        got, took, why = c.pump(data, 300, run.time_left() - 2)
        if got != 300:
            return {"300 replies": f"{got} ({why})"}, [f"{got} of 300 replies ({why})"]
        return {"300 replies": f"{took * 1000:.0f} ms"}, []


class PathOpen(Case):
    name = "path-open"
    title = "refused `open` of 700 path items (64-gons), two connections repeating it, 3 s"
    seconds = 3

    @staticmethod
    def scene_line(session):
        items = [gon(f"p{k}", 25 + (k % 30) * 42, 25 + (k // 30) * 42) for k in range(700)]
        behaviors = [{"type": "collision", "items": [i["id"] for i in items]}]
        return line(manual_open(session, items, behaviors, bounds=[1300, 1000]))

    def heavy(self, run, _):
        results = [[] for _ in range(2)]
        end = time.monotonic() + self.seconds

        def repeat(k):
            c = Client(run.daemon.path)
            data = self.scene_line(f"paths{k}")
            while time.monotonic() < end:
                start = time.monotonic()
                c.sock.sendall(data)
                reply = c.reply(max(1, run.time_left() - 3))
                if reply is None:
                    results[k].append((None, time.monotonic() - start))
                    return
                code = "ok" if reply.get("ok") else reply["error"]["code"]
                results[k].append((code, time.monotonic() - start))
                if code == "ok":
                    c.request({"op": "close", "session": f"paths{k}"}, 10)
            c.close()

        threads = [threading.Thread(target=repeat, args=(k,), daemon=True) for k in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(max(1, run.time_left() - 2))
        all_results = [r for rs in results for r in rs]
        codes = collections.Counter(code for code, _ in all_results)
        times = sorted(t for _, t in all_results)
        shown = {"opens": ", ".join(f"{n} {c}" for c, n in codes.items()),
                 "refusal p50": f"{times[len(times) // 2] * 1000:.1f} ms" if times else "–"}
        fails = []
        if codes.get("ok"):
            fails.append("the 700-path open was accepted (the reproducer expects a refusal)")
        if None in codes:
            fails.append("an open got no reply")
        return shown, fails


class NonReaders(Case):
    name = "nonreaders"
    title = "200 connections pipeline `get` of 1 000 items, never read; new clients' `hello`"
    timeout = 40

    def setup(self, run):
        c = Client(run.daemon.path)
        reply = c.request(manual_open("big", grid_items(1000)), 30)
        if not reply or not reply.get("ok"):
            raise RuntimeError(f"the 1000-item scene was refused: {reply}")
        return c

    def heavy(self, run, owner):
        request = line({"op": "get", "session": "big"}) * 128
        socks = []
        for _ in range(200):
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            s.connect(run.daemon.path)
            s.setblocking(False)
            try:
                s.send(request)
            except (BlockingIOError, OSError):
                pass
            socks.append(s)
        waits = []
        closed = 0
        for _ in range(20):
            if run.time_left() < 4:
                break
            start = time.monotonic()
            try:
                c = Client(run.daemon.path)
                reply = c.request({"op": "hello"}, run.time_left() - 3)
                c.close()
            except OSError:
                reply = None
            waits.append(time.monotonic() - start if reply else None)
            time.sleep(0.1)
        for s in socks:
            try:
                if s.recv(1, socket.MSG_PEEK) == b"":
                    closed += 1
            except (BlockingIOError, InterruptedError):
                pass
            except OSError:
                closed += 1
            s.close()
        answered = [w for w in waits if w is not None]
        worst = f"{max(answered) * 1000:.1f} ms" if answered else "–"
        if os.environ.get("FAIRNESS_DEBUG"):
            print("new clients' hello ms:", [round(w * 1000, 1) if w else None for w in waits])
        shown = {"new client's hello worst": worst,
                 "unanswered": waits.count(None), "non-readers closed by dynd": closed}
        fails = []
        if waits.count(None):
            fails.append(f"{waits.count(None)} new clients got no hello reply")
        if answered and max(answered) * 1000 > run.args.max_hello_ms:
            fails.append(f"a new client's hello took {max(answered) * 1000:.0f} ms")
        return shown, fails


class Debug(BigScene):
    name = "debug"
    title = "`debug` on 32 behaviors × 1 000 items with 250-byte ids"
    id_len = 250
    setup_timeout = 240

    def heavy(self, run, owner):
        before = run.daemon.peak_rss_mib()
        c = Client(run.daemon.path)
        start = time.monotonic()
        reply = c.request({"op": "debug", "id": 1, "session": "big"}, run.time_left() - 2)
        took = time.monotonic() - start
        peak = run.daemon.peak_rss_mib()
        grew = (peak - before) if peak is not None and before is not None else None
        if reply is None:
            answer = f"none ({c.bytes_read} bytes read)"
        elif reply.get("ok"):
            answer = f"ok, {c.bytes_read / 1e6:.1f} MB"
        else:
            answer = reply["error"]["code"]
        shown = {"answer": f"{answer} in {took * 1000:.0f} ms",
                 "RSS peak": f"{peak:.0f} MiB (+{grew:.0f})" if grew is not None else "–"}
        fails = []
        if reply is None:
            fails.append("the requester got no answer")
        if grew is not None and grew > MAX_DEBUG_RSS_MIB:
            fails.append(f"one debug reply added {grew:.0f} MiB (at most {MAX_DEBUG_RSS_MIB})")
        return shown, fails


class Contacts(Case):
    name = "contacts"
    title = "`step` dt 1 of 1 000 items stacked in one collision behavior, requester reading"
    timeout = 60  # the step itself takes 7-27 s of a worker in a release build on a busy machine

    def setup(self, run):
        n, id_len = QUICK_PILE if run.args.quick else (1000, 0)
        items = [{"id": item_id(k, id_len) if id_len else f"i{k}", "center": [160, 284],
                  "size": [40, 40]} for k in range(n)]
        ids = [i["id"] for i in items]
        behaviors = [{"type": "gravity", "items": ids},
                     {"type": "collision", "items": ids, "reference_bounds": True}]
        c = Client(run.daemon.path)
        reply = c.request(manual_open("pile", items, behaviors), 60)
        if not reply or not reply.get("ok"):
            raise RuntimeError(f"the pile was refused: {reply}")
        return c

    def heavy(self, run, c):
        start = time.monotonic()
        got, took, why = c.pump(line({"op": "step", "id": 1, "session": "pile", "dt": 1}), 1,
                                run.time_left() - 2)
        shown = {"reply": "yes" if got else f"no ({why})",
                 "read": f"{c.bytes_read / 1e6:.1f} MB in {took * 1000:.0f} ms"}
        return shown, [] if got else [f"the reading requester got no reply ({why})"]


class Pipelined(Case):
    name = "pipelined"
    title = "3 000 pipelined `hello`, then 3 000 `get` of 1 000 items, reader reading"

    def setup(self, run):
        c = Client(run.daemon.path)
        reply = c.request(manual_open("big", grid_items(1000)), 30)
        if not reply or not reply.get("ok"):
            raise RuntimeError(f"the 1000-item scene was refused: {reply}")
        return c

    def heavy(self, run, owner):
        shown, fails = {}, []
        gets = QUICK_GETS if run.args.quick else 3000
        for op, fields, n in (("hello", {}, 3000), ("get", {"session": "big"}, gets)):
            c = Client(run.daemon.path)
            data = b"".join(line({"op": op, "id": k, **fields}) for k in range(n))
            got, took, why = c.pump(data, n, max(1, run.time_left() / 2 - 1))
            shown[f"{op} replies"] = (f"{n} in {took * 1000:.0f} ms" if got == n else
                                      f"{got} of {n} ({why})")
            if got != n:
                fails.append(f"{got} of {n} {op} replies ({why})")
            c.close()
        return shown, fails


def memory_budget_option(bin_dir):
    """`--memory-budget VALUE` for MEMORY_BUDGET_MIB if dynd has the option (in MiB or bytes,
    whichever its help names), else ()."""
    try:
        help_text = subprocess.run([os.path.join(bin_dir, "dynd"), "--help"], capture_output=True,
                                   text=True, timeout=10).stdout
    except (OSError, subprocess.TimeoutExpired):
        return ()
    lines = [ln for ln in help_text.splitlines() if "--memory-budget" in ln]
    if not lines:
        return ()
    in_mib = "MiB" in help_text.rsplit("--memory-budget", 1)[1][:300]  # its description
    return ("--memory-budget", str(MEMORY_BUDGET_MIB if in_mib else MEMORY_BUDGET_MIB << 20))


class Memory(Case):
    name = "memory"
    title = (f"32-behavior × 1 000-item scenes opened until refused (at most "
             f"{MEMORY_SECONDS} s)")
    timeout = MEMORY_SECONDS + 30

    def daemon_arguments(self, args):
        return memory_budget_option(args.bin_dir)

    def heavy(self, run, _):
        budget = memory_budget_option(run.args.bin_dir)
        c = Client(run.daemon.path)
        start_rss = run.daemon.rss_mib()
        admitted = 0
        refusal = None
        end = time.monotonic() + MEMORY_SECONDS
        while time.monotonic() < end and run.time_left() > 20:
            refusal = open_big_scene(c, f"big{admitted}", timeout=30)
            if refusal:
                break
            admitted += 1
        rss = run.daemon.rss_mib()
        each = (rss - start_rss) / admitted if admitted else None
        peak = run.daemon.peak_rss_mib()
        error = (refusal or {}).get("error", {})
        by_memory = "memory" in error.get("message", "")
        shown = {"budget": f"{MEMORY_BUDGET_MIB} MiB (--memory-budget)" if budget else "default",
                 "admitted": admitted, "RSS each": f"{each:.1f} MiB" if each else "–",
                 "peak RSS": f"{peak:.0f} MiB" if peak else "–",
                 "refused": (f"{error.get('code')} ({'memory' if by_memory else 'other'})"
                             if refusal else f"none in {MEMORY_SECONDS} s")}
        fails = []
        if not budget:
            fails.append("dynd has no --memory-budget: its budget cannot be reached in the time "
                         + (f"(today's limits, 1 000 000 shapes in all, admit 1 000 of these "
                            f"scenes: ≈ {each * 1000 / 1024:.1f} GiB)" if each else ""))
        elif not by_memory:
            fails.append(f"{admitted} scenes admitted and none refused for memory")
        elif peak is not None and peak > start_rss + 2 * MEMORY_BUDGET_MIB:
            fails.append(f"peak RSS {peak:.0f} MiB with a {MEMORY_BUDGET_MIB} MiB budget")
        return shown, fails


# Issue 39's reproducers: one internal Box2D step whose cost had no bound.


class GroupStorm(Case):
    """A group of 100 stacked 64-gons (1 100 pieces, one body) and 50 hubs held away from it by
    a spring: 40 one-frame steps (cheap: nothing moves, so dynd once ran them on its loop), then
    the spring is retargeted onto the pile and one-frame steps are timed."""
    name = "group-storm"
    title = "40 cheap one-frame steps, then 50 hubs sprung into a group of 100 stacked 64-gons"
    timeout = 60
    steps = 60

    @staticmethod
    def scene():
        pile = [gon(f"p{k}", 160, 284) for k in range(100)]
        hubs = [{"id": f"h{k}", "center": [60 + 4 * k, 40], "size": [10, 10]} for k in range(50)]
        hub_ids = [h["id"] for h in hubs]
        return {"items": pile + hubs,
                "groups": [{"id": "pile", "items": [p["id"] for p in pile]}],
                # The hubs first: their shapes are made first, so a pair names the pile's body
                # second, the body whose contact list Box2D's AddPair walked.
                "behaviors": [{"type": "collision", "items": hub_ids + ["pile"]},
                              {"type": "spring", "id": "s", "items": hub_ids, "target": [160, 40],
                               "response": 0.3, "damping_ratio": 1}]}

    def setup(self, run):
        c = Client(run.daemon.path)
        reply = c.request({"op": "open", "session": "storm", "clock": "manual",
                           "scene": self.scene()}, 60)
        if not reply or not reply.get("ok"):
            raise RuntimeError(f"the group storm scene was refused: {reply}")
        return c

    one_frame = {"op": "step", "session": "storm", "dt": 1 / 120}

    def retarget(self, c):
        """40 cheap one-frame steps, then the spring retargeted onto the pile: the storm begins
        with the next step."""
        for _ in range(40):
            c.request(self.one_frame, 10)
        c.request({"op": "set_behavior", "session": "storm", "behavior": "s",
                   "target": [160, 284]}, 10)

    def heavy(self, run, c):
        self.retarget(c)
        times = []
        while len(times) < self.steps and run.time_left() > 5:
            start = time.monotonic()
            if not c.request(self.one_frame, run.time_left() - 3):
                break
            times.append(time.monotonic() - start)
        shown = {"storm steps answered": f"{len(times)} of {self.steps}",
                 "worst storm step": f"{max(times) * 1000:.1f} ms" if times else "–"}
        return shown, [] if len(times) == self.steps else ["the storm's steps went unanswered"]


class CrossingGroups(Case):
    """Two sessions, each two overlapping groups of 10 64-gons in one collision behavior
    (440 pieces), stepped one frame at a time; a fresh client's first one-frame step."""
    name = "crossing-groups"
    title = "2 sessions of 2 overlapping groups of 10 64-gons, one-frame steps; a fresh client"
    timeout = 40
    seconds = 6

    @staticmethod
    def scene():
        items, groups = [], []
        for g in range(2):
            ids = [f"g{g}i{k}" for k in range(10)]
            items += [gon(i, 150 + 20 * g, 200 + 2 * k) for k, i in enumerate(ids)]
            groups.append({"id": f"g{g}", "items": ids})
        return {"items": items, "groups": groups,
                "behaviors": [{"type": "gravity", "items": ["g0", "g1"]},
                              {"type": "collision", "items": ["g0", "g1"],
                               "reference_bounds": True}]}

    def setup(self, run):
        clients = []
        for k in range(2):
            c = Client(run.daemon.path)
            reply = c.request({"op": "open", "session": f"cross{k}", "clock": "manual",
                               "scene": self.scene()}, 60)
            if not reply or not reply.get("ok"):
                raise RuntimeError(f"the crossing groups were refused: {reply}")
            clients.append(c)
        return clients

    def heavy(self, run, clients):
        end = time.monotonic() + self.seconds
        worst = [0.0, 0.0]
        answered = [0, 0]

        def storm(k):
            one = {"op": "step", "session": f"cross{k}", "dt": 1 / 120}
            while time.monotonic() < end:
                start = time.monotonic()
                if not clients[k].request(one, max(1, run.time_left() - 3)):
                    return
                worst[k] = max(worst[k], time.monotonic() - start)
                answered[k] += 1

        threads = [threading.Thread(target=storm, args=(k,), daemon=True) for k in range(2)]
        for t in threads:
            t.start()
        time.sleep(1)
        fresh = Client(run.daemon.path)
        start = time.monotonic()
        fresh.request(manual_open("fresh", [{"id": "a", "center": [10, 10], "size": [5, 5]}],
                                  [{"type": "gravity", "items": ["a"]}]), 10)
        opened = time.monotonic()
        first = fresh.request({"op": "step", "session": "fresh", "dt": 1 / 60}, 10)
        took = time.monotonic() - opened
        fresh.close()
        for t in threads:
            t.join(max(1, run.time_left() - 2))
        shown = {"storm steps": f"{answered[0]} + {answered[1]}",
                 "worst storm step": f"{max(worst) * 1000:.1f} ms",
                 "fresh client's first step": f"{took * 1000:.1f} ms" if first else "no reply",
                 "its open": f"{(opened - start) * 1000:.1f} ms"}
        fails = []
        if not first or took * 1000 > run.args.max_step_ms:
            fails.append(f"a fresh client's first step took {took * 1000:.0f} ms "
                         f"(target {run.args.max_step_ms:g} ms)")
        return shown, fails


class StormLeave(GroupStorm):
    """The group storm's owner leaves in the middle of its storm: how soon dynd's work stops."""
    name = "storm-leave"
    title = "the group storm's owner disconnects mid-storm: when dynd's work stops"

    def heavy(self, run, c):
        self.retarget(c)
        c.send({"op": "step", "session": "storm", "dt": 1 / 120, "count": 600})
        time.sleep(0.5)
        c.close()
        return run.work_stops(time.monotonic())


class GonMemory(Case):
    """Kept sessions of 372 stacked 64-gons (4 092 pieces, collision mode boundaries), each
    stepped once, opened until one is refused under --memory-budget 128: peak RSS."""
    name = "gon-memory"
    title = "sessions of 372 stacked 64-gons (4 092 pieces) under --memory-budget 128"
    timeout = 90
    budget_mib = 128

    def daemon_arguments(self, args):
        return ("--memory-budget", str(self.budget_mib))

    @staticmethod
    def scene():
        items = [gon(f"g{k}", 160, 284) for k in range(372)]
        ids = [i["id"] for i in items]
        return {"items": items,
                "behaviors": [{"type": "gravity", "items": ids},
                              {"type": "collision", "items": ids, "mode": "boundaries",
                               "reference_bounds": True}]}

    def heavy(self, run, _):
        c = Client(run.daemon.path)
        scene = self.scene()
        admitted = 0
        refusal = None
        while admitted < 40 and run.time_left() > 15:
            session = f"gons{admitted}"
            reply = c.request({"op": "open", "session": session, "clock": "manual",
                               "keep": True, "scene": scene}, 60)
            if not reply or not reply.get("ok"):
                refusal = reply or {"error": {"code": "no reply", "message": "open"}}
                break
            c.request({"op": "step", "session": session, "dt": 1 / 60}, 60)
            admitted += 1
        peak = run.daemon.peak_rss_mib()
        limit = 2 * self.budget_mib + 64
        error = (refusal or {}).get("error", {})
        shown = {"admitted": admitted,
                 "refused": f"{error.get('code')}: {error.get('message', '')[:60]}" if refusal
                 else "none",
                 "peak RSS": f"{peak:.0f} MiB (limit {limit} MiB)" if peak else "–"}
        fails = []
        if refusal is None:
            fails.append(f"{admitted} sessions admitted and none refused")
        if peak is None or peak > limit:
            fails.append(f"peak RSS {peak} MiB over 2 × {self.budget_mib} + 64 MiB")
        return shown, fails


class StormSigterm(GroupStorm):
    """SIGTERM in the middle of the group storm."""
    name = "storm-sigterm"
    title = "SIGTERM in the middle of the group storm"
    ends_daemon = True

    def heavy(self, run, c):
        self.retarget(c)
        # One-frame steps, pipelined: each as cheap, by its past, as the 40 before.
        c.sock.sendall(b"".join(line(self.one_frame) for _ in range(200)))
        time.sleep(0.5)
        return Sigterm.stop(run)


# The reproducers of the earlier issue "no client can crash, freeze or starve dynd": a client
# that sends and never reads, for a few seconds.


def pile(n, gravity=True):
    items = [{"id": f"i{i}", "center": [160, 284], "size": [40, 40]} for i in range(n)]
    ids = [f"i{i}" for i in range(n)]
    behaviors = [{"type": "collision", "items": ids, "reference_bounds": True}]
    if gravity:
        behaviors.insert(0, {"type": "gravity", "items": ids})
    return {"items": items, "behaviors": behaviors}


def chain_scene():
    behaviors = [{"type": "gravity", "items": ["a", "b"]}] + [
        {"type": "attachment", "item": "a", "to": "b", "length": 50} for _ in range(996)]
    return {"items": [{"id": "a", "center": [100, 100], "size": [10, 10]},
                      {"id": "b", "center": [150, 100], "size": [10, 10]}],
            "behaviors": behaviors}


def zigzag(i, points=1024):
    return {"id": f"z{i}", "path": [[10 + (k % 2) * 30, 5 + k % 40] for k in range(points)]}


class SendAndLeave(Case):
    """Sends `lines(run)` on one connection, never reads, and closes it after `seconds`
    (`leave_midway`: halfway)."""
    seconds = 4
    leave_midway = False

    def heavy(self, run, _):
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.connect(run.daemon.path)
        s.sendall(b"".join(line(obj) for obj in self.lines()))
        time.sleep(self.seconds / 2)
        if self.leave_midway:
            s.close()
        time.sleep(self.seconds / 2)
        s.close()
        return {}, []


class PileRealtime(SendAndLeave):
    name = "pile-realtime"
    title = "1 000 overlapping items, realtime 60 fps, never read (4 s)"

    def lines(self):
        return [{"op": "open", "session": "pile", "fps": 60, "scene": pile(1000)}]


class PileStep(SendAndLeave):
    name = "pile-step"
    title = "1 000 overlapping items, manual `step` count 600, never read (4 s)"

    def lines(self):
        return [{"op": "open", "session": "pile", "clock": "manual", "scene": pile(1000)},
                {"op": "step", "session": "pile", "count": 600}]


class BoundaryStorm(SendAndLeave):
    name = "boundary-storm"
    title = "30 × 1 024-point boundaries (refused), then 4 × 1 024 stacked and stepped (4 s)"

    def lines(self):
        scene = {"items": [{"id": "a", "center": [10, 10], "size": [5, 5]}],
                 "behaviors": [{"type": "collision", "items": ["a"],
                                "boundaries": [zigzag(i) for i in range(30)]}]}
        refused = {"op": "open", "session": "storm", "clock": "manual", "scene": scene}
        # What fits: 4 zigzags (4 092 stacked segments, the most a session may hold).
        fits = json.loads(json.dumps(refused))
        fits["session"] = "stack"
        fits["scene"]["behaviors"][0]["boundaries"] = [zigzag(i) for i in range(4)]
        return [refused, fits, {"op": "step", "session": "stack", "count": 60}]


class ChainStep(SendAndLeave):
    name = "chain-step"
    title = "2 items + 996 rigid attachments, `step` count 36 000, never read (4 s)"

    def lines(self):
        return [{"op": "open", "session": "chain", "clock": "manual", "scene": chain_scene()},
                {"op": "step", "session": "chain", "count": 36000}]


class ManySessions(SendAndLeave):
    name = "many-sessions"
    title = "5 000 sessions opened in one write, then the owner leaves (3 s)"
    seconds = 3
    leave_midway = True

    def lines(self):
        return [{"op": "open", "session": f"q{i}", "clock": "manual", "scene": {}}
                for i in range(5000)]


class HeldOutput(Case):
    name = "held-output"
    title = "1 000 connections pipeline 512 `get`s of 1 000 items each and never read"

    def setup(self, run):
        c = Client(run.daemon.path)
        reply = c.request({"op": "open", "session": "big", "clock": "manual", "keep": True,
                           "scene": {"items": grid_items(1000, cols=300, pitch=1)}}, 30)
        if not reply or not reply.get("ok"):
            raise RuntimeError(f"the 1000-item scene was refused: {reply}")
        return c

    def heavy(self, run, _):
        before = run.daemon.rss_mib()
        socks = []
        request = line({"op": "get", "session": "big"}) * 64
        for _ in range(1000):
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            s.connect(run.daemon.path)
            s.setblocking(False)
            for _ in range(8):
                try:
                    s.send(request)
                except (BlockingIOError, OSError):
                    break
            socks.append(s)
        time.sleep(3)
        held = run.daemon.rss_mib()
        for s in socks:
            s.close()
        time.sleep(2)
        after = run.daemon.rss_mib()
        return {"RSS before": f"{before:.0f} MiB",
                "peak": f"{run.daemon.peak_rss_mib():.0f} MiB",
                "held": f"{held:.0f} MiB", "2 s after they close": f"{after:.0f} MiB"}, []


class Sigterm(Case):
    name = "sigterm"
    title = "SIGTERM while two heavy manual steps run (pile count 600, chain count 36 000)"
    ends_daemon = True

    def heavy(self, run, _):
        socks = []
        for lines in (PileStep().lines(), ChainStep().lines()):
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            s.connect(run.daemon.path)
            s.sendall(b"".join(line(obj) for obj in lines))
            socks.append(s)
        time.sleep(1)
        return self.stop(run)

    @staticmethod
    def stop(run):
        """Sends dynd SIGTERM and reports how it ended."""
        run.stop_probe()
        start = time.monotonic()
        run.daemon.proc.send_signal(signal.SIGTERM)
        try:
            status = run.daemon.proc.wait(10)
        except subprocess.TimeoutExpired:
            return {"exit": "none within 10 s"}, ["dynd did not exit within 10 s of SIGTERM"]
        took = (time.monotonic() - start) * 1000
        removed = not os.path.exists(run.daemon.path)
        fails = []
        if status != 0 or not removed:
            fails.append(f"exit status {status}, socket removed: {removed}")
        if took > MAX_SIGINT_MS:
            fails.append(f"SIGTERM took {took:.0f} ms (target {MAX_SIGINT_MS} ms)")
        return {"exit": f"status {status} after {took:.0f} ms",
                "socket removed": "yes" if removed else "no"}, fails


CASES = [Rules(), Workers1(), Motion(), Document(), Attachments(), AddGroup(), Behaviors(), PathOpen(), NonReaders(),
         Debug(), Contacts(), Pipelined(), Memory(), PileRealtime(), PileStep(),
         BoundaryStorm(), ChainStep(), ManySessions(), HeldOutput(), Sigterm(), GroupStorm(),
         CrossingGroups(), StormLeave(), GonMemory(), StormSigterm()]


# ---------------------------------------------------------------------------------------------
# Running a case


class Run:
    def __init__(self, args, case):
        self.args, self.case = args, case
        self.daemon = None
        self.probe = None
        self.notes = []
        self.deadline = None

    def note(self, text):
        self.notes.append(text)

    def time_left(self):
        return self.deadline - time.monotonic()

    def stop_probe(self):
        return self.probe.stop() if self.probe else None

    def work_stops(self, gone):
        """How soon after `gone` (a disconnect) dynd's work stopped: the case's figure and its
        failure past --max-stop-ms."""
        stop = self.cpu_quiet_after(gone, self.time_left() - 2)
        shown = {"work stops after the disconnect":
                 f"{stop * 1000:.0f} ms" if stop is not None else
                 f"≥ {(time.monotonic() - gone):.1f} s (still busy)"}
        fails = []
        if stop is None or stop * 1000 > self.args.max_stop_ms:
            fails.append(f"work goes on after its owner left (target {self.args.max_stop_ms:g} ms)")
        return shown, fails

    def cpu_quiet_after(self, since, limit):
        """Seconds from `since` to the start of the first QUIET_WINDOW in which dynd used less
        than its idle rate + QUIET_SHARE of a core, or None if none began within `limit` s."""
        samples = collections.deque()
        end = since + limit
        while time.monotonic() < end:
            now = time.monotonic()
            samples.append((now, cpu_seconds(self.daemon.pid)))
            while len(samples) > 2 and now - samples[1][0] >= QUIET_WINDOW:
                samples.popleft()
            t0, c0 = samples[0]
            if now - t0 >= QUIET_WINDOW and \
                    (samples[-1][1] - c0) / (now - t0) < self.idle_rate + QUIET_SHARE:
                return max(0.0, t0 - since)
            time.sleep(0.01)
        return None

    def execute(self):
        case = self.case
        result = {"case": case.name, "title": case.title, "shown": {}, "fails": [],
                  "probe": None}
        try:
            self.daemon = Daemon(self.args.bin_dir, case.daemon_arguments(self.args))
        except RuntimeError as e:
            result["fails"].append(str(e))
            return result
        # A stalled dynd must not hang the run: past the deadline (set-up's, then the heavy
        # part's) the probe reports, its waits so far as lower bounds, and dynd is killed, which
        # ends every blocking read.
        self.deadline = time.monotonic() + case.setup_timeout
        done = threading.Event()
        watchdog = threading.Thread(target=self._watch, args=(done,), daemon=True)
        watchdog.start()
        try:
            state = case.setup(self)
            timeout = min(case.timeout, QUICK_TIMEOUT) if self.args.quick else case.timeout
            self.deadline = time.monotonic() + timeout
            self.probe = Probe(self.daemon.path, timeout + 30)
            # Idle: dynd's CPU rate with only the probe at work.
            c0, t0 = cpu_seconds(self.daemon.pid), time.monotonic()
            time.sleep(0.3)
            self.idle_rate = (cpu_seconds(self.daemon.pid) - c0) / (time.monotonic() - t0)
            shown, fails = case.heavy(self, state)
            time.sleep(0.3)  # the probe's requests of the last moments get their replies
            result["shown"].update(shown)
            result["fails"] += fails
        except Exception as e:  # noqa: BLE001 - reported as the case's failure
            result["fails"].append(f"{type(e).__name__}: {e}")
        finally:
            done.set()
            watchdog.join()
            result["probe"] = self.stop_probe()
            died = self.daemon.proc.poll()
            if died is not None and not case.ends_daemon and not getattr(self, "expired", False):
                result["fails"].append(f"dynd died (status {died}): {self.daemon.log_tail(300)}")
            self.daemon.stop()
        if getattr(self, "expired", False):
            result["fails"].append("timed out (dynd killed)")
        self.judge(result)
        result["notes"] = self.notes
        return result

    def _watch(self, done):
        while not done.wait(0.1):
            if time.monotonic() > self.deadline:
                self.expired = True
                self.stop_probe()
                self.daemon.proc.kill()
                return

    def judge(self, result):
        p = result["probe"] or {}
        if p.get("problem"):
            result["fails"].append(f"probe: {p['problem']}")
        for key, limit in (("hello", self.args.max_hello_ms), ("step", self.args.max_step_ms)):
            figures = p.get(key) or {}
            worst = figures.get("worst")
            if worst is None:
                result["fails"].append(f"probe: no {key} round trip")
            elif worst > limit:
                result["fails"].append(f"{key} worst {worst:.0f} ms > {limit:g} ms")


# ---------------------------------------------------------------------------------------------
# The report


def fmt_ms(figures, key):
    if not figures or figures.get(key) is None:
        return "–"
    v = figures[key]
    text = f"{v:.1f}" if v < 100 else f"{v:.0f}"
    if key == "worst" and figures.get("unanswered"):
        text = "≥ " + text
    return text


def report(results, markdown):
    if markdown:
        print("| case | hello worst ms | hello p99 | step worst ms | step p99 | probe round trips "
              "(hello/step) | probe late ms | the case's own figures | verdict |")
        print("|---|---:|---:|---:|---:|---|---:|---|---|")
    for r in results:
        p = r["probe"] or {}
        h, s = p.get("hello"), p.get("step")
        own = "; ".join(f"{k}: {v}" for k, v in r["shown"].items())
        counts = f"{(h or {}).get('count', 0)}/{(s or {}).get('count', 0)}"
        verdict = "pass" if not r["fails"] else "**FAIL**" if markdown else "FAIL"
        if markdown:
            late = p.get("late_ms")
            print(f"| {r['case']}: {r['title']} | {fmt_ms(h, 'worst')} | {fmt_ms(h, 'p99')} | "
                  f"{fmt_ms(s, 'worst')} | {fmt_ms(s, 'p99')} | {counts} | "
                  f"{'–' if late is None else f'{late:.0f}'} | {own} | {verdict} |")
        else:
            at = lambda f: (f or {}).get("worst_at")  # noqa: E731
            print(f"{r['case']}: {r['title']}\n  hello worst {fmt_ms(h, 'worst')} ms (sent at "
                  f"{at(h)} s), p99 {fmt_ms(h, 'p99')}, p50 {fmt_ms(h, 'p50')}; step worst "
                  f"{fmt_ms(s, 'worst')} ms (at {at(s)} s), p99 {fmt_ms(s, 'p99')}, p50 "
                  f"{fmt_ms(s, 'p50')} ({counts} round trips; "
                  f"probe late ≤ {p.get('late_ms', '–')} ms)\n"
                  + (f"  {own}\n" if own else "") + f"  {verdict}"
                  + "".join(f"\n    - {f}" for f in r["fails"])
                  + "".join(f"\n    note: {n}" for n in r.get("notes", [])), flush=True)
    if markdown:
        for r in results:
            for f in r["fails"]:
                print(f"\n- {r['case']}: {f}", end="")
        print()


def floor(args):
    """The probe against an idle dynd: what the measurement itself costs."""
    d = Daemon(args.bin_dir)
    try:
        probe = Probe(d.path, 60)
        time.sleep(2)
        return probe.stop()
    finally:
        d.stop()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("bin_dir")
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("--only", help="comma-separated case names (--list shows them)")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--max-hello-ms", type=float, default=50)
    ap.add_argument("--max-step-ms", type=float, default=100)
    ap.add_argument("--max-stop-ms", type=float, default=MAX_STOP_MS,
                    help="rules: how soon the work must stop after its owner left "
                         f"(default {MAX_STOP_MS})")
    ap.add_argument("--quick", action="store_true",
                    help=f"make test's short run: the contact storm {QUICK_PILE[0]} items with {QUICK_PILE[1]}-byte "
                         f"ids, {QUICK_GETS} pipelined gets, no case's heavy part lasts over "
                         f"{QUICK_TIMEOUT} s")
    args = ap.parse_args()
    if args.list:
        for c in CASES:
            print(f"{c.name:15} {c.title}")
        return 0
    if not os.access(os.path.join(args.bin_dir, "dynd"), os.X_OK):
        print(f"fairness_bench: no dynd in {args.bin_dir}", file=sys.stderr)
        return 2
    names = [c.name for c in CASES]
    chosen = args.only.split(",") if args.only else names
    for n in chosen:
        if n not in names:
            ap.error(f"unknown case {n!r} (known: {', '.join(names)})")
    start = time.monotonic()
    load = os.getloadavg()[0]
    if args.quick:
        print(f"quick run: the contact storm "
              f"{QUICK_PILE[0]} items with {QUICK_PILE[1]}-byte ids, {QUICK_GETS} pipelined "
              f"gets; each case's heavy part at most {QUICK_TIMEOUT} s")
    idle = floor(args)
    h, s = idle.get("hello", {}), idle.get("step", {})
    print(f"floor (the probe against an idle dynd, 2 s): hello p50 {fmt_ms(h, 'p50')} ms, worst "
          f"{fmt_ms(h, 'worst')} ms; step p50 {fmt_ms(s, 'p50')} ms, worst {fmt_ms(s, 'worst')} "
          f"ms; the probe's own CPU {idle.get('cpu_ms', '–')} ms; load {load:.2f} at the start",
          flush=True)
    results = []
    for case in CASES:
        if case.name in chosen:
            results.append(Run(args, case).execute())
            if not args.markdown:
                report(results[-1:], False)
    if args.markdown:
        report(results, True)
    failed = [r["case"] for r in results if r["fails"]]
    print(f"{len(results)} cases in {time.monotonic() - start:.0f} s: "
          + (f"FAIL ({', '.join(failed)})" if failed else "PASS"))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
