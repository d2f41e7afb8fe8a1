"""The pytest plugin of the dynd client: a private dynd for the tests, a client, and
`assert_handoff`.

Installing the package enables it (entry point ``pytest11``); without installing, load it with
``-p dynd.pytest_plugin``. Fixtures:

``dynd_binary``
    The dynd binary (session scope): ``--dynd-binary PATH``, else ``$DYND_BINARY``, else
    ``dynd`` on ``$PATH``, else ``.build/debug/dynd`` or ``.build/release/dynd`` of a dynd
    checkout at or above the current directory. Tests needing it are skipped, with every place
    looked named, when there is none (the reason is also written at the end of the run, without
    ``-rs``); they fail when ``--dynd-binary`` or ``$DYND_BINARY`` names
    a file that is not there.
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

from typing import Iterator

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
]

# Why the dynd binary was not found, kept for the end of the run.
_NOT_FOUND = pytest.StashKey[str]()


def pytest_addoption(parser: pytest.Parser) -> None:
    """Adds ``--dynd-binary PATH``."""
    group = parser.getgroup("dynd", "dynd daemon for tests")
    group.addoption(
        "--dynd-binary",
        metavar="PATH",
        default=None,
        help="the dynd binary the dynd_daemon fixture runs (default: $DYND_BINARY, dynd on "
        "PATH, .build/debug/dynd or .build/release/dynd of a dynd checkout above the current "
        "directory)",
    )


@pytest.fixture(scope="session")
def dynd_binary(pytestconfig: pytest.Config) -> str:
    """The path of the dynd binary (see the module's documentation for where it is looked
    for); skips when none is found, fails when an explicit path does not exist."""
    option = pytestconfig.getoption("dynd_binary")
    try:
        return find_dynd_binary(option if isinstance(option, str) else None)
    except BinaryMissing as error:
        pytest.fail(str(error), pytrace=False)
    except BinaryNotFound as error:
        pytestconfig.stash[_NOT_FOUND] = str(error)
        pytest.skip(str(error))


def pytest_terminal_summary(
    terminalreporter: pytest.TerminalReporter, config: pytest.Config
) -> None:
    """Says why the tests that need dynd were skipped, so that it shows without ``-rs``."""
    reason = config.stash.get(_NOT_FOUND, None)
    if reason is not None:
        terminalreporter.write_line(
            "dynd: tests that need dynd were skipped: " + reason, yellow=True
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
