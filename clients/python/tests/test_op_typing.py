"""The static types of the op methods (`dynd.ops.OpMethods`), checked by ``mypy --strict``
(check.sh): each assignment below type-checks only if the method returns that type, and each
``# type: ignore[code]`` line is a call mypy must refuse with that code (``--strict`` warns of
an unused ignore, so a method typed ``Any``, or too loosely, fails the check). The test runs
the well-typed calls against the real dynd, so they are right at run time too."""

from __future__ import annotations

import asyncio
from typing import List

from dynd import (
    Ack,
    AsyncClient,
    BehaviorAdded,
    Client,
    DoneEvent,
    DyndDaemon,
    Hello,
    Opened,
    PanResult,
    SessionInfo,
    Snapshot,
    Stepped,
)

SCENE = {
    "bounds": [320, 568],
    "items": [{"id": "box", "center": [100, 100], "size": [40, 40]}],
}
GRAVITY = {"type": "gravity", "items": ["box"]}


def blocking(client: Client) -> List[str]:
    """Every kind of op method of `Client`: one request, a plan, keyword-only and ``**fields``
    parameters, and the class's function called with the client."""
    hello: Hello = client.hello()
    opened: Opened = client.open_transition("lock-screen", clock="manual")
    session = opened.session
    stepped: Stepped = client.step(session, 2, dt=0.01)
    snapshot: Snapshot = client.get(session)
    sessions: List[SessionInfo] = client.list_sessions()
    clock: str = client.clock_of(session)
    pan: PanResult = client.pan(session, (160, 500), (160, 380), duration=0.05)
    done: DoneEvent = client.run_until(session)
    scene: Opened = Client.open_scene(client, SCENE, clock="manual")
    added: BehaviorAdded = client.add_behavior(scene.session, GRAVITY)
    changed: Ack = client.set_behavior(scene.session, added.behavior, magnitude=0.5)
    inside: List[str] = client.items_in_rect(scene.session, (0, 0, 320, 568))
    closed: Ack = client.close_session(scene.session)
    return [
        type(value).__name__
        for value in (hello, stepped, snapshot, sessions, clock, pan, done, changed, inside)
    ] + [type(closed).__name__]


async def asynchronous(client: AsyncClient) -> List[str]:
    """The same with `AsyncClient`: each op method returns a coroutine of the same type."""
    hello: Hello = await client.hello()
    task: asyncio.Task[Hello] = asyncio.ensure_future(client.hello())
    opened: Opened = await client.open_transition("lock-screen", clock="manual")
    session = opened.session
    stepped: Stepped = await client.step(session, 2, dt=0.01)
    snapshot: Snapshot = await client.get(session)
    sessions: List[SessionInfo] = await client.list_sessions()
    clock: str = await client.clock_of(session)
    pan: PanResult = await client.pan(session, (160, 500), (160, 380), duration=0.05)
    done: DoneEvent = await client.run_until(session)
    scene: Opened = await AsyncClient.open_scene(client, SCENE, clock="manual")
    added: BehaviorAdded = await client.add_behavior(scene.session, GRAVITY)
    changed: Ack = await client.set_behavior(scene.session, added.behavior, magnitude=0.5)
    inside: List[str] = await client.items_in_rect(scene.session, (0, 0, 320, 568))
    closed: Ack = await client.close_session(scene.session)
    await task
    return [
        type(value).__name__
        for value in (hello, stepped, snapshot, sessions, clock, pan, done, changed, inside)
    ] + [type(closed).__name__]


def refused(client: Client, aclient: AsyncClient) -> None:
    """Calls mypy must refuse (never run): wrong results, arguments and parameters."""
    wrong: Ack = client.hello()  # type: ignore[assignment]
    not_yet: Hello = aclient.hello()  # type: ignore[assignment]
    client.hello(1)  # type: ignore[call-arg]
    client.tap("s1", "x", 2)  # type: ignore[arg-type]
    client.step("s1", counts=2)  # type: ignore[call-arg]
    client.pan("s1", (0, 0), (1, 1), 0.2)  # type: ignore[misc]
    client.open_transition()  # type: ignore[call-arg]
    Client.hello(aclient)  # type: ignore[arg-type]
    del wrong, not_yet


def test_the_typed_calls_run(dynd_daemon: DyndDaemon) -> None:
    expected = [
        "Hello", "Stepped", "Snapshot", "list", "str", "PanResult", "DoneEvent", "Ack", "list",
        "Ack",
    ]  # fmt: skip
    with dynd_daemon.client() as client:
        assert blocking(client) == expected

    async def run() -> List[str]:
        async with await AsyncClient.connect(dynd_daemon.socket) as client:
            return await asynchronous(client)

    assert asyncio.run(run()) == expected
