"""The blocking and asyncio clients against a real dynd."""

from __future__ import annotations

import asyncio
import json
import os
import time
from pathlib import Path

import pytest

import dynd
from dynd import (
    AsyncClient,
    Client,
    DaemonNotRunning,
    DyndDaemon,
    DyndError,
    DyndTimeout,
    FrameEvent,
    HandoffEvent,
    UntrustedSocket,
)

DROP = {
    "bounds": [200, 200],
    "items": [{"id": "a", "center": [100, 150], "size": [20, 20]}],
    "behaviors": [
        {"type": "gravity", "items": ["a"]},
        {"type": "collision", "items": ["a"], "reference_bounds": True},
    ],
}


def test_hello_is_typed(dynd_client: Client) -> None:
    hello = dynd_client.hello()
    assert (hello.protocol, hello.server) == (1, "dynd")
    assert "lock-screen" in hello.transitions
    assert hello.raw["ok"] is True


def test_error_replies_are_one_exception_with_the_code(dynd_client: Client) -> None:
    with pytest.raises(DyndError) as caught:
        dynd_client.get("no-such-session")
    assert caught.value.code == dynd.errors.UNKNOWN_SESSION
    assert caught.value.message == "no session is named 'no-such-session'"
    assert caught.value.reply["ok"] is False
    with pytest.raises(DyndError) as caught:
        dynd_client.open_transition("lock-screen", {"gravty": 5})
    assert caught.value.code == "unknown_field" and "'gravty'" in caught.value.message
    with pytest.raises(DyndError) as caught:
        dynd_client.request("helo", id=7)
    assert (caught.value.code, caught.value.request_id) == ("unknown_op", 7)
    realtime = dynd_client.open_transition("lock-screen").session
    with pytest.raises(DyndError) as caught:
        dynd_client.step(realtime)
    assert caught.value.code == dynd.errors.BUSY
    assert caught.value.code in dynd.ERROR_CODES


def test_scene_from_dict_and_from_file(dynd_client: Client, tmp_path: Path) -> None:
    opened = dynd_client.open_scene(DROP, clock="manual")
    assert opened.items[0].size == (20, 20)
    stepped = dynd_client.step(opened.session, count=3, dt=0.05)
    assert [f.seq for f in stepped.frames] == [1, 2, 3]
    assert stepped.frames[-1].item("a").velocity == (0, 150)  # type: ignore[union-attr]
    assert stepped.running and stepped.t == 0.15
    path = tmp_path / "drop.json"
    path.write_text(json.dumps(DROP))
    from_file = dynd_client.open_scene(str(path), clock="manual", session="from-file")
    assert from_file.session == "from-file"
    snapshot = dynd_client.get("from-file")
    assert snapshot.item("a").center == (100, 150)  # type: ignore[union-attr]
    assert {s.session for s in dynd_client.list_sessions()} >= {opened.session, "from-file"}


def test_scene_ops(dynd_client: Client) -> None:
    session = dynd_client.open_scene({"bounds": [100, 100]}, clock="manual").session
    dynd_client.add_item(session, {"id": "box", "center": [50, 50], "size": [10, 10]})
    added = dynd_client.add_behavior(session, {"type": "gravity", "items": ["box"]})
    assert added.behavior == "b1"
    assert [e.ev for e in added.events] == ["resume"]
    dynd_client.set_behavior(session, "b1", magnitude=0.5)
    dynd_client.set_item(session, "box", center=(40, 40))
    dynd_client.add_velocity(session, "box", velocity=(10, 0))
    assert dynd_client.debug(session).debug["gravity"]  # type: ignore[index]
    dynd_client.remove_all_behaviors(session)
    with pytest.raises(DyndError) as caught:
        dynd_client.remove_item(session, "zz")
    assert caught.value.code == "unknown_item"


def test_pan_samples_as_dynctl_gesture_sends_them() -> None:
    samples = dynd.pan_samples((160, 500), (160, 380), 0.2, (0, -1400))
    assert len(samples) == 13
    assert [s.phase for s in samples] == ["began"] + ["changed"] * 11 + ["ended"]
    assert (samples[0].t, samples[0].y, samples[0].step) == (0, 500, None)
    assert samples[-1].t == 0.2 and samples[-1].y == 380 and samples[-1].velocity == (0, -1400)
    assert all(s.velocity is None for s in samples[:-1])
    assert all(abs(s.step - 0.2 / 12) < 1e-15 for s in samples[1:])  # type: ignore[operator]
    assert dynd.pan_samples((0, 0), (1, 1), 0.2, cancel=True)[-1].phase == "cancelled"


def test_sheet_handoff_carries_its_projection_detent_and_spring(dynd_client: Client) -> None:
    sheet = dynd_client.open_transition("sheet", clock="manual").session
    pan = dynd_client.pan(sheet, (160, 500), (160, 470), duration=0.1, release_velocity=(0, -2000))
    handoff = pan.handoff
    assert isinstance(handoff, HandoffEvent)
    assert handoff.item_velocity == (0, -2000)
    assert handoff.detent == "large" and handoff.projection is not None
    assert handoff.projection[1] < 0  # a flick up projects past the top
    assert handoff.spring is not None and handoff.spring["mass"] == 1
    assert handoff.spring["damping_ratio"] == 1  # SwiftUI's default spring: no bounce
    done = dynd_client.run_until(sheet, "done")
    assert done.raw["outcome"] == "large"
    lock = dynd_client.open_transition("lock-screen", clock="manual").session
    plain = dynd_client.pan(lock, (160, 500), (160, 380), duration=0.2).handoff
    assert plain is not None and (plain.projection, plain.detent, plain.spring) == (None,) * 3
    assert plain.decay is None


def test_fling_handoff_carries_its_decay_and_where_it_stops(dynd_client: Client) -> None:
    fling = dynd_client.open_transition("fling", clock="manual", params={"drag": 0.2}).session
    pan = dynd_client.pan(fling, (160, 284), (200, 244), duration=0.1, release_velocity=(500, -800))
    handoff = pan.handoff
    assert isinstance(handoff, HandoffEvent)
    assert handoff.decay == {"drag": 0.2} and handoff.projection is not None
    assert handoff.detent is None and handoff.spring is None
    done = dynd_client.run_until(fling, "done")
    assert done.raw["outcome"] == "stopped"
    card = dynd_client.get(fling).items[0]
    assert max(abs(card.center[i] - handoff.projection[i]) for i in (0, 1)) < 0.0011


def test_manual_pan_steps_between_samples_and_runs_to_the_outcome(dynd_client: Client) -> None:
    lock = dynd_client.open_transition("lock-screen", clock="manual").session
    pan = dynd_client.pan(lock, (160, 500), (160, 380), duration=0.2, release_velocity=(0, -1400))
    frames = [e for e in pan.events if isinstance(e, FrameEvent)]
    assert len(frames) == 12  # one frame stepped between two samples
    assert isinstance(pan.handoff, HandoffEvent)
    assert pan.handoff.item_velocity == (0, -1400)
    done = dynd_client.run_until(lock, "done")
    assert done.raw == {"ev": "done", "session": lock, "outcome": "opened"}


def test_tap_and_swipe(dynd_client: Client) -> None:
    lock = dynd_client.open_transition("lock-screen", clock="manual").session
    assert not dynd_client.tap(lock, 10, 10).taken  # not the camera grabber: nothing changes
    tap = dynd_client.tap(lock, 300, 550)
    assert tap.taken and tap.events == []  # a manual session moves when stepped
    assert dynd_client.run_until(lock).outcome == "bounced"
    swipe = dynd_client.swipe(lock, "up", at=(160, 300), velocity=(0, -100))
    assert not swipe.taken and swipe.events == []  # the lock screen ignores swipes


def test_watch_says_whether_the_outcome_already_came(
    dynd_daemon: DyndDaemon, dynd_client: Client
) -> None:
    lock = dynd_client.open_transition("lock-screen", clock="manual", keep=True).session
    with dynd_daemon.client() as watcher:
        before = watcher.watch(lock)
        assert (before.outcome, before.t) == (None, 0)
        dynd_client.pan(lock, (160, 500), (160, 380), duration=0.2, release_velocity=(0, -1400))
        dynd_client.run_until(lock, "done")
        after = watcher.watch(lock)
        assert after.outcome == "opened" and after.t > 0.2
        dynd_client.pan(lock, (160, 100), (160, 90), duration=0.05)  # a new gesture cycle
        assert watcher.watch(lock).outcome is None


def test_realtime_pan_is_paced_by_the_wall_clock(dynd_client: Client) -> None:
    lock = dynd_client.open_transition("lock-screen").session
    started = time.monotonic()
    pan = dynd_client.pan(lock, (160, 500), (160, 380), duration=0.2, release_velocity=(0, -1400))
    assert time.monotonic() - started >= 0.2
    assert pan.handoff is not None
    assert dynd_client.run_until(lock, "done", timeout=5).outcome == "opened"


def test_waiting_for_an_event_that_does_not_come_raises_a_clear_error(dynd_client: Client) -> None:
    lock = dynd_client.open_transition("lock-screen", clock="manual").session
    started = time.monotonic()
    with pytest.raises(DyndTimeout) as caught:
        dynd_client.wait_for("done", lock, timeout=0.2)
    assert time.monotonic() - started < 2
    assert (
        str(caught.value)
        == "a 'done' event of session '%s' did not come within 0.2 s (no events came meanwhile)"
        % lock
    )
    scene = dynd_client.open_scene(DROP, clock="manual").session
    with pytest.raises(DyndTimeout) as caught:
        dynd_client.run_until(scene, "done")
    assert "did not come: the session came to rest" in str(caught.value)
    assert "1 pause" in str(caught.value)


def test_a_watcher_sees_frames_and_the_close(dynd_daemon: DyndDaemon, dynd_client: Client) -> None:
    session = dynd_client.open_scene(DROP, clock="manual", keep=True).session
    with dynd_daemon.client() as watcher:
        assert watcher.watch(session).items[0].id == "a"
        dynd_client.step(session, dt=0.1)
        frame = watcher.wait_for("frame", session, timeout=5)
        assert isinstance(frame, FrameEvent) and frame.t == 0.1
        dynd_client.close_session(session)
        closed = watcher.wait_for("closed", session, timeout=5)
        assert closed.reason == "closed"  # type: ignore[attr-defined]


def test_no_daemon_names_the_socket_and_how_to_start_dynd(tmp_path: Path) -> None:
    missing = str(tmp_path / "nobody.sock")
    with pytest.raises(DaemonNotRunning) as caught:
        Client(missing)
    message = str(caught.value)
    assert message.startswith("no dynd is listening on %s (No such file or directory)" % missing)
    assert "start one with `dynd`" in message and "$DYND_SOCKET" in message
    assert isinstance(caught.value, OSError)


def test_the_default_directory_is_checked_before_connecting(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "dynd").mkdir(mode=0o700)
    os.chmod(tmp_path / "dynd", 0o755)
    monkeypatch.delenv("DYND_SOCKET", raising=False)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path))
    with pytest.raises(UntrustedSocket) as caught:
        Client()
    assert str(caught.value).startswith(
        "refusing the socket directory %s/dynd: its mode is 0755" % tmp_path
    )
    with pytest.raises(UntrustedSocket):
        asyncio.run(AsyncClient.connect())


def test_the_asyncio_client(dynd_daemon: DyndDaemon) -> None:
    async def scenario() -> None:
        async with await AsyncClient.connect(dynd_daemon.socket) as client:
            assert (await client.hello()).server == "dynd"
            lock = (await client.open_transition("lock-screen", clock="manual")).session
            pan = await client.pan(
                lock, (160, 500), (160, 380), duration=0.2, release_velocity=(0, -1400)
            )
            assert pan.handoff is not None and pan.handoff.item_velocity == (0, -1400)
            assert (await client.run_until(lock)).outcome == "opened"
            stopped = (await client.open_transition("lock-screen", clock="manual")).session
            for i, (x, y, t) in enumerate(FLICK):
                await client.gesture(stopped, "began" if i == 0 else "changed", x, y, t=t)
            late = (await client.gesture(stopped, "ended", 160, 200, t=0.155)).handoff
            assert late is not None and late.estimate is not None
            assert late.estimate.explanation == STILL_55_MS
            realtime = (await client.open_transition("lock-screen")).session
            await client.pan(
                realtime, (160, 500), (160, 380), duration=0.1, release_velocity=(0, 100)
            )
            assert (await client.wait_for("done", realtime, timeout=5)).outcome == "closed"
            with pytest.raises(DyndTimeout):
                await client.wait_for("done", realtime, timeout=0.2)
            with pytest.raises(DyndError) as caught:
                await client.get("nope")
            assert caught.value.code == "unknown_session"
        with pytest.raises(DaemonNotRunning):
            await AsyncClient.connect(dynd_daemon.socket + ".missing")

    asyncio.run(scenario())


#: The issue's flick: 300 pt up in 100 ms at 60 Hz, then still until lift-off.
FLICK = [(160.0, 500.0 - 50 * i, i / 60) for i in range(7)]
STILL_55_MS = (
    "release velocity 0 pt/s: the pointer was still for 55 ms before lift-off "
    "(Android's and Flutter's 40 ms rule)"
)


def test_a_release_velocity_estimate_is_typed(dynd_client: Client) -> None:
    lock = dynd_client.open_transition("lock-screen", clock="manual").session
    for i, (x, y, t) in enumerate(FLICK):
        dynd_client.gesture(lock, "began" if i == 0 else "changed", x, y, t=t)
    handoff = dynd_client.gesture(lock, "ended", 160, 200, t=0.155).handoff
    assert handoff is not None and handoff.gesture_velocity == (0, 0)
    estimate = handoff.estimate
    assert estimate is not None
    assert (estimate.reason, estimate.samples, estimate.still_ms) == ("pointer_stopped", 7, 55)
    assert estimate.explanation == STILL_55_MS
    # Lifted 5 ms after the last move: the fit, nothing to explain.
    for i, (x, y, t) in enumerate(FLICK):
        dynd_client.gesture(lock, "began" if i == 0 else "changed", x, y, t=1 + t)
    fitted = dynd_client.gesture(lock, "ended", 160, 200, t=1.105).handoff
    assert fitted is not None and fitted.gesture_velocity == (0, -3000)
    assert fitted.estimate is not None and fitted.estimate.reason == "estimated"
    assert fitted.estimate.explanation is None
    # Given by the client: no estimate.
    dynd_client.gesture(lock, "began", 160, 500, t=2)
    given = dynd_client.gesture(lock, "ended", 160, 500, t=2.1, velocity=(0, -900)).handoff
    assert given is not None and given.estimate is None
    # A newer daemon's reason is kept, without a sentence.
    newer = dynd.parse_event(dict(handoff.raw, estimate={"reason": "guessed", "samples": 2}))
    assert isinstance(newer, HandoffEvent) and newer.estimate is not None
    assert (newer.estimate.reason, newer.estimate.explanation) == ("guessed", None)


def test_get_gives_each_items_shape(dynd_client: Client) -> None:
    scene = {
        "items": [
            {"id": "ball", "center": [50, 50], "size": [40, 30], "shape": "ellipse"},
            {
                "id": "tri",
                "center": [150, 50],
                "size": [40, 40],
                "shape": "path",
                "path": [[0, -20], [20, 20], [-20, 20]],
            },
            {"id": "box", "center": [100, 150], "size": [30, 20]},
        ]
    }
    session = dynd_client.open_scene(scene, clock="manual").session
    items = {item.id: item for item in dynd_client.get(session).items}
    assert (items["ball"].shape, items["ball"].path) == ("ellipse", None)
    assert items["tri"].shape == "path"
    assert items["tri"].path == [(0, -20), (20, 20), (-20, 20)]
    assert (items["box"].shape, items["box"].path) == ("rectangle", None)


def test_the_daemon_stops_cleanly(dynd_binary: str) -> None:
    daemon = DyndDaemon.start(dynd_binary)
    with daemon.client() as client:
        client.open_transition("lock-screen")
        status, _ = daemon.stop()
        assert {"ev": "shutdown", "reason": "terminated"} in [e.raw for e in client.events()]
    assert status == 0
    assert not os.path.exists(daemon.directory)
    assert daemon.stop()[0] == 0  # twice is harmless


def test_a_transition_opens_in_the_bounds_given(dynd_client: Client) -> None:
    phone = dynd_client.open_transition("sheet", clock="manual", bounds=(412, 915)).session
    state = dynd_client.get(phone)
    assert state.raw["bounds"] == [0, 0, 412, 915]
    assert state.raw["params"]["medium_detent"] == 457.5
    assert state.items[0].size == (412, 915)
    tables = {p.name: p for p in dynd_client.hello().parameters["sheet"]}
    assert tables["medium_detent"].of_bounds == {"default": "height * 0.5", "max": "height"}
    assert tables["initial_detent"].of_bounds is None


def test_samples_too_far_apart_are_named_with_their_gap(dynd_client: Client) -> None:
    lock = dynd_client.open_transition("lock-screen", clock="manual").session
    for i in range(5):
        dynd_client.gesture(lock, "began" if i == 0 else "changed", 160, 500 - 60 * i, t=0.05 * i)
    handoff = dynd_client.gesture(lock, "ended", 160, 260, t=0.21).handoff
    assert handoff is not None and handoff.estimate is not None
    assert handoff.estimate.reason == "sparse_samples"
    assert handoff.estimate.gap_ms == 50
    assert handoff.estimate.explanation == (
        "release velocity 0 pt/s: the samples came 50 ms apart, more than the estimator's 40 ms, "
        "so each began the estimate afresh (send one at least every 40 ms: a 60 Hz display "
        "sends one every 16.7 ms)"
    )


def test_a_transition_defined_by_a_document_opens_by_its_name(dynd_client: Client) -> None:
    card = {
        "transition": "py-card",
        "parameters": [{"name": "inset", "default": 20, "min": 0, "max": 40}],
        "scene": {"items": [{"id": "card", "center": ["=mid_x", "=mid_y"],
                             "size": ["=width - 2 * inset", 100]}]},
    }
    dynd_client.define(card)
    assert "py-card" in dynd_client.hello().transitions
    opened = dynd_client.open_transition("py-card", {"inset": 6}, clock="manual", bounds=(412, 915))
    assert opened.items[0].size == (400, 100)
    with pytest.raises(dynd.DyndError) as refused:
        dynd_client.define(dict(card, colour=1))
    assert refused.value.code == "invalid_scene"
    assert "/colour: unknown field" in str(refused.value)
