"""The Python readers of recorded strokes pass the cases the Swift module passes
(Tests/Shared/strokes/expected.json; docs/STROKES.md), and `replay_samples` sends a stroke with
its own timestamps."""

import json
import os
from typing import Any, Dict, List

import pytest

from dynd import Client, StrokeReadError, read_samples
from dynd.strokes import FORMATS, format_of, parse_samples, summary

REPOSITORY = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..")
FOLDER = os.path.join(REPOSITORY, "Tests", "Shared", "strokes")


def load_cases() -> List[Dict[str, Any]]:
    with open(os.path.join(FOLDER, "expected.json"), encoding="utf-8") as file:
        cases: List[Dict[str, Any]] = json.load(file)["cases"]
    return cases


CASES = load_cases()


def read(case: Dict[str, Any]) -> List[Any]:
    units = case.get("units", {})
    info = units.get("device_info")
    return read_samples(
        os.path.join(FOLDER, case["file"]),
        points_per_inch=units.get("points_per_inch", 160.0),
        screen=units.get("screen"),
        device_info=None if info is None else os.path.join(FOLDER, info),
    )


def test_the_table_covers_every_format() -> None:
    assert len(CASES) >= 19
    for name in FORMATS:
        files = [c for c in CASES if format_of(c["file"]) == name]
        assert any("samples" in c for c in files), name
        assert any("error" in c for c in files), name


@pytest.mark.parametrize("case", CASES, ids=[case["name"] for case in CASES])
def test_the_shared_stroke_cases(case: Dict[str, Any]) -> None:
    if "error" in case:
        with pytest.raises(StrokeReadError) as caught:
            read(case)
        assert caught.value.line == case["error"]["line"], str(caught.value)
        assert case["error"]["contains"] in caught.value.message, str(caught.value)
        assert str(caught.value).startswith("line %d: " % case["error"]["line"])
        return
    samples = read(case)
    assert len(samples) == len(case["samples"])
    for got, want in zip(samples, case["samples"]):
        assert max(abs(g - w) for g, w in zip(got, want)) <= 1e-9, (got, want)
    counts = summary(samples)
    assert counts["repeated"] == case.get("repeated_times", 0)
    assert counts["backward"] == case.get("backward_times", 0)


def test_a_trace_gives_its_first_pan() -> None:
    text = "\n".join(
        [
            '{"trace":1,"source":"transition","transition":"toss","session":"s"}',
            '{"sent":{"op":"gesture","phase":"changed","x":9,"y":9,"t":0}}',
            '{"sent":{"op":"gesture","phase":"began","x":1,"y":2,"t":0.5}}',
            '{"sent":{"op":"gesture","phase":"changed","x":3,"y":4,"t":0.51}}',
            '{"sent":{"op":"gesture","phase":"ended","x":5,"y":6,"t":0.52}}',
            '{"sent":{"op":"gesture","phase":"began","x":7,"y":8,"t":1}}',
        ]
    )
    samples = parse_samples(text, "jsonl")
    assert [s.t for s in samples] == [0.5, 0.51, 0.52]
    assert [s.x for s in samples] == [1, 3, 5]


def test_replay_samples_sends_the_recorded_times(dynd_client: Client) -> None:
    # flick.csv moves at 1250 pt/s upward, 125 Hz: the platform estimator is exact at constant
    # speed, so the handoff carries exactly that velocity if the recorded times were sent.
    samples = read_samples(os.path.join(FOLDER, "flick.csv"))
    session = dynd_client.open_transition("lock-screen", clock="manual").session
    result = dynd_client.replay_samples(session, samples)
    handoff = result.handoff
    assert handoff is not None
    assert handoff.estimate is not None and handoff.estimate.reason == "estimated"
    assert handoff.gesture_velocity == pytest.approx((0, -1250), abs=0.002)
    dynd_client.close_session(session)


@pytest.mark.parametrize("screen", [(0, 2802, 320), (1402, 2802), (1402, 2802, float("nan"))])
def test_a_screen_that_is_not_three_positive_numbers_is_refused(screen: Any) -> None:
    with open(os.path.join(FOLDER, "touchscreen-nores.yml"), encoding="utf-8") as file:
        text = file.read()
    with pytest.raises(ValueError, match="screen must be"):
        parse_samples(text, "libinput", screen=screen)
