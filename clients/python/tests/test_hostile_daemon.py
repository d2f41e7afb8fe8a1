"""The clients against a hostile stand-in for dynd: every way a daemon (or whatever listens on
the socket) can break the protocol ends in the client's own documented error, at its deadline
or sooner, with bounded memory — never a hang, a raw `UnicodeDecodeError`, `JSONDecodeError`,
`ValueError` or `RecursionError`. Each case runs with the blocking and the asyncio client, and
prints its time to fail (``pytest -s``)."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import threading
import time
import tracemalloc
from pathlib import Path
from typing import Any, Callable, Dict, Iterator, List, Optional, Tuple, Type

import pytest

from dynd import AsyncClient, Client, ConnectionClosed, DyndError, DyndTimeout
from dynd.errors import (
    BadReply,
    InvalidUTF8,
    LineTooLong,
    NonFiniteNumber,
    NotJSON,
    ReplyMismatch,
    TooDeep,
    TooManyEvents,
)

JSON = Dict[str, Any]
MiB = 1024 * 1024


class Peer:
    """One connection to the stand-in, as its behavior sees it."""

    def __init__(self, connection: socket.socket) -> None:
        self.connection = connection
        self._buffer = b""

    def request(self) -> JSON:
        """The next request line, parsed."""
        while b"\n" not in self._buffer:
            chunk = self.connection.recv(65536)
            if not chunk:
                raise ConnectionError("the client hung up")
            self._buffer += chunk
        line, self._buffer = self._buffer.split(b"\n", 1)
        request: JSON = json.loads(line)
        return request

    def send(self, data: bytes) -> None:
        self.connection.sendall(data)


Behavior = Callable[[Peer], None]


class StandIn:
    """A stand-in dynd on a Unix socket in a private directory: each connection is served by
    `behavior` in a thread, which ends when the client hangs up (or the behavior returns).
    A behavior's ``time.sleep(30)`` is the scenario, a daemon that holds the connection open
    and says nothing more: the threads are daemon threads, so no test waits for it to end."""

    def __init__(self, directory: Path, behavior: Behavior) -> None:
        self.path = str(directory / "dynd.sock")
        self.behavior = behavior
        self.server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.server.bind(self.path)
        self.server.listen(4)
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                connection, _ = self.server.accept()
            except OSError:
                return
            threading.Thread(target=self._serve, args=(connection,), daemon=True).start()

    def _serve(self, connection: socket.socket) -> None:
        with connection:
            try:
                self.behavior(Peer(connection))
            except OSError:
                pass  # the client hung up, as it should when it gives up

    def close(self) -> None:
        self.server.close()
        os.unlink(self.path)


@pytest.fixture
def stand_in(tmp_path: Path) -> Iterator[Callable[[Behavior], StandIn]]:
    made: List[StandIn] = []

    def make(behavior: Behavior) -> StandIn:
        directory = tmp_path / ("d%d" % len(made))
        directory.mkdir(mode=0o700)
        made.append(StandIn(directory, behavior))
        return made[-1]

    yield make
    for server in made:
        server.close()


def hello(
    kind: str, path: str, timeout: float, **limits: int
) -> Any:
    """Sends ``hello`` with the `kind` client (``blocking`` or ``asyncio``)."""
    if kind == "blocking":
        with Client(path, timeout=timeout, **limits) as client:
            return client.hello()

    async def scenario() -> Any:
        async with await AsyncClient.connect(path, timeout=timeout, **limits) as client:
            return await client.hello()

    return asyncio.run(scenario())


def time_to_fail(
    kind: str,
    path: str,
    expected: Type[BaseException],
    timeout: float = 5.0,
    call: Optional[Callable[[], Any]] = None,
    **limits: int,
) -> Tuple[float, BaseException]:
    """Runs ``hello`` (or `call`) and returns how long it took to raise `expected`, and the
    error; prints the time."""
    started = time.monotonic()
    with pytest.raises(expected) as raised:
        if call is not None:
            call()
        else:
            hello(kind, path, timeout, **limits)
    elapsed = time.monotonic() - started
    print("%s client: %s after %.3f s" % (kind, type(raised.value).__name__, elapsed))
    return elapsed, raised.value


HELLO = {"protocol": 1, "server": "dynd", "version": "0", "transitions": []}
KINDS = ["blocking", "asyncio"]


def reply_with(data: bytes) -> Behavior:
    """Reads a request and answers `data`."""

    def behave(peer: Peer) -> None:
        peer.request()
        peer.send(data)
        time.sleep(30)  # the scenario: a daemon that then holds the connection, silent

    return behave


@pytest.mark.parametrize("kind", KINDS)
def test_a_matching_reply_is_the_answer(kind: str, stand_in: Any) -> None:
    def behave(peer: Peer) -> None:
        request = peer.request()
        assert request["op"] == "hello" and request["id"] == 1
        peer.send(json.dumps(dict(HELLO, ok=True, id=request["id"])).encode() + b"\n")
        time.sleep(30)  # the scenario: the connection stays open after the reply

    assert hello(kind, stand_in(behave).path, 5).server == "dynd"


@pytest.mark.parametrize("kind", KINDS)
def test_an_error_reply_without_an_id_answers_an_unreadable_request(
    kind: str, stand_in: Any
) -> None:
    line = b'{"ok":false,"error":{"code":"line_too_long","message":"too long"}}\n'
    _, error = time_to_fail(kind, stand_in(reply_with(line)).path, DyndError)
    assert not isinstance(error, BadReply) and isinstance(error, DyndError)
    assert error.code == "line_too_long"


@pytest.mark.parametrize("kind", KINDS)
def test_a_reply_with_another_id_is_refused(kind: str, stand_in: Any) -> None:
    line = json.dumps(dict(HELLO, ok=True, id=7, session="other")).encode() + b"\n"
    elapsed, error = time_to_fail(kind, stand_in(reply_with(line)).path, ReplyMismatch)
    assert "request 1" in str(error) and "to request b'7'" in str(error), str(error)
    without = json.dumps(dict(HELLO, ok=True)).encode() + b"\n"
    time_to_fail(kind, stand_in(reply_with(without)).path, ReplyMismatch)
    assert elapsed < 1


@pytest.mark.parametrize("kind", KINDS)
def test_a_100_mb_line_is_refused_quickly_in_bounded_memory(kind: str, stand_in: Any) -> None:
    def behave(peer: Peer) -> None:
        peer.request()
        block = b"x" * MiB
        for _ in range(100):
            peer.send(block)

    path = stand_in(behave).path
    tracemalloc.start()
    try:
        elapsed, error = time_to_fail(kind, path, LineTooLong, timeout=30)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    print("%s client: peak %.0f MiB traced" % (kind, peak / MiB))
    assert elapsed < 2, "%.1f s" % elapsed
    assert peak < 3 * 64 * MiB, "%.0f MiB" % (peak / MiB)
    assert len(str(error)) < 600, "the message quotes a short prefix"


@pytest.mark.parametrize("kind", KINDS)
def test_a_trickle_of_one_byte_a_second_times_out_at_the_deadline(
    kind: str, stand_in: Any
) -> None:
    def behave(peer: Peer) -> None:
        peer.request()
        for byte in json.dumps(dict(HELLO, ok=True, id=1)).encode() + b"\n":
            peer.send(bytes([byte]))
            time.sleep(1)  # the scenario: a daemon that trickles one byte a second

    elapsed, error = time_to_fail(kind, stand_in(behave).path, DyndTimeout, timeout=2)
    assert 2 <= elapsed < 2.5, "%.2f s" % elapsed
    assert "within 2 s" in str(error)


@pytest.mark.parametrize("kind", KINDS)
def test_a_daemon_that_never_reads_cannot_hold_a_large_request(
    kind: str, stand_in: Any
) -> None:
    path = stand_in(lambda peer: time.sleep(30)).path  # the scenario: it never reads
    items = [
        {"id": "item-%d-%s" % (n, "x" * 200), "center": [10, 10], "size": [4, 4]}
        for n in range(1000)
    ]
    scene = {"items": items, "behaviors": [{"type": "gravity", "items": [i["id"] for i in items]}]}

    def blocking() -> None:
        with Client(path, timeout=2) as client:
            client.open_scene(scene)

    def asynchronous() -> None:
        async def scenario() -> None:
            async with await AsyncClient.connect(path, timeout=2) as client:
                await client.open_scene(scene)

        asyncio.run(scenario())

    call = blocking if kind == "blocking" else asynchronous
    elapsed, _ = time_to_fail(kind, path, DyndTimeout, call=call)
    assert 2 <= elapsed < 2.5, "%.2f s" % elapsed


@pytest.mark.parametrize("kind", KINDS)
def test_endless_events_stop_at_the_cap(kind: str, stand_in: Any) -> None:
    def behave(peer: Peer) -> None:
        peer.request()
        event = b'{"ev":"pause","session":"s","t":1}\n' * 1000
        while True:
            peer.send(event)

    elapsed, error = time_to_fail(kind, stand_in(behave).path, TooManyEvents, timeout=30)
    assert "100000" in str(error), str(error)
    small, _ = time_to_fail(
        kind, stand_in(behave).path, TooManyEvents, timeout=30, max_event_bytes=64 * 1024
    )
    assert elapsed < 10 and small < 1


BROKEN_LINES = [
    (b'{"ok":true,"id":1,"server":"dyn\xffd"}\n', InvalidUTF8),
    (b"<html>hello</html>\n", NotJSON),
    (b'{"ok":true,"id":1,\n', NotJSON),
    (b'{"ok":true,"id":1,"t":NaN}\n', NonFiniteNumber),
    (b'{"ok":true,"id":1,"t":-Infinity}\n', NonFiniteNumber),
    (b'{"ok":true,"id":1,"t":1e400}\n', NonFiniteNumber),
    (b'{"ok":true,"id":1,"n":' + b"9" * 5000 + b"}\n", NotJSON),
    (b'{"ok":true,"id":1,"x":' + b"[" * 10000 + b"]" * 10000 + b"}\n", TooDeep),
    (b'{"ok":true,"id":1,"x":' + b"[" * 65 + b"]" * 65 + b"}\n", TooDeep),
    (b"[1,2]\n", BadReply),
    (b'{"neither":1}\n', BadReply),
    (b'{"ok":"yes","id":1}\n', BadReply),
    (b'{"ok":true,"id":1,"protocol":"one","parameters":[]}\n', BadReply),  # fields' forms
    (b'{"ev":"frame","session":"s"}\n{"ok":true,"id":1}\n', BadReply),
    (b'{"ok":true,"id":1,"protocol"', ConnectionClosed),
]


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("line,expected", BROKEN_LINES, ids=lambda v: repr(v)[:40])
def test_broken_lines_raise_the_documented_errors(
    kind: str, line: bytes, expected: Type[BaseException], stand_in: Any
) -> None:
    def behave(peer: Peer) -> None:
        peer.request()
        peer.send(line)
        if not line.endswith(b"\n"):
            peer.connection.shutdown(socket.SHUT_WR)
        time.sleep(30)  # the scenario: the connection stays open after the broken line

    elapsed, error = time_to_fail(kind, stand_in(behave).path, expected)
    assert type(error) is expected, repr(error)
    assert elapsed < 1
    assert len(str(error)) < 800, "the message quotes a short prefix of the line"


@pytest.mark.parametrize("kind", KINDS)
def test_list_sessions_follows_next_across_pages(kind: str, stand_in: Any) -> None:
    """A ``list`` reply with ``next`` (dynd pages at about a megabyte) is followed to the end:
    the client asks ``from`` each ``next`` and returns every session once, in order."""
    asked: List[Optional[int]] = []

    def session(name: str) -> JSON:
        return {"session": name, "transition": None, "clock": "manual", "running": False}

    def behave(peer: Peer) -> None:
        while True:
            request = peer.request()
            asked.append(request.get("from"))
            page: JSON = {"ok": True, "id": request["id"]}
            if "from" not in request:
                page.update(sessions=[session("a"), session("b")], next=5)
            else:
                page.update(sessions=[session("c")])
            peer.send(json.dumps(page).encode() + b"\n")

    path = stand_in(behave).path
    if kind == "blocking":
        with Client(path, timeout=5) as client:
            listed = client.list_sessions()
    else:

        async def scenario() -> Any:
            async with await AsyncClient.connect(path, timeout=5) as client:
                return await client.list_sessions()

        listed = asyncio.run(scenario())
    assert [s.session for s in listed] == ["a", "b", "c"]
    assert asked == [None, 5]
