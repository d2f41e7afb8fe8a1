"""Fields, item groups, composites and action rules: the client's side.

The tests whose names end in ``_offline`` need no daemon: they read replies and events as the
daemon writes them, and check the request lines the new methods send to a stand-in socket. The
others run against the real dynd of the plugin's fixtures and need a dynd with fields, groups,
composites and action rules (dynd issue 14's daemon side).
"""

from __future__ import annotations

import asyncio
import json
import os
import socket
import threading
from pathlib import Path
from typing import Any, Dict, Iterator, List, Tuple

import pytest

from dynd import (
    ActionEvent,
    AsyncClient,
    Client,
    DebugEvent,
    DyndDaemon,
    DyndError,
    ItemsInRect,
    Snapshot,
    parse_event,
    parse_reply,
)

JSON = Dict[str, Any]

SCENE: JSON = {
    "bounds": [320, 568],
    "items": [
        {"id": "left", "center": [100, 100], "size": [40, 40]},
        {"id": "right", "center": [140, 100], "size": [40, 40]},
        {"id": "ball", "center": [260, 100], "size": [30, 30], "shape": "ellipse"},
    ],
    "groups": [{"id": "pair", "items": ["left", "right"]}],
    "behaviors": [
        {
            "type": "composite",
            "id": "world",
            "children": [
                {"type": "gravity", "id": "down", "items": ["pair", "ball"]},
                {
                    "type": "collision",
                    "id": "walls",
                    "items": ["pair", "ball"],
                    "reference_bounds": True,
                },
            ],
        },
        {
            "type": "field",
            "id": "whirl",
            "kind": "vortex",
            "items": ["ball"],
            "position": [160, 284],
            "region": {"radius": 20},
            "strength": 0.5,
        },
        {
            "type": "dynamic_item",
            "id": "props",
            "items": ["ball"],
            "action": [
                {"when": {"item": "ball", "inside": [0, 400, 320, 168]}, "then": [{"emit": "low"}]},
            ],
        },
    ],
}


# Offline: replies and events as the daemon writes them -------------------------------------


def test_action_events_are_typed_offline() -> None:
    event = parse_event(
        {
            "ev": "action", "session": "s", "seq": 12, "t": 0.2, "behavior": "drop",
            "name": "landed", "item": "ball",
        }
    )
    assert isinstance(event, ActionEvent)
    assert (event.seq, event.t, event.behavior, event.name, event.item) == (
        12, 0.2, "drop", "landed", "ball"
    )
    always = parse_event(
        {"ev": "action", "session": "s", "seq": 1, "t": 0, "behavior": "b", "name": "n",
         "item": None}
    )
    assert isinstance(always, ActionEvent) and always.item is None


def test_debug_events_carry_fields_and_groups_offline() -> None:
    field = {
        "id": "f", "kind": "spring", "position": [1, 2], "region": {"radius": 40}, "strength": 2.5,
        "items": ["a"], "samples": [[0, 0, 0.01, -3]],
    }
    group = {"id": "g", "items": ["a", "b"], "center": [5, 6], "angle": 0.1, "size": [20, 10]}
    raw = {
        "ev": "debug", "session": "s", "seq": 3, "t": 0.05, "boundaries": [], "attachments": [],
        "snaps": [], "pushes": [], "gravity": [], "fields": [field], "groups": [group],
        "contacts": [],
    }
    event = parse_event(raw)
    assert isinstance(event, DebugEvent)
    assert event.fields == [field] and event.groups == [group]
    older = parse_event({k: v for k, v in raw.items() if k not in ("fields", "groups")})
    assert isinstance(older, DebugEvent) and older.fields == [] and older.groups == []


def test_replies_are_typed_offline() -> None:
    found = parse_reply("items_in_rect", {"ok": True, "id": 4, "items": ["a", "b"]})
    assert isinstance(found, ItemsInRect) and found.items == ["a", "b"] and found.id == 4
    bare: JSON = {"ok": True, "t": 0, "running": False, "items": []}
    snapshot = parse_reply("get", dict(bare, groups=[{"id": "pair", "items": ["left", "right"]}]))
    assert isinstance(snapshot, Snapshot) and snapshot.groups == {"pair": ["left", "right"]}
    older = parse_reply("get", bare)
    assert isinstance(older, Snapshot) and older.groups == {}


class StandIn:
    """A Unix socket that answers each request line with ``{"ok": true, ...}`` (the reply the
    test gives for its op) and keeps the requests, for the methods' request lines."""

    def __init__(self, directory: Path, replies: Dict[str, JSON]) -> None:
        self.path = str(directory / "stand-in.sock")
        self.replies = replies
        self.requests: List[JSON] = []
        self.server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.server.bind(self.path)
        self.server.listen(2)
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self.server.accept()
            except OSError:
                return
            with conn:
                buffer = b""
                while True:
                    chunk = conn.recv(65536)
                    if not chunk:
                        break
                    buffer += chunk
                    while b"\n" in buffer:
                        line, buffer = buffer.split(b"\n", 1)
                        request = json.loads(line)
                        self.requests.append(request)
                        reply = dict(
                            {"ok": True, "id": request["id"]}, **self.replies.get(request["op"], {})
                        )
                        conn.sendall(json.dumps(reply).encode() + b"\n")

    def close(self) -> None:
        self.server.close()
        os.unlink(self.path)


@pytest.fixture
def stand_in(tmp_path: Path) -> Iterator[StandIn]:
    directory = tmp_path / "s"
    directory.mkdir(mode=0o700)
    server = StandIn(directory, {"items_in_rect": {"items": ["left", "ball"]}})
    yield server
    server.close()


EXPECTED_LINES = [
    {"op": "add_group", "id": 1, "session": "S",
     "group": {"id": "pair", "items": ["left", "right"]}},
    {"op": "items_in_rect", "id": 2, "session": "S", "rect": [0.0, 0.0, 160.0, 284.0]},
    {"op": "set_bounds", "id": 3, "session": "S", "bounds": [320.0, 480.0]},
    {"op": "set_bounds", "id": 4, "session": "S", "bounds": [-10.0, 0.0, 300.0, 500.0]},
    {"op": "remove_group", "id": 5, "session": "S", "group": "pair"},
]


def test_the_new_ops_send_their_lines_offline(stand_in: StandIn) -> None:
    with Client(stand_in.path, timeout=5) as client:
        client.add_group("S", "pair", ["left", "right"])
        assert client.items_in_rect("S", (0, 0, 160, 284)) == ["left", "ball"]
        client.set_bounds("S", (320, 480))
        client.set_bounds("S", [-10, 0, 300, 500])
        client.remove_group("S", "pair")
        with pytest.raises(ValueError):
            client.items_in_rect("S", (0, 0))
        with pytest.raises(ValueError):
            client.set_bounds("S", (1, 2, 3))
    assert stand_in.requests == EXPECTED_LINES


def test_the_asyncio_client_sends_the_same_lines_offline(stand_in: StandIn) -> None:
    async def scenario() -> List[str]:
        async with await AsyncClient.connect(stand_in.path, timeout=5) as client:
            await client.add_group("S", "pair", ["left", "right"])
            found = await client.items_in_rect("S", (0, 0, 160, 284))
            await client.set_bounds("S", (320, 480))
            await client.set_bounds("S", [-10, 0, 300, 500])
            await client.remove_group("S", "pair")
            return found

    assert asyncio.run(scenario()) == ["left", "ball"]
    assert stand_in.requests == EXPECTED_LINES


# Against dynd (needs the daemon side of fields, groups, composites and action rules) ---------


def test_groups_move_as_one_and_report_their_members(dynd_client: Client) -> None:
    session = dynd_client.open_scene(SCENE, clock="manual").session
    snapshot = dynd_client.get(session)
    assert snapshot.groups == {"pair": ["left", "right"]}
    start = {s.id: s.center for s in snapshot.items}
    frames = dynd_client.step(session, count=20).frames
    last = frames[-1]
    left, right = last.item("left"), last.item("right")
    assert left is not None and right is not None
    assert left.center[1] > start["left"][1]  # the group falls under gravity
    gap = (right.center[0] - left.center[0], right.center[1] - left.center[1])
    assert abs(gap[0] - 40) < 1e-3 and abs(gap[1]) < 1e-3  # as one rigid body
    dynd_client.remove_group(session, "pair")
    with pytest.raises(DyndError):
        dynd_client.remove_group(session, "pair")


def test_items_in_rect_and_set_bounds(dynd_client: Client) -> None:
    session = dynd_client.open_scene(SCENE, clock="manual").session
    assert dynd_client.items_in_rect(session, (0, 0, 150, 200)) == ["left", "right"]
    assert dynd_client.items_in_rect(session, (1000, 1000, 1, 1)) == []
    dynd_client.set_bounds(session, (320, 480))
    assert dynd_client.get(session).bounds == (0, 0, 320, 480)
    with pytest.raises(DyndError) as caught:
        dynd_client.set_bounds(session, (0, 480))
    assert caught.value.code == "out_of_range"


def test_fields_and_composites_read_back(dynd_client: Client) -> None:
    session = dynd_client.open_scene(SCENE, clock="manual").session
    reply = dynd_client.behaviors(session)
    world = reply.behavior("world")
    assert world is not None and world.type == "composite"
    assert [child["id"] for child in world.fields["children"]] == ["down", "walls"]
    whirl = reply.behavior("whirl")
    assert whirl is not None and whirl.fields["kind"] == "vortex"
    assert whirl.fields["region"] == {"radius": 20} and whirl.fields["strength"] == 0.5
    dynd_client.set_behavior(session, "whirl", strength=-1, region={"inverse": {"radius": 10}})
    after = dynd_client.behaviors(session).behavior("whirl")
    assert after is not None and after.fields["strength"] == -1
    geometry = dynd_client.debug(session).debug
    assert geometry is not None and [f["id"] for f in geometry["fields"]] == ["whirl"]
    assert [g["id"] for g in geometry["groups"]] == ["pair"]


def test_action_rules_emit_events(dynd_client: Client) -> None:
    session = dynd_client.open_scene(SCENE, clock="manual").session
    event = dynd_client.run_until(session, "action", max_seconds=5)
    assert isinstance(event, ActionEvent)
    assert (event.behavior, event.name, event.item) == ("props", "low", "ball")
    dynd_client.set_behavior(session, "props", action=[])
    props = dynd_client.behaviors(session).behavior("props")
    assert props is not None and "action" not in props.fields


def test_the_asyncio_client_runs_the_new_ops(dynd_daemon: DyndDaemon) -> None:
    async def scenario() -> Tuple[List[str], Dict[str, List[str]]]:
        async with await AsyncClient.connect(dynd_daemon.socket) as client:
            session = (await client.open_scene(SCENE, clock="manual")).session
            # A grouped item moves only with its group: group one no behavior holds.
            spare = {"id": "spare", "center": [200, 300], "size": [10, 10]}
            await client.add_item(session, spare)
            await client.add_group(session, "solo", ["spare"])
            await client.set_bounds(session, (0, 0, 320, 568))
            found = await client.items_in_rect(session, (0, 0, 320, 568))
            groups = (await client.get(session)).groups
            await client.remove_group(session, "solo")
            return found, groups

    found, groups = asyncio.run(scenario())
    assert found == ["left", "right", "ball"]
    assert groups == {"pair": ["left", "right"], "solo": ["spare"]}
