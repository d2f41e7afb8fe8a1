"""The Python client of dynd, the daemon that serves UIKit Dynamics sessions as JSON lines
over a Unix socket (protocol/PROTOCOL.md in the dynd repository).

    from dynd import Client
    with Client() as dynd:                  # $DYND_SOCKET, $XDG_RUNTIME_DIR/dynd, /tmp/dynd-$UID
        lock = dynd.open_transition("lock-screen", clock="manual").session
        pan = dynd.pan(lock, (160, 500), (160, 380), duration=0.2, release_velocity=(0, -1400))
        print(pan.handoff.item_velocity)     # (0.0, -1400.0)
        print(dynd.run_until(lock, "done").outcome)   # opened

`Client` blocks; `AsyncClient` is the same API for asyncio: both run the one op table
(`dynd.ops`) and return the same types. Replies and events are typed dataclasses
(`dynd.messages`) that keep their JSON in ``raw``; every error reply is a `DyndError` with its
``code``. Before anything is sent the socket is checked as dynctl checks
it (`UntrustedSocket`); a missing daemon is `DaemonNotRunning`, naming the socket. `DyndDaemon`
runs a private dynd; `assert_handoff` checks a release as ``dynctl handoff`` does; the pytest
plugin (`dynd.pytest_plugin`) turns both into fixtures.
"""

from __future__ import annotations

import os as _os

from ._core import PanResult, PanSample, pan_samples
from .aio import AsyncClient
from .client import Client
from .daemon import BinaryMissing, BinaryNotFound, DaemonFailed, DyndDaemon, find_dynd_binary
from .errors import (
    ERROR_CODES,
    ConnectionClosed,
    DaemonNotRunning,
    DyndError,
    DyndTimeout,
    InvalidSocketPath,
    UntrustedSocket,
)
from .handoff import HandoffCheck, assert_handoff, check_handoff, expected_velocity
from .strokes import Sample, StrokeReadError, parse_samples, read_samples
from .location import (
    check_peer,
    check_socket_directory,
    default_socket_location,
    default_socket_path,
    socket_location,
)
from .messages import (
    Ack,
    ActionEvent,
    Behavior,
    BehaviorAdded,
    Behaviors,
    ClosedEvent,
    Constraint,
    ContactEvent,
    ContactLimitEvent,
    DebugEvent,
    DebugGeometry,
    DoneEvent,
    Event,
    FrameEvent,
    HandoffEvent,
    Hello,
    ItemState,
    ItemsInRect,
    OnTimeEvent,
    Opened,
    Parameter,
    PauseEvent,
    ReleaseEstimate,
    Reply,
    ResumeEvent,
    SessionInfo,
    SessionList,
    ShutdownEvent,
    SlowEvent,
    Snapshot,
    Stepped,
    UnknownEvent,
    Watching,
    InputTaken,
    parse_event,
    parse_reply,
)


def _release_version() -> str:
    """The release's version: the file VERSION in this package, a link to the dynd checkout's
    top-level VERSION (copied into the wheel), which dynd and dynctl embed as well. A copy of
    the package without it (the link copied as a link) still imports: then the installed
    distribution's version, else "unknown"."""
    path = _os.path.join(_os.path.dirname(_os.path.abspath(__file__)), "VERSION")
    try:
        with open(path, encoding="utf-8") as file:
            return file.read().strip()
    except OSError:
        pass
    try:
        from importlib.metadata import PackageNotFoundError, version
    except ImportError:  # pragma: no cover (Python < 3.8)
        return "unknown"
    try:
        return version("dynd")
    except PackageNotFoundError:
        return "unknown"


__version__ = _release_version()

__all__ = [
    "Ack",
    "ActionEvent",
    "AsyncClient",
    "Behavior",
    "BehaviorAdded",
    "Behaviors",
    "BinaryMissing",
    "BinaryNotFound",
    "Client",
    "ClosedEvent",
    "ConnectionClosed",
    "Constraint",
    "ContactEvent",
    "ContactLimitEvent",
    "DaemonFailed",
    "DaemonNotRunning",
    "DebugEvent",
    "DebugGeometry",
    "DoneEvent",
    "DyndDaemon",
    "DyndError",
    "DyndTimeout",
    "ERROR_CODES",
    "Event",
    "FrameEvent",
    "HandoffCheck",
    "HandoffEvent",
    "Hello",
    "ItemState",
    "ItemsInRect",
    "OnTimeEvent",
    "Opened",
    "PanResult",
    "Parameter",
    "PanSample",
    "PauseEvent",
    "Sample",
    "StrokeReadError",
    "ReleaseEstimate",
    "Reply",
    "ResumeEvent",
    "SessionInfo",
    "SessionList",
    "ShutdownEvent",
    "SlowEvent",
    "Snapshot",
    "Stepped",
    "UnknownEvent",
    "UntrustedSocket",
    "InvalidSocketPath",
    "Watching",
    "InputTaken",
    "assert_handoff",
    "check_handoff",
    "check_peer",
    "check_socket_directory",
    "default_socket_location",
    "default_socket_path",
    "expected_velocity",
    "find_dynd_binary",
    "pan_samples",
    "parse_samples",
    "read_samples",
    "socket_location",
    "parse_event",
    "parse_reply",
]
