"""The op table (`dynd.ops`): both clients expose every entry (one line in `OpMethods`), with the
entry's parameters, send the same lines for it and return the same types. The static types of
the methods are checked by mypy in ``test_op_typing.py``."""

import asyncio
import inspect
import json
import os
import pydoc
import socket
import threading
from pathlib import Path
from typing import Any, Callable, Dict, Iterator, List

import pytest

from dynd import AsyncClient, Client, DyndDaemon, FrameEvent
from dynd.ops import OpMethod, OpMethods, Ops

#: Fields of the stand-in's reply to each op (the rest answer ``{"ok": true, "id": …}``).
REPLIES: Dict[str, Dict[str, Any]] = {
    "hello": {"protocol": 1, "server": "dynd", "version": "0", "transitions": []},
    "open": {"session": "s1", "items": []},
    "step": {"t": 0.5, "running": False},
    "get": {"t": 0, "running": False, "items": []},
    "watch": {"items": []},
    "list": {"sessions": [{"session": "s1", "clock": "manual", "running": False}]},
    "add_behavior": {"behavior": "b1"},
    "behaviors": {"behaviors": []},
    "items_in_rect": {"items": ["a"]},
    "debug": {"debug": None},
}

#: One call of every op, the same for both clients (`run_until` stops: the session rests).
CALLS: List[Callable[[Any], Any]] = [
    lambda c: c.hello(),
    lambda c: c.open_transition("lock-screen", {"a": 1}, session="L", clock="manual", keep=True),
    lambda c: c.open_scene({"items": []}, clock="manual"),
    lambda c: c.gesture("s1", "ended", 1, 2, t=0.1, velocity=(3, 4), estimator="lsq"),
    lambda c: c.tap("s1", 5, 6),
    lambda c: c.swipe("s1", "up", at=(1, 2), velocity=(3, 4)),
    lambda c: c.step("s1", 3, dt=0.01),
    lambda c: c.get("s1"),
    lambda c: c.watch("s1"),
    lambda c: c.list_sessions(),
    lambda c: c.clock_of("elsewhere"),
    lambda c: c.debug("s1", False),
    lambda c: c.add_item("s1", {"id": "a"}),
    lambda c: c.remove_item("s1", "a"),
    lambda c: c.add_behavior("s1", {"type": "gravity"}),
    lambda c: c.remove_behavior("s1", "b1"),
    lambda c: c.remove_all_behaviors("s1"),
    lambda c: c.set_behavior("s1", "b1", magnitude=0.5),
    lambda c: c.behaviors("s1"),
    lambda c: c.add_group("s1", "g", ["a", "b"]),
    lambda c: c.remove_group("s1", "g"),
    lambda c: c.items_in_rect("s1", (0, 0, 1, 2)),
    lambda c: c.set_bounds("s1", (3, 4)),
    lambda c: c.set_item("s1", "a", center=(1, 2), angle=0.5),
    lambda c: c.add_velocity("s1", "a", (1, 2), 0.1),
    lambda c: c.pan("s1", (0, 0), (10, 10), duration=0.05, release_velocity=(1, 1)),
    lambda c: c.replay_samples("s1", [(5, 0, 0), (5.01, 1, 2), (5.02, 3, 4)], pace="step"),
    lambda c: c.run_until("s1", "frame", count=2),
    lambda c: c.close_session("s1"),
]


class StandIn:
    """A Unix socket that keeps each request line and answers it with ``REPLIES`` (a first
    ``list`` without ``from`` says ``next: 1``, to page)."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.lines: List[str] = []
        self.server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.server.bind(path)
        self.server.listen(2)
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while True:
            try:
                connection, _ = self.server.accept()
            except OSError:
                return
            with connection:
                for line in connection.makefile("rb"):
                    self.lines.append(line.decode())
                    request = json.loads(line)
                    reply = dict({"ok": True, "id": request["id"]}, **REPLIES.get(request["op"], {}))
                    if request["op"] == "list" and "from" not in request:
                        reply["next"] = 1
                    connection.sendall(json.dumps(reply).encode() + b"\n")


@pytest.fixture
def stand_in(tmp_path: Path) -> Iterator[StandIn]:
    server = StandIn(str(tmp_path / "stand-in.sock"))
    yield server
    server.server.close()
    os.unlink(server.path)


def outcome(call: Callable[[], Any]) -> str:
    """The type of what `call` returns, or the type of what it raises."""
    try:
        return type(call()).__name__
    except Exception as error:
        return "raised " + type(error).__name__


#: Methods of `Ops` that are not ops.
NOT_OPS = {"start"}


def entries() -> Dict[str, Callable[..., Any]]:
    """The op table's entries: the public methods of `Ops` but `start`."""
    return {
        name: function
        for name, function in inspect.getmembers(Ops, inspect.isfunction)
        if not name.startswith("_") and name not in NOT_OPS
    }


def client_signature(entry: Callable[..., Any]) -> inspect.Signature:
    """The signature a client's method of `entry` must have: the entry's, returning what its
    `Request` or `Plan` results in."""
    signature = inspect.signature(entry)
    result = signature.return_annotation
    for work in ("Request[", "Plan["):
        if result.startswith(work) and result.endswith("]"):
            return signature.replace(return_annotation=result[len(work) : -1])
    raise AssertionError("%s returns %r, not a Request or a Plan" % (entry.__name__, result))


def test_every_entry_of_the_table_is_a_method_of_both_clients() -> None:
    """An entry of `Ops` without its line in `OpMethods` (or with a line naming another
    entry) fails here: each is a method of both clients, with the entry's parameters, the
    type of its result and its documentation."""
    table = entries()
    assert len(table) >= 29
    listed = {name for name, value in vars(OpMethods).items() if isinstance(value, OpMethod)}
    missing = sorted(set(table) - {"run_until"} - listed)
    assert not missing, "entries of Ops without their line in OpMethods: %s" % missing
    assert listed <= set(table), sorted(listed - set(table))
    for name, entry in table.items():
        expected = client_signature(entry)
        for client in (Client, AsyncClient):
            method = getattr(client, name)
            assert inspect.signature(method) == expected, (client, name)
            assert inspect.iscoroutinefunction(method) == (client is AsyncClient), (client, name)
            bound = getattr(object.__new__(client), name)
            assert inspect.signature(bound) == expected.replace(
                parameters=list(expected.parameters.values())[1:]
            ), (client, name)
            if name == "run_until":  # its own method, for its overloads; runs the same entry
                assert "ops.run_until" in inspect.getsource(method)
                continue
            assert method.__wrapped__ is entry, (client, name)
            assert method.__doc__ == entry.__doc__ and method.__name__ == name
            assert method.__qualname__ == "%s.%s" % (client.__name__, name)
            assert method.__module__ == client.__module__


def test_help_shows_the_entry() -> None:
    text = pydoc.plain(pydoc.render_doc(AsyncClient.set_behavior))
    assert "async set_behavior(self, /, session: 'str', behavior: 'str', **fields: 'Any')" in text
    assert "-> 'Ack'" in text and "Sets fields of a behavior" in text
    text = pydoc.plain(pydoc.render_doc(Client.list_sessions))
    assert "list_sessions(self) -> 'List[SessionInfo]'" in text
    assert "Every open session" in text
    assert Client.hello is Client.hello and OpMethods.hello.__doc__ == Ops.hello.__doc__


def test_a_line_must_name_its_entry() -> None:
    with pytest.raises((TypeError, RuntimeError)) as raised:

        class Wrong(OpMethods):
            greet = OpMethod(Ops.hello)

    assert "name it as the entry" in str(raised.value) + str(raised.value.__cause__)


def test_both_clients_send_the_same_lines_and_return_the_same_types(stand_in: StandIn) -> None:
    with Client(stand_in.path, timeout=5) as client:
        blocking = [outcome(lambda: call(client)) for call in CALLS]
    blocking_lines, stand_in.lines = stand_in.lines, []

    async def run() -> List[str]:
        async with await AsyncClient.connect(stand_in.path, timeout=5) as client:
            results = []
            for call in CALLS:
                try:
                    results.append(type(await call(client)).__name__)
                except Exception as error:
                    results.append("raised " + type(error).__name__)
            return results

    assert asyncio.run(run()) == blocking
    assert stand_in.lines == blocking_lines
    assert blocking[:3] == ["Hello", "Opened", "Opened"]
    assert blocking[9:11] == ["list", "str"] and blocking[21] == "list"
    assert blocking[-2:] == ["raised DyndTimeout", "Ack"]
    pages = [json.loads(line) for line in blocking_lines if '"op":"list"' in line]
    assert [page.get("from") for page in pages] == [None, 1, None, 1]  # list_sessions, clock_of


def test_both_clients_yield_typed_events(dynd_daemon: DyndDaemon) -> None:
    with dynd_daemon.client() as client:
        session = client.open_transition("lock-screen", clock="manual").session
        client.request("step", session=session, count=2)
        assert [type(event) for event in client.events("frame")] == [FrameEvent]

    async def run() -> List[type]:
        async with await AsyncClient.connect(dynd_daemon.socket) as client:
            session = (await client.open_transition("lock-screen", clock="manual")).session
            await client.request("step", session=session, count=2)
            return [type(event) async for event in client.events("frame")]

    assert asyncio.run(run()) == [FrameEvent]
