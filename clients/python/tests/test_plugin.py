"""The pytest plugin: the daemon fixtures, the binary lookup, and assert_handoff — including
that it fails, with a readable report, when the handoff is not what the test asserts."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import dynd
from dynd import BinaryMissing, BinaryNotFound, Client, HandoffEvent, assert_handoff, check_handoff

START, END = (160, 500), (160, 380)


def flick(client: Client, velocity: tuple[float, float]) -> tuple[str, dynd.PanResult]:
    session = client.open_transition("lock-screen", clock="manual").session
    return session, client.pan(session, START, END, duration=0.2, release_velocity=velocity)


def test_a_rail_projection_passes_and_is_verified(dynd_client: Client) -> None:
    session, pan = flick(dynd_client, (1234, -1400))
    check = assert_handoff(dynd_client, session, pan, expected=(0, -1400), require_motion=True)
    assert check.passed and check.verified
    assert check.expected == (0, -1400)
    assert check.sentences == [
        "the item runs on a rail along (0, 1): (1234, -1400) projected onto it is (0, -1400) pt/s"
    ]
    assert check.motion.held == (0, -1400)
    assert check.motion.first == (0, -1466.667)
    # The measurement's frames stay readable: the outcome is not lost.
    assert dynd_client.run_until(session).outcome == "opened"


def test_a_realtime_session_says_to_open_it_on_the_manual_clock(dynd_client: Client) -> None:
    session = dynd_client.open_transition("lock-screen").session
    pan = dynd_client.pan(session, START, END, duration=0.2, release_velocity=(0, -1400))
    with pytest.raises(ValueError, match='open the session with clock="manual"'):
        assert_handoff(dynd_client, session, pan)


def test_a_wrong_expectation_fails_with_the_whole_story(dynd_client: Client) -> None:
    session, pan = flick(dynd_client, (1234, -1400))
    with pytest.raises(AssertionError) as caught:
        assert_handoff(dynd_client, session, pan, expected=(1234, -1400))
    lines = str(caught.value).splitlines()
    assert lines[0] == "handoff of screen in session %s: FAIL" % session
    assert "  finger velocity: (1234, -1400) pt/s" in lines
    assert "  expected (the finger's after the constraints): (0, -1400) pt/s" in lines
    assert (
        "    the item runs on a rail along (0, 1): (1234, -1400) projected onto it is "
        "(0, -1400) pt/s" in lines
    )
    assert "  item velocity: (0, -1400) pt/s (handoff event)" in lines
    assert "  the test expects: (1234, -1400) pt/s" in lines
    assert "  held at the release: (0, -1400) pt/s (get, before any step)" in lines
    assert "  first frame after the release: (0, -1466.667) pt/s" in lines
    assert any(
        line.startswith("  extrapolated back to the release: (0, -1400.00") for line in lines
    )
    assert lines[-2:] == [
        "failures:",
        "  - the item's velocity (0, -1400) is not the expected (1234, -1400) (off by 1234 pt/s)",
    ]


def test_an_item_velocity_the_motion_contradicts_fails(dynd_client: Client) -> None:
    # A handoff event claiming -1300 pt/s where the finger gave -1400: the event, the held
    # velocity and the frames all disagree with it.
    session, pan = flick(dynd_client, (0, -1400))
    assert pan.handoff is not None
    forged = dynd.parse_event(dict(pan.handoff.raw, item_velocity=[0, -1300]))
    assert isinstance(forged, HandoffEvent)
    check = check_handoff(dynd_client, session, forged)
    assert not check.passed
    assert check.failures[0] == (
        "the item's velocity (0, -1300) is not the finger's after its constraints (0, -1400) "
        "(off by 100 pt/s)"
    )
    assert (
        check.failures[1]
        == "the session holds (0, -1400) pt/s, not the handoff's item velocity (0, -1300)"
    )
    assert check.failures[2].startswith("the frames after the release move at (0, -1400.00")
    assert check.report().splitlines()[-3].endswith("(off by 100 pt/s)")


def test_a_zero_estimate_is_explained_in_the_failure(dynd_client: Client) -> None:
    # 300 pt up in 100 ms, lifted 55 ms after the last move: dynd's estimate is 0.
    session = dynd_client.open_transition("lock-screen", clock="manual").session
    for i in range(7):
        dynd_client.gesture(session, "began" if i == 0 else "changed", 160, 500 - 50 * i, t=i / 60)
    ended = dynd_client.gesture(session, "ended", 160, 200, t=0.155)
    assert ended.handoff is not None
    with pytest.raises(AssertionError) as caught:
        assert_handoff(dynd_client, session, ended.handoff, expected=(0, -3000))
    why = (
        "release velocity 0 pt/s: the pointer was still for 55 ms before lift-off "
        "(Android's and Flutter's 40 ms rule)"
    )
    lines = str(caught.value).splitlines()
    assert "    " + why in lines
    assert lines[-1] == (
        "  - the item's velocity (0, 0) is not the expected (0, -3000) (off by 3000 pt/s): " + why
    )


def test_a_velocity_error_above_the_tolerance_fails(dynd_client: Client) -> None:
    session, pan = flick(dynd_client, (0, -1400))
    assert pan.handoff is not None
    forged = dynd.parse_event(dict(pan.handoff.raw, velocity_error=0.5))
    assert isinstance(forged, HandoffEvent)
    with pytest.raises(
        AssertionError, match=r"velocity_error 0\.5 pt/s is above the tolerance 0\.001"
    ):
        assert_handoff(dynd_client, session, forged)


def test_no_handoff_is_a_failure(dynd_client: Client) -> None:
    snap = dynd_client.open_transition("snap", clock="manual").session
    pan = dynd_client.pan(snap, (10, 10), (50, 50), duration=0.1)
    with pytest.raises(AssertionError, match="no handoff: the transition took no drag"):
        assert_handoff(dynd_client, snap, pan)


def test_motion_that_cannot_be_judged_fails_only_when_required(dynd_client: Client) -> None:
    # toss: a photo thrown faster than toss_speed flies off; a slow one snaps home, whose
    # spring changes too fast to be extrapolated.
    toss = dynd_client.open_transition("toss", clock="manual").session
    pan = dynd_client.pan(toss, (160, 284), (170, 284), duration=0.1, release_velocity=(300, 0))
    check = assert_handoff(dynd_client, toss, pan)
    assert not check.verified
    assert "not judged" in check.report()
    assert (
        check.report()
        .splitlines()[0]
        .endswith(
            "PARTIAL: photo took the finger's release velocity exactly at the handoff; its motion "
            "after the release was not verified (see above)"
        )
    )
    again = dynd_client.open_transition("toss", clock="manual").session
    pan = dynd_client.pan(again, (160, 284), (170, 284), duration=0.1, release_velocity=(300, 0))
    with pytest.raises(
        AssertionError, match="the motion after the release was not verified: the forces"
    ):
        assert_handoff(dynd_client, again, pan, require_motion=True)


def test_explicit_binary_that_is_missing_fails(tmp_path: Path) -> None:
    with pytest.raises(BinaryMissing, match="--dynd-binary names /no/such/dynd"):
        dynd.find_dynd_binary("/no/such/dynd")
    with pytest.raises(BinaryMissing, match=r"\$DYND_BINARY names /no/dynd"):
        dynd.find_dynd_binary(None, {"DYND_BINARY": "/no/dynd", "PATH": ""})


def test_binary_lookup_order(tmp_path: Path, dynd_binary: str) -> None:
    checkout = tmp_path / "checkout"
    (checkout / "Sources" / "dynd").mkdir(parents=True)
    (checkout / "Package.swift").write_text("// swift-tools-version:6.0\n")
    (checkout / ".build" / "release").mkdir(parents=True)
    release = checkout / ".build" / "release" / "dynd"
    release.symlink_to(dynd_binary)
    deep = checkout / "a" / "b"
    deep.mkdir(parents=True)
    empty_path = str(tmp_path / "bin")
    os.mkdir(empty_path)
    assert dynd.find_dynd_binary(None, {"PATH": empty_path}, cwd=str(deep)) == str(release)
    with pytest.raises(BinaryNotFound) as caught:
        dynd.find_dynd_binary(None, {"PATH": empty_path}, cwd=str(tmp_path))
    message = str(caught.value)
    assert "--dynd-binary (not given)" in message and "$DYND_BINARY (not set)" in message
    assert "dynd on $PATH (%s)" % empty_path in message
    assert (
        "a dynd checkout (Package.swift and Sources/dynd) at or above %s (none)" % tmp_path
        in message
    )
    os.symlink(dynd_binary, os.path.join(empty_path, "dynd"))
    assert dynd.find_dynd_binary(None, {"PATH": empty_path}, cwd=str(deep)) == os.path.join(
        empty_path, "dynd"
    )
    assert dynd.find_dynd_binary(None, {"PATH": empty_path, "DYND_BINARY": str(release)}) == str(
        release
    )


INNER_TESTS = """
from dynd import assert_handoff

def pan(client, velocity):
    session = client.open_transition("lock-screen", clock="manual").session
    return session, client.pan(session, (160, 500), (160, 380), duration=0.2, release_velocity=velocity)

def test_right(dynd_client):
    session, result = pan(dynd_client, (1234, -1400))
    assert_handoff(dynd_client, session, result, expected=(0, -1400))
    assert dynd_client.run_until(session).outcome == "opened"

def test_wrong(dynd_client):
    session, result = pan(dynd_client, (1234, -1400))
    assert_handoff(dynd_client, session, result, expected=(1234, -1400))
"""


@pytest.fixture
def importable(monkeypatch: pytest.MonkeyPatch) -> None:
    """The inner pytest runs (subprocesses) import this copy of the package, and load no other
    plugin than those they name (other installed plugins only make them slower)."""
    package = os.path.dirname(os.path.dirname(os.path.abspath(dynd.__file__)))
    monkeypatch.setenv(
        "PYTHONPATH", os.pathsep.join(filter(None, [package, os.environ.get("PYTHONPATH")]))
    )
    monkeypatch.setenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", "1")


@pytest.mark.usefixtures("importable")
def test_the_plugin_in_a_pytest_run(pytester: pytest.Pytester, dynd_binary: str) -> None:
    pytester.makepyfile(test_inner=INNER_TESTS)
    result = pytester.runpytest_subprocess("-p", "dynd.pytest_plugin", "--dynd-binary", dynd_binary)
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(
        [
            "*AssertionError: handoff of screen in session s*: FAIL",
            "*finger velocity: (1234, -1400) pt/s",
            "*the item runs on a rail along (0, 1)*",
            "*  - the item's velocity (0, -1400) is not the expected (1234, -1400) (off by 1234 pt/s)",
        ]
    )


@pytest.mark.usefixtures("importable")
def test_a_missing_explicit_binary_fails_and_none_found_skips(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("CI", raising=False)
    pytester.makepyfile(test_inner="def test_it(dynd_client):\n    pass\n")
    result = pytester.runpytest_subprocess(
        "-p", "dynd.pytest_plugin", "--dynd-binary", "/no/such/dynd"
    )
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(
        ["*--dynd-binary names /no/such/dynd, which is not an executable file*"]
    )
    monkeypatch.setenv("DYND_BINARY", "/no/such/dynd")
    result = pytester.runpytest_subprocess("-p", "dynd.pytest_plugin")
    result.assert_outcomes(errors=1)
    monkeypatch.delenv("DYND_BINARY")
    monkeypatch.setenv("PATH", str(pytester.path))
    result = pytester.runpytest_subprocess("-p", "dynd.pytest_plugin")
    result.assert_outcomes(skipped=1)
    assert result.ret == 0
    result.stdout.fnmatch_lines(
        [
            "dynd: tests that need dynd were skipped (dynd not required: no --dynd-required, "
            "dynd_required or CI=true): no dynd binary found; looked at: --dynd-binary*"
        ]
    )


def test_what_makes_dynd_required() -> None:
    from dynd.pytest_plugin import Requirement, dynd_requirement

    ci = {"CI": "true"}
    assert dynd_requirement(True, False, {}) == Requirement(True, "--dynd-required")
    assert dynd_requirement(False, True, ci) == Requirement(False, "--dynd-optional")
    assert dynd_requirement(None, False, ci) == Requirement(False, "dynd_required = false")
    assert dynd_requirement(None, True, {}) == Requirement(True, "dynd_required = true")
    # An unset ini option is None (pytest >= 8) or [] (pytest 7): $CI decides.
    unset_values: tuple[object, ...] = (None, [])
    for unset in unset_values:
        assert dynd_requirement(None, unset, {"CI": "TRUE"}) == Requirement(True, "CI=TRUE")
        assert dynd_requirement(None, unset, {"CI": "1"}).required
        assert dynd_requirement(None, unset, {"CI": "yes"}).required
        for value in ("false", "0", "", "no"):
            assert not dynd_requirement(None, unset, {"CI": value}).required
        assert dynd_requirement(None, unset, {}) == Requirement(
            False, "no --dynd-required, dynd_required or CI=true"
        )


#: What the plugin says when it finds no dynd in an empty directory, with `$PATH` that
#: directory: every place it looked.
NOT_FOUND = (
    "no dynd binary found; looked at: --dynd-binary (not given); $DYND_BINARY (not set); "
    "dynd on $PATH (%s); a dynd checkout (Package.swift and Sources/dynd) at or above %s (none)"
)


@pytest.mark.usefixtures("importable")
@pytest.mark.parametrize(
    "ci, arguments, ini, why",
    [
        (None, ["--dynd-required"], None, "--dynd-required"),
        ("true", [], None, "CI=true"),
        ("1", [], None, "CI=1"),
        (None, [], "true", "dynd_required = true"),
        ("false", [], "true", "dynd_required = true"),
    ],
)
def test_a_required_dynd_that_is_not_found_fails_naming_where_it_looked(
    pytester: pytest.Pytester,
    monkeypatch: pytest.MonkeyPatch,
    ci: str | None,
    arguments: list[str],
    ini: str | None,
    why: str,
) -> None:
    if ci is None:
        monkeypatch.delenv("CI", raising=False)
    else:
        monkeypatch.setenv("CI", ci)
    monkeypatch.delenv("DYND_BINARY", raising=False)
    monkeypatch.setenv("PATH", str(pytester.path))
    if ini is not None:
        pytester.makeini("[pytest]\ndynd_required = %s\n" % ini)
    pytester.makepyfile(
        test_inner="def test_it(dynd_client):\n    pass\n\ndef test_other():\n    pass\n"
    )
    result = pytester.runpytest_subprocess("-p", "dynd.pytest_plugin", *arguments)
    result.assert_outcomes(passed=1, errors=1)
    assert result.ret == 1
    not_found = NOT_FOUND % (pytester.path, pytester.path)
    result.stdout.fnmatch_lines(
        [
            "%s*dynd is required here (%s), so the tests that need it fail instead of being "
            "skipped; --dynd-optional skips them" % (not_found, why),
            "dynd: tests that need dynd failed: %s*" % not_found,
        ]
    )


@pytest.mark.usefixtures("importable")
@pytest.mark.parametrize(
    "ci, arguments, ini, why",
    [
        ("true", ["--dynd-optional"], None, "--dynd-optional"),
        ("true", [], "false", "dynd_required = false"),
        (None, ["--dynd-optional"], "true", "--dynd-optional"),
        ("false", [], None, "no --dynd-required, dynd_required or CI=true"),
        ("", [], None, "no --dynd-required, dynd_required or CI=true"),
    ],
)
def test_an_optional_dynd_that_is_not_found_skips(
    pytester: pytest.Pytester,
    monkeypatch: pytest.MonkeyPatch,
    ci: str | None,
    arguments: list[str],
    ini: str | None,
    why: str,
) -> None:
    if ci is None:
        monkeypatch.delenv("CI", raising=False)
    else:
        monkeypatch.setenv("CI", ci)
    monkeypatch.delenv("DYND_BINARY", raising=False)
    monkeypatch.setenv("PATH", str(pytester.path))
    if ini is not None:
        pytester.makeini("[pytest]\ndynd_required = %s\n" % ini)
    pytester.makepyfile(test_inner="def test_it(dynd_client):\n    pass\n")
    result = pytester.runpytest_subprocess("-p", "dynd.pytest_plugin", *arguments)
    result.assert_outcomes(skipped=1)
    assert result.ret == 0
    result.stdout.fnmatch_lines(
        ["dynd: tests that need dynd were skipped (dynd not required: %s): no dynd*" % why]
    )
