"""The blocking client: one connection to dynd.

    from dynd import Client
    with Client() as dynd:                       # $DYND_SOCKET, then the runtime directory
        lock = dynd.open_transition("lock-screen", clock="manual").session
        pan = dynd.pan(lock, (160, 500), (160, 380), duration=0.2, release_velocity=(0, -1400))
        print(pan.handoff)
        print(dynd.run_until(lock, "done").outcome)

Every request gets exactly one reply; the events it causes come before it and are returned
with it (typed, in ``reply.events``). An error reply raises `DyndError`. Each request carries an
``id`` and its reply must echo it; `timeout` is a total deadline per call; lines, nesting and the
events held are bounded; a line that breaks the protocol raises a `BadReply` subclass (README,
"What the client checks").
"""

from __future__ import annotations

import errno
import itertools
import socket
import time
from typing import (
    Any,
    Dict,
    Iterator,
    List,
    Mapping,
    Optional,
    Sequence,
    Tuple,
    Literal,
    overload,
)

from . import _core
from ._core import PanResult, SceneSource
from ._core import typed as _typed
from .errors import BadReply, ConnectionClosed, DaemonNotRunning, DyndTimeout
from .location import check_peer, resolve
from .messages import (
    Ack,
    InputTaken,
    BehaviorAdded,
    Behaviors,
    DebugGeometry,
    DoneEvent,
    Event,
    Hello,
    ItemsInRect,
    Opened,
    Reply,
    SessionInfo,
    SessionList,
    Snapshot,
    Stepped,
    Watching,
    parse_event,
)

__all__ = ["Client", "connect_socket"]

JSON = Dict[str, Any]


def connect_socket(path: str, timeout: Optional[float]) -> socket.socket:
    """A Unix stream socket connected to `path`, its daemon checked (`check_peer`); raises
    `DaemonNotRunning` (naming `path`) when nothing listens there, `UntrustedSocket` for a
    daemon of another user."""
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        sock.settimeout(timeout)
        try:
            sock.connect(path)
        except (FileNotFoundError, ConnectionRefusedError) as error:
            raise DaemonNotRunning(path, error.strerror or str(error)) from None
        except socket.timeout:
            raise DyndTimeout(
                "dynd at %s did not accept the connection within %s s" % (path, timeout)
            ) from None
        except OSError as error:
            if error.errno in (errno.ENOENT, errno.ECONNREFUSED):
                raise DaemonNotRunning(path, error.strerror or str(error)) from None
            raise OSError(
                error.errno, "cannot connect to dynd at %s: %s" % (path, error.strerror or error)
            ) from None
        check_peer(sock, path)
    except BaseException:
        sock.close()
        raise
    return sock


class Client:
    """One connection to dynd. Not thread-safe: use one per thread.

    `path` is the socket; by default `default_socket_location()`, whose per-user directory is
    checked first. Raises, before anything is sent, `UntrustedSocket` for an unsafe directory or
    a daemon of another user, and `DaemonNotRunning` (naming the path) when no daemon listens.
    `timeout` (seconds, None: none) bounds each call as a whole — sending the request and
    reading up to its reply, or waiting for an event: a request whose reply does not come in
    time raises `DyndTimeout` and closes the connection. `max_line` bounds the length of a line
    the daemon writes, `max_events` and `max_event_bytes` the events held unread (see
    `dynd._core` and the README's "What the client checks").
    """

    def __init__(
        self,
        path: Optional[str] = None,
        timeout: Optional[float] = 10.0,
        *,
        max_line: int = _core.MAX_LINE,
        max_events: int = _core.MAX_EVENTS,
        max_event_bytes: int = _core.MAX_EVENT_BYTES,
    ) -> None:
        self.path: str = resolve(path)
        self.timeout = timeout
        self._sock = connect_socket(self.path, timeout)
        self._lines = _core.LineSplitter(max_line)
        self._pending = _core.Inbox(max_events, max_event_bytes)
        self._ids = itertools.count(1)
        self._clocks: Dict[str, str] = {}
        self._closed = False

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Closes the connection; sessions it opened without ``keep`` close with it."""
        self._closed = True
        self._sock.close()

    # The raw layer ---------------------------------------------------------------------

    def exchange(self, op: str, **fields: Any) -> Tuple[JSON, List[JSON]]:
        """Sends one request and returns ``(reply, events)`` as parsed JSON: the reply and the
        events that came before it. Fields whose value is None are left out; the request's
        ``id`` is the next of this connection (1, 2, …) unless `fields` gives one. Raises
        `DyndError` for an error reply."""
        reply, events = self._exchange(op, fields)
        return reply, [event for event, _ in events]

    def _exchange(self, op: str, fields: Dict[str, Any]) -> Tuple[JSON, List[Tuple[JSON, int]]]:
        """`exchange`, with the size of each event's line."""
        deadline = None if self.timeout is None else time.monotonic() + self.timeout
        what = "a reply to '%s'" % op
        request_id = fields.pop("id", None)
        if request_id is None:
            request_id = next(self._ids)
        self._send(op, _core.encode(op, fields, request_id), deadline)
        events: List[Tuple[JSON, int]] = []
        size = 0
        while True:
            message, length = self._read(what, deadline, self.timeout, closing=True)
            try:
                if _core.is_event(message):
                    events.append((message, length))
                    size += length
                    self._pending.check(len(events), size)
                    continue
                _core.check_answers(message, request_id, op)
            except BadReply:
                self.close()
                raise
            error = _core.error_of(message)
            if error is not None:
                if isinstance(error, BadReply):
                    self.close()
                raise error
            return message, events

    def request(self, op: str, **fields: Any) -> JSON:
        """Sends one request and returns its reply as parsed JSON; the events it caused are
        kept for `events` and `next_event`. Raises `DyndError` for an error reply."""
        reply, events = self._exchange(op, fields)
        self._pending.keep(events)
        return reply

    def events(self, until: Optional[str] = None) -> Iterator[JSON]:
        """Yields events as parsed JSON: those kept, then new ones as they arrive; stops after
        the first whose ``ev`` is `until` (if given), or when the daemon closes the connection.
        Each wait is bounded by the client's `timeout` (`DyndTimeout`)."""
        while True:
            if self._pending:
                event = self._pending.pop()
            else:
                try:
                    event = self._next_event("an event", self.timeout)
                except ConnectionClosed:
                    return
            yield event
            if until is not None and event.get("ev") == until:
                return

    def call(self, op: str, **fields: Any) -> Reply:
        """Sends one request of any op and returns its typed reply (`parse_reply`), with the
        events it caused in ``reply.events``. Raises `DyndError` for an error reply."""
        reply, events = self.exchange(op, **fields)
        try:
            return _core.typed_reply(op, reply, events)
        except BadReply:
            self.close()
            raise

    # Typed ops ---------------------------------------------------------------------------

    def hello(self) -> Hello:
        """The daemon's protocol version, name, version, transitions and their parameters."""
        return _typed(Hello, self.call("hello"))

    def open_transition(
        self,
        transition: str,
        params: Optional[Mapping[str, Any]] = None,
        *,
        session: Optional[str] = None,
        clock: Optional[str] = None,
        fps: Optional[float] = None,
        keep: Optional[bool] = None,
    ) -> Opened:
        """Opens a session of the named `transition` with its `params` (e.g.
        ``{"open_speed": 800}``); `clock` ``"manual"`` or ``"realtime"`` (the default). The
        session's name is `session` or one the daemon assigns (``reply.session``)."""
        fields = _core.open_fields(
            transition=transition, params=params, session=session, clock=clock, fps=fps, keep=keep
        )
        return self._opened(fields, clock)

    def open_scene(
        self,
        scene: SceneSource,
        *,
        session: Optional[str] = None,
        clock: Optional[str] = None,
        fps: Optional[float] = None,
        keep: Optional[bool] = None,
    ) -> Opened:
        """Opens a session of a scene: a dict (protocol/PROTOCOL.md, section 6) or the path of
        a JSON file holding one."""
        fields = _core.open_fields(scene=scene, session=session, clock=clock, fps=fps, keep=keep)
        return self._opened(fields, clock)

    def _opened(self, fields: Dict[str, Any], clock: Optional[str]) -> Opened:
        opened = _typed(Opened, self.call("open", **fields))
        self._clocks[opened.session] = clock or "realtime"
        return opened

    def gesture(
        self,
        session: str,
        phase: str,
        x: float,
        y: float,
        *,
        t: Optional[float] = None,
        velocity: Optional[Sequence[float]] = None,
        estimator: Optional[str] = None,
    ) -> Ack:
        """One pan event: `phase` ``began``, ``changed``, ``ended`` or ``cancelled`` at (x, y),
        at time `t` (seconds, the client's clock), with the release `velocity` (vx, vy) on
        ``ended`` if known. A release's ``handoff`` is in ``reply.handoff``."""
        fields: Dict[str, Any] = {"session": session, "phase": phase, "x": x, "y": y, "t": t}
        if velocity is not None:
            fields["vx"], fields["vy"] = _core.pair(velocity)
        fields["estimator"] = estimator
        return _typed(Ack, self.call("gesture", **fields))

    def pan(
        self,
        session: str,
        start: Sequence[float],
        end: Sequence[float],
        *,
        duration: float = 0.25,
        release_velocity: Optional[Sequence[float]] = None,
        pace: str = "auto",
        estimator: Optional[str] = None,
        cancel: bool = False,
    ) -> PanResult:
        """A straight pan from `start` to `end` over `duration` seconds, sampled at 60 Hz as
        ``dynctl gesture`` does (`_core.pan_samples`), released with `release_velocity` (vx, vy)
        when given (else the daemon estimates it), or cancelled.

        `pace`: ``step`` sends a one-frame ``step`` between samples (a manual session follows
        the finger), ``realtime`` spreads the samples over `duration` by the wall clock, ``none``
        sends them back to back, ``auto`` (the default) is ``step`` for a manual session and
        ``realtime`` otherwise. Returns every event the pan caused; ``result.handoff`` is the
        release's."""
        _core.check_pace(pace)
        if pace == "auto":
            pace = "step" if self.clock_of(session) == "manual" else "realtime"
        result = PanResult()
        started = time.monotonic()
        for sample in _core.pan_samples(start, end, duration, release_velocity, cancel):
            if sample.step is not None:
                if pace == "realtime":
                    _sleep_until(started + sample.t)
                elif pace == "step":
                    result.events.extend(self.step(session, dt=sample.step).events)
            reply = self.call("gesture", **sample.fields(session, estimator))
            result.events.extend(reply.events)
        return result

    def tap(self, session: str, x: float, y: float) -> InputTaken:
        """A tap at (x, y); what it does is the transition's (`taken` says whether it acted)."""
        return _typed(InputTaken, self.call("tap", session=session, x=x, y=y))

    def swipe(
        self,
        session: str,
        direction: str,
        *,
        at: Optional[Sequence[float]] = None,
        velocity: Optional[Sequence[float]] = None,
    ) -> InputTaken:
        """A swipe `direction` (``left``, ``right``, ``up``, ``down``), starting `at` (x, y) and
        with `velocity` (vx, vy) when given."""
        fields: Dict[str, Any] = {"session": session, "direction": direction}
        if at is not None:
            fields["x"], fields["y"] = _core.pair(at)
        if velocity is not None:
            fields["vx"], fields["vy"] = _core.pair(velocity)
        return _typed(InputTaken, self.call("swipe", **fields))

    def step(self, session: str, count: int = 1, dt: Optional[float] = None) -> Stepped:
        """Advances a manual session by `count` frames of `dt` seconds (default 1/fps); the
        frames are in ``reply.frames``, their other events in ``reply.events``."""
        return _typed(Stepped, self.call("step", session=session, count=count, dt=dt))

    def get(self, session: str) -> Snapshot:
        """The session's time, whether it runs, and every item's state."""
        return _typed(Snapshot, self.call("get", session=session))

    def watch(self, session: str) -> Watching:
        """From now on this connection also receives the session's events."""
        return _typed(Watching, self.call("watch", session=session))

    def close_session(self, session: str) -> Ack:
        """Closes the session (any connection may); its watchers get ``closed``."""
        self._clocks.pop(session, None)
        return _typed(Ack, self.call("close", session=session))

    def list_sessions(self) -> List[SessionInfo]:
        """Every open session, in the order they were opened (asked a page at a
        time: a reply holds about a megabyte of sessions)."""
        sessions: List[SessionInfo] = []
        start: Optional[int] = 0
        while start is not None:
            page = _typed(SessionList, self.call("list", **({"from": start} if start else {})))
            sessions += page.sessions
            start = page.next
        return sessions

    def debug(self, session: str, enable: bool = True) -> DebugGeometry:
        """Starts (or stops) ``debug`` events after each frame; the geometry now."""
        return _typed(DebugGeometry, self.call("debug", session=session, enable=enable))

    def add_item(self, session: str, item: Mapping[str, Any]) -> Ack:
        """Adds an item object to a scene session."""
        return _typed(Ack, self.call("add_item", session=session, item=dict(item)))

    def remove_item(self, session: str, item: str) -> Ack:
        """Removes an item (and what cannot exist without it) from a scene session."""
        return _typed(Ack, self.call("remove_item", session=session, item=item))

    def add_behavior(self, session: str, behavior: Mapping[str, Any]) -> BehaviorAdded:
        """Adds a behavior object to a scene session; ``reply.behavior`` is its id."""
        return _typed(
            BehaviorAdded, self.call("add_behavior", session=session, behavior=dict(behavior))
        )

    def remove_behavior(self, session: str, behavior: str) -> Ack:
        """Removes a behavior from a scene session."""
        return _typed(Ack, self.call("remove_behavior", session=session, behavior=behavior))

    def remove_all_behaviors(self, session: str) -> Ack:
        """Removes every behavior of a scene session."""
        return _typed(Ack, self.call("remove_all_behaviors", session=session))

    def set_behavior(self, session: str, behavior: str, **fields: Any) -> Ack:
        """Sets fields of a behavior (e.g. ``magnitude=0.5``)."""
        return _typed(Ack, self.call("set_behavior", session=session, behavior=behavior, **fields))

    def behaviors(self, session: str) -> Behaviors:
        """A scene's behaviors in the order they were added, each with the current value of
        every field ``set_behavior`` can set (``reply.behavior("b1").fields``)."""
        return _typed(Behaviors, self.call("behaviors", session=session))

    def add_group(self, session: str, group: str, items: Sequence[str]) -> Ack:
        """Groups `items` of a scene into one rigid body called `group` (UIDynamicItemGroup);
        behaviors may then name `group` where they take items."""
        return _typed(
            Ack,
            self.call("add_group", session=session, group={"id": group, "items": list(items)}),
        )

    def remove_group(self, session: str, group: str) -> Ack:
        """Removes an item group; its members move on their own again."""
        return _typed(Ack, self.call("remove_group", session=session, group=group))

    def items_in_rect(self, session: str, rect: Sequence[float]) -> List[str]:
        """The ids of the items whose frames meet `rect` ``(x, y, w, h)``."""
        box = _core.numbers(rect, (4,), "a rectangle (x, y, w, h)")
        return _typed(ItemsInRect, self.call("items_in_rect", session=session, rect=box)).items

    def set_bounds(self, session: str, bounds: Sequence[float]) -> Ack:
        """Changes a scene's reference bounds: ``(w, h)`` (origin 0, 0) or ``(x, y, w, h)``."""
        box = _core.numbers(bounds, (2, 4), "bounds (w, h) or (x, y, w, h)")
        return _typed(Ack, self.call("set_bounds", session=session, bounds=box))

    def set_item(
        self,
        session: str,
        item: str,
        *,
        center: Optional[Sequence[float]] = None,
        angle: Optional[float] = None,
    ) -> Ack:
        """Moves and/or turns an item; the animator re-reads it."""
        return _typed(
            Ack,
            self.call(
                "set_item",
                session=session,
                item=item,
                center=None if center is None else list(_core.pair(center)),
                angle=angle,
            ),
        )

    def add_velocity(
        self,
        session: str,
        item: str,
        velocity: Optional[Sequence[float]] = None,
        angular: Optional[float] = None,
    ) -> Ack:
        """Adds linear (vx, vy) and/or angular velocity to an item."""
        return _typed(
            Ack,
            self.call(
                "add_velocity",
                session=session,
                item=item,
                velocity=None if velocity is None else list(_core.pair(velocity)),
                angular=angular,
            ),
        )

    # Waiting for events ----------------------------------------------------------------

    def keep(self, events: Sequence[Event]) -> None:
        """Keeps `events` (already handed out, e.g. by a measurement's steps) for `next_event`,
        `wait_for` and `run_until`, after those kept before."""
        self._pending.keep((event.raw, 0) for event in events)

    def clock_of(self, session: str) -> str:
        """``manual`` or ``realtime``: known for sessions this client opened, else asked with
        ``list`` (``realtime`` for a session the daemon does not list)."""
        if session not in self._clocks:
            for info in self.list_sessions():
                if info.session == session:
                    self._clocks[session] = info.clock
                    break
            else:
                return "realtime"
        return self._clocks[session]

    def next_event(self, timeout: Optional[float] = None) -> Event:
        """The next event: one kept by `request`, else the next to arrive within `timeout`
        seconds (default: the client's), else `DyndTimeout`."""
        if self._pending:
            return self._typed_event(self._pending.pop())
        wait = self.timeout if timeout is None else timeout
        return self._typed_event(self._next_event("an event", wait))

    @overload
    def wait_for(
        self, ev: Literal["done"] = ..., session: Optional[str] = ..., timeout: float = ...
    ) -> DoneEvent: ...

    @overload
    def wait_for(self, ev: str, session: Optional[str] = ..., timeout: float = ...) -> Event: ...

    def wait_for(
        self, ev: str = "done", session: Optional[str] = None, timeout: float = 10.0
    ) -> Event:
        """Reads events until one whose ``ev`` is `ev` (of `session`, when given) and returns
        it; the events before it are dropped. Raises `DyndTimeout` after `timeout` seconds,
        naming what it waited for and what came instead; `ConnectionClosed` if the daemon
        closes the connection first. Events only come for sessions this connection opened or
        watches, and a manual session makes none unless stepped (see `run_until`)."""
        deadline = time.monotonic() + timeout
        seen: List[Event] = []
        what = _core.describe_wait(ev, session)
        while True:
            left = deadline - time.monotonic()
            try:
                if self._pending:
                    event = self._typed_event(self._pending.pop())
                else:
                    if left <= 0:
                        raise _Expired()
                    event = self._typed_event(self._next_event(what, left, quiet=True))
            except _Expired:
                raise DyndTimeout(
                    "%s did not come within %g s (%s came meanwhile)"
                    % (what, timeout, _core.summary(seen))
                ) from None
            if _core.matches(event, ev, session):
                return event
            seen.append(event)

    @overload
    def run_until(
        self,
        session: str,
        ev: Literal["done"] = ...,
        *,
        max_seconds: float = ...,
        count: int = ...,
        timeout: float = ...,
    ) -> DoneEvent: ...

    @overload
    def run_until(
        self,
        session: str,
        ev: str,
        *,
        max_seconds: float = ...,
        count: int = ...,
        timeout: float = ...,
    ) -> Event: ...

    def run_until(
        self,
        session: str,
        ev: str = "done",
        *,
        max_seconds: float = 10.0,
        count: int = 30,
        timeout: float = 10.0,
    ) -> Event:
        """Runs `session` until an `ev` event of it (default ``done``) and returns it. A manual
        session is stepped `count` frames at a time, for at most `max_seconds` of animation;
        a realtime one is waited for (`wait_for`, at most `timeout` seconds). Raises
        `DyndTimeout` when the event does not come in time or the session comes to rest
        without it; the message names the events seen."""
        for index in range(len(self._pending)):
            event = parse_event(self._pending.kept[index][0])
            if _core.matches(event, ev, session):
                self._pending.take(index)
                return event
        if self.clock_of(session) != "manual":
            return self.wait_for(ev, session, timeout)
        seen: List[Event] = []
        start: Optional[float] = None
        while True:
            stepped = self.step(session, count=count)
            for event in stepped.events:
                if _core.matches(event, ev, session):
                    return event
                seen.append(event)
            frames = stepped.frames
            if start is None:
                start = frames[0].t if frames else stepped.t
            what = _core.describe_wait(ev, session)
            if not stepped.running:
                raise DyndTimeout(
                    "%s did not come: the session came to rest at t=%g (%s)"
                    % (what, stepped.t, _core.summary(seen))
                )
            if stepped.t - start >= max_seconds:
                raise DyndTimeout(
                    "%s did not come within %g s of animation (%s)"
                    % (what, max_seconds, _core.summary(seen))
                )

    # The line layer ----------------------------------------------------------------------

    def _typed_event(self, event: JSON) -> Event:
        try:
            return _core.typed_event(event)
        except BadReply:
            self.close()
            raise

    def _send(self, op: str, line: bytes, deadline: Optional[float]) -> None:
        """Writes `line` whole before `deadline`; else closes the connection and raises
        `DyndTimeout` (a daemon that does not read cannot hold the client)."""
        if self._closed:
            raise ConnectionClosed("the connection to dynd at %s is closed" % self.path)
        try:
            if deadline is not None:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise socket.timeout()
                self._sock.settimeout(left)
            else:
                self._sock.settimeout(None)
            self._sock.sendall(line)
        except socket.timeout:
            self.close()
            raise DyndTimeout(
                "the '%s' request (%d bytes) could not be sent to dynd at %s within %g s: it "
                "does not read; the connection was closed" % (op, len(line), self.path, self.timeout or 0)
            ) from None
        except (BrokenPipeError, ConnectionResetError) as error:
            self.close()
            raise ConnectionClosed(
                "dynd at %s closed the connection (%s)" % (self.path, error.strerror)
            ) from None

    def _next_event(self, what: str, timeout: Optional[float], quiet: bool = False) -> JSON:
        """The next message within `timeout` seconds, which must be an event (no request is
        waiting)."""
        deadline = None if timeout is None else time.monotonic() + timeout
        message, _ = self._read(what, deadline, timeout, closing=False, quiet=quiet)
        try:
            if not _core.is_event(message):
                raise _core.unexpected_reply(message)
        except BadReply:
            self.close()
            raise
        return message

    def _read(
        self,
        what: str,
        deadline: Optional[float],
        seconds: Optional[float],
        *,
        closing: bool,
        quiet: bool = False,
    ) -> Tuple[JSON, int]:
        """The next message, checked (`_core.decode_line`), and the length of its line. When
        the monotonic clock passes `deadline` (`seconds` after the call began) first: `_Expired`
        when `quiet`, else `DyndTimeout`
        (closing the connection when `closing`: a reply is then owed and would come late). A
        line that breaks the protocol closes the connection and raises its `BadReply`."""
        try:
            while True:
                line = self._lines.next_line()
                if line is not None:
                    return _core.decode_line(line), len(line)
                if self._closed:
                    raise ConnectionClosed("the connection to dynd at %s is closed" % self.path)
                if deadline is None:
                    self._sock.settimeout(None)
                else:
                    left = deadline - time.monotonic()
                    if left <= 0:
                        raise _Expired()
                    self._sock.settimeout(left)
                try:
                    chunk = self._sock.recv(_core.CHUNK)
                except socket.timeout:
                    raise _Expired() from None
                except ConnectionResetError:
                    chunk = b""
                if not chunk:
                    cut = self._lines.pending
                    self.close()
                    raise ConnectionClosed(
                        "dynd at %s closed the connection%s"
                        % (self.path, " in the middle of a line (%d bytes)" % cut if cut else "")
                    )
                self._lines.feed(chunk)
        except BadReply:
            self.close()
            raise
        except _Expired:
            if quiet:
                raise
            if closing:
                self.close()
            raise DyndTimeout(
                "%s did not come from dynd at %s within %g s%s"
                % (
                    what,
                    self.path,
                    seconds or 0,
                    "; the connection was closed" if closing else "",
                )
            ) from None


class _Expired(Exception):
    """A deadline passed while reading."""


def _sleep_until(deadline: float) -> None:
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            return
        time.sleep(left)
