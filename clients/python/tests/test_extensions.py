"""The protocol's extensions the inspector reads: hello's parameters and the behaviors op."""

from __future__ import annotations

import asyncio

import pytest

from dynd import AsyncClient, Client, DyndDaemon, DyndError, parse_reply

SCENE = {
    "items": [
        {"id": "box", "center": [160, 100], "size": [40, 40]},
        {"id": "ball", "center": [100, 100], "size": [30, 30], "shape": "ellipse"},
    ],
    "behaviors": [
        {"type": "gravity", "items": ["box"]},
        {"type": "snap", "id": "snap", "item": "ball", "point": [100, 300]},
        {"type": "attachment", "id": "rope", "item": "box", "anchor": [160, 50]},
    ],
}


def test_hello_lists_each_transitions_parameters(dynd_client: Client) -> None:
    hello = dynd_client.hello()
    assert list(hello.parameters) == hello.transitions
    gravity = hello.parameters["lock-screen"][0]
    assert (gravity.name, gravity.default, gravity.min, gravity.max) == ("gravity", 4, 0.1, 20)
    assert gravity.unit == "× 1000 pt/s²" and gravity.choices is None and gravity.source
    rule = next(p for p in hello.parameters["wave-pop"] if p.name == "complete_rule")
    assert (rule.default, rule.choices, rule.min, rule.unit) == (
        "velocity",
        ["velocity", "position"],
        None,
        None,
    )
    assert gravity.max is not None
    with pytest.raises(DyndError) as caught:
        dynd_client.open_transition("lock-screen", {"gravity": gravity.max + 1})
    assert caught.value.code == "out_of_range"
    # A daemon without the extension: no parameters, nothing missing.
    older = {"ok": True, "protocol": 1, "server": "dynd", "version": "0", "transitions": []}
    assert parse_reply("hello", older).parameters == {}  # type: ignore[attr-defined]


def test_behaviors_reads_back_what_set_behavior_set(dynd_client: Client) -> None:
    session = dynd_client.open_scene(SCENE, clock="manual").session
    dynd_client.set_behavior(session, "snap", point=[120, 250], damping=0.9)
    reply = dynd_client.behaviors(session)
    assert [(b.type, b.id) for b in reply.behaviors] == [
        ("gravity", "b1"),
        ("snap", "snap"),
        ("attachment", "rope"),
    ]
    snap = reply.behavior("snap")
    assert snap is not None
    assert snap.fields == {"item": "ball", "point": [120, 250], "damping": 0.9}
    gravity = reply.behavior("b1")
    assert gravity is not None
    assert gravity.fields == {
        "items": ["box"],
        "direction": [0, 1],
        "angle": 1.570796,
        "magnitude": 1,
    }
    rope = reply.behavior("rope")
    assert rope is not None and rope.fields["range"] is None and rope.fields["length"] == 50
    # An entry's settable fields go back as set_behavior under the same names.
    dynd_client.set_behavior(session, "snap", point=snap.fields["point"], damping=0.25)
    after = dynd_client.behaviors(session).behavior("snap")
    assert after is not None and after.fields == {**snap.fields, "damping": 0.25}
    lock = dynd_client.open_transition("lock-screen", clock="manual").session
    with pytest.raises(DyndError) as caught:
        dynd_client.behaviors(lock)
    assert caught.value.code == "invalid_scene"


def test_the_asyncio_client_reads_behaviors(dynd_daemon: DyndDaemon) -> None:
    async def scenario() -> None:
        async with await AsyncClient.connect(dynd_daemon.socket) as client:
            session = (await client.open_scene(SCENE, clock="manual")).session
            reply = await client.behaviors(session)
            assert [b.id for b in reply.behaviors] == ["b1", "snap", "rope"]
            assert "lock-screen" in (await client.hello()).parameters

    asyncio.run(scenario())
