"""The pytest plugin of the dynd client: a private dynd for the tests, a client, and
`assert_handoff`.

Installing the package enables it (entry point ``pytest11``); without installing, load it with
``-p dynd.pytest_plugin``. Fixtures:

``dynd_binary``
    The dynd binary (session scope): ``--dynd-binary PATH``, else ``$DYND_BINARY``, else
    ``dynd`` on ``$PATH``, else ``.build/debug/dynd`` or ``.build/release/dynd`` of a dynd
    checkout at or above the current directory. They fail when ``--dynd-binary`` or
    ``$DYND_BINARY`` names a file that is not there. When there is none, the tests needing it
    are skipped, with every place looked named (also at the end of the run, without ``-rs``),
    unless dynd is required: then they fail with the same message, so that a CI job cannot go
    green with nothing tested. Required is ``--dynd-required``, else the ini option
    ``dynd_required = true``, else ``$CI`` set to true, 1, yes or on (as CI services set it);
    ``--dynd-optional`` or ``dynd_required = false`` skips even on CI.
``dynd_daemon``
    A `DyndDaemon` (session scope) on a socket in a fresh private directory, answering
    ``hello``; stopped with SIGTERM (SIGKILL after 5 s) at the end of the session. The session
    ends in an error if the daemon died meanwhile.
``dynd_client``
    A `Client` connected to ``dynd_daemon`` (one per test; the sessions it opened close with
    it).

    def test_flick_opens(dynd_client):
        lock = dynd_client.open_transition("lock-screen", clock="manual").session
        pan = dynd_client.pan(lock, (160, 500), (160, 380), duration=0.2,
                              release_velocity=(0, -1400))
        assert_handoff(dynd_client, lock, pan)
        assert dynd_client.run_until(lock, "done").outcome == "opened"
"""

from __future__ import annotations

import os
from typing import Iterator, Literal, Mapping, NamedTuple, Optional

import pytest

from .client import Client
from .daemon import BinaryMissing, BinaryNotFound, DyndDaemon, find_dynd_binary
from .handoff import HandoffCheck, assert_handoff, check_handoff

__all__ = [
    "assert_handoff",
    "check_handoff",
    "HandoffCheck",
    "dynd_binary",
    "dynd_daemon",
    "dynd_client",
    "pytest_addoption",
    "pytest_terminal_summary",
    "dynd_requirement",
    "Requirement",
    "CI_TRUE",
]

#: The values of ``$CI`` that make dynd required (compared in lower case).
CI_TRUE = ("true", "1", "yes", "on")


class Requirement(NamedTuple):
    """Whether the tests that need dynd fail (`required`) or are skipped when none is found,
    and what said so (`why`: ``--dynd-required``, ``dynd_required = true``, ``CI=true`` …)."""

    required: bool
    why: str


def dynd_requirement(
    option: Optional[bool], ini: object, environ: Mapping[str, str] = os.environ
) -> Requirement:
    """The first that speaks: `option` (``--dynd-required`` True, ``--dynd-optional`` False,
    None when neither is given), then `ini` (the ``dynd_required`` ini option: a bool when it
    is set), then ``$CI`` (required when it is one of `CI_TRUE`)."""
    if option is not None:
        return Requirement(option, "--dynd-required" if option else "--dynd-optional")
    if isinstance(ini, bool):
        return Requirement(ini, "dynd_required = %s" % ("true" if ini else "false"))
    ci = environ.get("CI")
    if ci is not None and ci.strip().lower() in CI_TRUE:
        return Requirement(True, "CI=%s" % ci)
    return Requirement(False, "no --dynd-required, dynd_required or CI=true")


# addini's type tag: a literal "bool" where pytest 9 also takes type forms reads to mypy as a
# string annotation.
_BOOL: Literal["bool"] = "bool"

# Why the dynd binary was not found and what that did, kept for the end of the run.
_NOT_FOUND = pytest.StashKey[str]()


def pytest_addoption(parser: pytest.Parser) -> None:
    """Adds ``--dynd-binary PATH``, ``--dynd-required``, ``--dynd-optional`` and the ini option
    ``dynd_required``."""
    group = parser.getgroup("dynd", "dynd daemon for tests")
    group.addoption(
        "--dynd-binary",
        metavar="PATH",
        default=None,
        help="the dynd binary the dynd_daemon fixture runs (default: $DYND_BINARY, dynd on "
        "PATH, .build/debug/dynd or .build/release/dynd of a dynd checkout above the current "
        "directory)",
    )
    group.addoption(
        "--dynd-required",
        dest="dynd_required",
        action="store_true",
        default=None,
        help="fail, not skip, the tests that need dynd when no dynd binary is found (the "
        "default when $CI is true, unless the ini option dynd_required says otherwise)",
    )
    group.addoption(
        "--dynd-optional",
        dest="dynd_required",
        action="store_false",
        default=None,
        help="skip the tests that need dynd when no dynd binary is found, even with $CI true",
    )
    parser.addini(
        "dynd_required",
        "fail, not skip, the tests that need dynd when no dynd binary is found (default: "
        "true when $CI is true)",
        type=_BOOL,
        default=None,
    )


@pytest.fixture(scope="session")
def dynd_binary(pytestconfig: pytest.Config) -> str:
    """The path of the dynd binary (see the module's documentation for where it is looked
    for); fails when an explicit path does not exist, and when none is found skips or, when
    dynd is required, fails."""
    option = pytestconfig.getoption("dynd_binary")
    try:
        return find_dynd_binary(option if isinstance(option, str) else None)
    except (BinaryMissing, BinaryNotFound) as error:
        failure = error
    # Outside the except clause, so that pytest does not print the lookup's exception as well.
    if isinstance(failure, BinaryMissing):
        pytest.fail(str(failure), pytrace=False)
    requirement = dynd_requirement(
        pytestconfig.getoption("dynd_required"), pytestconfig.getini("dynd_required")
    )
    if requirement.required:
        pytestconfig.stash[_NOT_FOUND] = "failed: %s" % failure
        pytest.fail(
            "%s. dynd is required here (%s), so the tests that need it fail instead of being "
            "skipped; --dynd-optional skips them" % (failure, requirement.why),
            pytrace=False,
        )
    pytestconfig.stash[_NOT_FOUND] = "were skipped (dynd not required: %s): %s" % (
        requirement.why,
        failure,
    )
    pytest.skip(str(failure))


def pytest_terminal_summary(
    terminalreporter: pytest.TerminalReporter, config: pytest.Config
) -> None:
    """Says why the tests that need dynd were skipped or failed, so that it shows without
    ``-rs`` and after a long run."""
    outcome = config.stash.get(_NOT_FOUND, None)
    if outcome is not None:
        terminalreporter.write_line(
            "dynd: tests that need dynd " + outcome, red=outcome.startswith("failed")
        )


@pytest.fixture(scope="session")
def dynd_daemon(dynd_binary: str) -> Iterator[DyndDaemon]:
    """A private dynd on a temporary socket for the whole test session."""
    daemon = DyndDaemon.start(dynd_binary)
    try:
        yield daemon
    finally:
        died = daemon.process.poll()
        status, log = daemon.stop()
        if died is not None:
            pytest.fail(
                "dynd (%s) died during the tests with status %s; its log:\n%s"
                % (dynd_binary, died, log),
                pytrace=False,
            )


@pytest.fixture
def dynd_client(dynd_daemon: DyndDaemon) -> Iterator[Client]:
    """A client connected to the private dynd; closed after the test."""
    client = dynd_daemon.client()
    try:
        yield client
    finally:
        client.close()
