#!/usr/bin/env python3
"""A fake-server fuzz for dynd's clients: a stand-in daemon answers each request with something
hostile, and the client must fail with one of its documented errors by its deadline.

    tools/client_fuzz.py [--seconds 20] [--seed N] [--dynctl PATH]
    tools/client_fuzz.py serve SOCKET BEHAVIOR [--megabytes N] [--seconds N]

The fuzz runs for --seconds (default 20) with a seeded random generator (--seed, default: from
the clock, printed so that a failure can be replayed). Each case picks a behavior (BEHAVIORS:
wrong ids, replies without ids, huge lines, trickles, garbage and mutated bytes, bad UTF-8,
deep nesting, NaN, endless events, half lines then close, a daemon that never reads, one that
never answers), a client — the Python package's blocking `Client` or `AsyncClient`
(clients/python), or dynctl when --dynctl names it — a request, and a deadline of 0.5 to 2 s.
A case fails when the client

- takes longer than its deadline plus SLACK seconds (a hang is cut there: the fuzz stops);
- raises anything but its documented errors (`DyndError`, whose `BadReply` subclasses are the
  protocol violations, `DyndTimeout`, `ConnectionClosed`), or succeeds on a broken answer;
- (dynctl) exits with a status other than 0, 65 (an error reply) or 76 (the daemon broke the
  protocol, closed, or did not answer in time), or writes more than STDERR_LIMIT bytes to
  standard error (it must quote at most a short prefix of an offending line).

Exit status 0 when every case passed, 1 otherwise (each failure is printed with its seed and
case number). `serve` runs one behavior on SOCKET until killed or --seconds (default 60) pass:
the dynctl tests (Tests/DynctlTests/HostileDaemonTests.swift) use it.

Every `time.sleep` here is the scenario, never a wait for something: a behavior's sleep is a
daemon that holds the connection open and silent after misbehaving (or trickles its bytes), and
`serve` sleeps for the lifetime it was given.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import threading
import time
import traceback
from typing import Any, Callable, Dict, List, Optional, Tuple

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "clients", "python"))

from dynd import AsyncClient, Client, ConnectionClosed, DyndError, DyndTimeout  # noqa: E402
from dynd.errors import BadReply  # noqa: E402

#: Seconds a client may take beyond its deadline (parsing a line of up to 64 MiB included).
SLACK = 1.5
#: Most bytes dynctl may write to standard error in one case.
STDERR_LIMIT = 4096
#: dynctl's documented exit statuses for a daemon that answers (or breaks the protocol).
DYNCTL_STATUSES = (0, 65, 76)
MiB = 1024 * 1024
JSON = Dict[str, Any]

#: The successful reply body of each request the fuzz sends, as dynd would answer.
BODIES: Dict[str, JSON] = {
    "hello": {"protocol": 1, "server": "dynd", "version": "0", "transitions": ["lock-screen"]},
    "get": {"t": 0, "running": False, "items": []},
    "step": {"t": 0.017, "running": False},
    "list": {"sessions": []},
    "open": {"session": "s", "items": []},
}


class Peer:
    """One connection of the stand-in daemon."""

    def __init__(self, connection: socket.socket, rng: random.Random, megabytes: int) -> None:
        self.connection = connection
        self.rng = rng
        self.megabytes = megabytes
        self._buffer = b""

    def request(self) -> JSON:
        """The next request line, parsed (an empty object for one that is not JSON)."""
        while b"\n" not in self._buffer:
            chunk = self.connection.recv(65536)
            if not chunk:
                raise ConnectionError("the client hung up")
            self._buffer += chunk
        line, self._buffer = self._buffer.split(b"\n", 1)
        try:
            request = json.loads(line)
        except ValueError:
            return {}
        return request if isinstance(request, dict) else {}

    def send(self, data: bytes) -> None:
        self.connection.sendall(data)

    def reply(self, request: JSON, **changes: Any) -> bytes:
        """The line dynd would answer `request` with, with `changes`."""
        message: JSON = {"ok": True, "id": request.get("id")}
        message.update(BODIES.get(str(request.get("op")), {}))
        message.update(changes)
        return json.dumps(message).encode() + b"\n"


def correct(peer: Peer) -> None:
    """Answers every request as dynd would (the control case)."""
    while True:
        peer.send(peer.reply(peer.request()))


def wrong_id(peer: Peer) -> None:
    request = peer.request()
    peer.send(peer.reply(request, id=peer.rng.choice([7, "other", 1000, 0, 2.5]), session="x"))
    time.sleep(60)


def no_id(peer: Peer) -> None:
    """A successful reply without an id (only error replies may lack it)."""
    request = peer.request()
    line = json.loads(peer.reply(request))
    del line["id"]
    peer.send(json.dumps(line).encode() + b"\n")
    time.sleep(60)


def error_without_id(peer: Peer) -> None:
    """A valid error reply without an id: the answer to a request the daemon could not read."""
    peer.request()
    peer.send(b'{"ok":false,"error":{"code":"bad_json","message":"not JSON"}}\n')
    time.sleep(60)


def huge_line(peer: Peer) -> None:
    """`--megabytes` (default 100) MB without a newline."""
    peer.request()
    block = b"x" * MiB
    for _ in range(peer.megabytes):
        peer.send(block)
    time.sleep(60)


def bad_line(peer: Peer) -> None:
    """A line of `--megabytes` MB that is not JSON (within the clients' line limit)."""
    peer.request()
    block = b"\x1b[2J<" * (MiB // 5)
    for _ in range(peer.megabytes):
        peer.send(block)
    peer.send(b"\n")
    time.sleep(60)


def trickle(peer: Peer) -> None:
    """A valid reply, one byte every 0.5 to 1 s."""
    line = peer.reply(peer.request())
    for byte in line:
        peer.send(bytes([byte]))
        time.sleep(peer.rng.uniform(0.5, 1))


def garbage(peer: Peer) -> None:
    """Random bytes, then a newline."""
    peer.request()
    size = peer.rng.choice([1, 10, 1000, 100000])
    peer.send(bytes(peer.rng.getrandbits(8) for _ in range(min(size, 4096))) * max(1, size // 4096))
    peer.send(b"\n")
    time.sleep(60)


def mutated(peer: Peer) -> None:
    """The right reply with a few bytes changed, cut, or doubled."""
    line = bytearray(peer.reply(peer.request())[:-1])
    for _ in range(peer.rng.randint(1, 4)):
        at = peer.rng.randrange(len(line))
        choice = peer.rng.random()
        if choice < 0.4:
            line[at] = peer.rng.getrandbits(8)
        elif choice < 0.6:
            del line[at:]
            if not line:
                line = bytearray(b"{")
        elif choice < 0.8:
            line[at:at] = peer.rng.choice([b"NaN", b"[", b'"', b"\\", b"\xc3", b"1e999"])
        else:
            line = line + line
    peer.send(bytes(line) + b"\n")
    time.sleep(60)


def bad_utf8(peer: Peer) -> None:
    peer.send(peer.reply(peer.request(), server="dyn\udcffd").replace(b"\\udcff", b"\xff"))
    time.sleep(60)


def deep(peer: Peer) -> None:
    depth = peer.rng.choice([65, 1000, 10000, 100000])
    line = peer.reply(peer.request(), nested=0)
    peer.send(line.replace(b"0}", b"[" * depth + b"]" * depth + b"}"))
    time.sleep(60)


def not_finite(peer: Peer) -> None:
    number = peer.rng.choice([b"NaN", b"Infinity", b"-Infinity", b"1e400", b"-1e999"])
    peer.send(peer.reply(peer.request(), t=0.5).replace(b"0.5", number))
    time.sleep(60)


def endless_events(peer: Peer) -> None:
    """Events, never the reply."""
    peer.request()
    events = b'{"ev":"frame","session":"s","seq":1,"t":0,"items":[]}\n' * 1000
    while True:
        peer.send(events)


def half_line(peer: Peer) -> None:
    """Half the reply, then the connection closes."""
    line = peer.reply(peer.request())
    peer.send(line[: len(line) // 2])
    peer.connection.shutdown(socket.SHUT_RDWR)


def closes(peer: Peer) -> None:
    """Closes as soon as the request came."""
    peer.request()
    peer.connection.shutdown(socket.SHUT_RDWR)


def never_reads(peer: Peer) -> None:
    time.sleep(60)


def silent(peer: Peer) -> None:
    """Reads everything, answers nothing."""
    while True:
        peer.request()


def unsolicited(peer: Peer) -> None:
    """An answer to another request first, then the right one."""
    request = peer.request()
    peer.send(peer.reply(dict(request, id=-1)) + peer.reply(request))
    time.sleep(60)


BEHAVIORS: Dict[str, Callable[[Peer], None]] = {
    "correct": correct,
    "wrong-id": wrong_id,
    "no-id": no_id,
    "error-without-id": error_without_id,
    "huge-line": huge_line,
    "bad-line": bad_line,
    "trickle": trickle,
    "garbage": garbage,
    "mutated": mutated,
    "bad-utf8": bad_utf8,
    "deep": deep,
    "not-finite": not_finite,
    "endless-events": endless_events,
    "half-line": half_line,
    "closes": closes,
    "never-reads": never_reads,
    "silent": silent,
    "unsolicited": unsolicited,
}
#: The behaviors after which the client may succeed (a mutation may leave the reply valid, e.g.
#: a changed letter inside a string).
ANSWERING = ("correct", "mutated")


class StandIn:
    """The stand-in daemon on a Unix socket: each connection is served by `behavior` in a
    thread."""

    def __init__(self, path: str, behavior: str, seed: int, megabytes: int) -> None:
        self.path = path
        self.behavior = BEHAVIORS[behavior]
        self.rng = random.Random(seed)
        self.megabytes = megabytes
        self.server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.server.bind(path)
        self.server.listen(8)
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                connection, _ = self.server.accept()
            except OSError:
                return
            peer = Peer(connection, random.Random(self.rng.random()), self.megabytes)
            threading.Thread(target=self._serve, args=(peer,), daemon=True).start()

    def _serve(self, peer: Peer) -> None:
        with peer.connection:
            try:
                self.behavior(peer)
            except OSError:
                pass  # the client gave up and hung up, as it should

    def close(self) -> None:
        self.server.close()
        os.unlink(self.path)


# The clients -------------------------------------------------------------------------------


def python_case(kind: str, path: str, op: str, timeout: float) -> Optional[str]:
    """Runs one request with the Python client `kind`; the reason it failed the case, or None."""

    def blocking() -> Any:
        with Client(path, timeout=timeout) as client:
            return request(client)

    def request(client: Client) -> Any:
        if op == "wait":
            return client.wait_for("done", timeout=timeout)
        return client.call(op, session="s") if op != "hello" else client.hello()

    async def asynchronous() -> Any:
        async with await AsyncClient.connect(path, timeout=timeout) as client:
            if op == "wait":
                return await client.wait_for("done", timeout=timeout)
            return await client.call(op, session="s") if op != "hello" else await client.hello()

    try:
        if kind == "blocking":
            blocking()
        else:
            asyncio.run(asynchronous())
    except (DyndError, DyndTimeout, ConnectionClosed):
        return None
    except Exception:
        return "raised an undocumented error:\n" + traceback.format_exc()
    return "succeeded"


def dynctl_case(dynctl: str, path: str, op: str, timeout: float, scene: str) -> Optional[str]:
    """Runs dynctl once; the reason it failed the case, or None."""
    arguments = {
        "hello": ["hello"],
        "get": ["get", "s"],
        "step": ["step", "s"],
        "list": ["list"],
        "open": ["open", "--scene", scene],
        "wait": ["watch", "s", "--until", "done", "--for", str(timeout)],
    }[op]
    try:
        done = subprocess.run(
            [dynctl, "--socket", path, "--timeout", str(timeout)] + arguments,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            timeout=timeout + SLACK,
        )
    except subprocess.TimeoutExpired:
        return "hung past its deadline"
    if done.returncode not in DYNCTL_STATUSES:
        return "exited %d: %s" % (done.returncode, done.stderr[:500])
    if len(done.stderr) > STDERR_LIMIT:
        return "wrote %d bytes to standard error: %r…" % (len(done.stderr), done.stderr[:200])
    return None


def big_scene(directory: str) -> str:
    """A valid scene file of about 1 MB (more than a socket buffer holds)."""
    items = [
        {"id": "item-%04d-%s" % (n, "x" * 240), "center": [10, 10], "size": [4, 4]}
        for n in range(1000)
    ]
    ids = [item["id"] for item in items]
    scene = {"items": items, "behaviors": [{"type": "gravity", "items": ids},
                                           {"type": "collision", "items": ids}]}
    path = os.path.join(directory, "big.json")
    with open(path, "w") as handle:
        json.dump(scene, handle)
    return path


def hang(description: str) -> None:
    """Called when a Python client overran its deadline by far: reports and stops the fuzz."""
    print("client_fuzz: FAIL %s: the client hung; its stack:" % description, flush=True)
    import faulthandler

    faulthandler.dump_traceback(all_threads=True)
    os._exit(1)


def fuzz(seconds: float, seed: int, dynctl: Optional[str]) -> int:
    rng = random.Random(seed)
    directory = tempfile.mkdtemp(prefix="client-fuzz.")
    os.chmod(directory, 0o700)
    scene = big_scene(directory)
    kinds = ["blocking", "asyncio"] + (["dynctl"] if dynctl else [])
    failures: List[str] = []
    counts: Dict[str, int] = {}
    started = time.monotonic()
    case = 0
    while time.monotonic() - started < seconds:
        case += 1
        behavior = rng.choice(sorted(BEHAVIORS))
        kind = rng.choice(kinds)
        op = rng.choice(["hello", "get", "step", "list", "open", "wait"])
        if kind != "dynctl" and op == "open":
            op = "hello"
        timeout = rng.choice([0.5, 1.0, 2.0])
        path = os.path.join(directory, "d%d.sock" % case)
        server = StandIn(path, behavior, rng.getrandbits(32), rng.choice([1, 5, 100]))
        description = "case %d (seed %d): %s client, %s, behavior %s, timeout %g s" % (
            case, seed, kind, op, behavior, timeout)
        watchdog = threading.Timer(timeout + 10 * SLACK, hang, args=(description,))
        watchdog.daemon = True
        watchdog.start()
        begun = time.monotonic()
        try:
            if kind == "dynctl":
                assert dynctl is not None
                reason = dynctl_case(dynctl, path, op, timeout, scene)
            else:
                reason = python_case(kind, path, op, timeout)
            elapsed = time.monotonic() - begun
            if reason == "succeeded" and behavior in ANSWERING:
                reason = None
            if reason is None and elapsed > timeout + SLACK:
                reason = "took %.2f s, past its deadline" % elapsed
        finally:
            watchdog.cancel()
            server.close()
        counts[behavior] = counts.get(behavior, 0) + 1
        if reason is not None:
            failures.append("%s: %s" % (description, reason))
            print("client_fuzz: FAIL %s: %s" % (description, reason), flush=True)
    print(
        "client_fuzz: %d cases in %.0f s (seed %d, clients: %s), %d failed"
        % (case, time.monotonic() - started, seed, ", ".join(kinds), len(failures))
    )
    return 1 if failures else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command")
    serve = sub.add_parser("serve", help="run one behavior on SOCKET")
    serve.add_argument("socket")
    serve.add_argument("behavior", choices=sorted(BEHAVIORS))
    serve.add_argument("--megabytes", type=int, default=100)
    serve.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--dynctl", default=None, help="the dynctl binary to fuzz too")
    args = parser.parse_args()
    if args.command == "serve":
        StandIn(args.socket, args.behavior, 0, args.megabytes)
        print("listening", flush=True)
        time.sleep(args.seconds)
        return 0
    seed = args.seed if args.seed is not None else int(time.time())
    return fuzz(args.seconds, seed, args.dynctl)


if __name__ == "__main__":
    sys.exit(main())
