"""The asyncio client: the blocking `Client`'s API with ``async`` methods.

    import asyncio
    from dynd import AsyncClient

    async def main() -> None:
        async with await AsyncClient.connect() as dynd:
            lock = (await dynd.open_transition("lock-screen")).session     # realtime clock
            pan = await dynd.pan(lock, (160, 500), (160, 380), duration=0.2)
            print(pan.handoff, (await dynd.wait_for("done", lock)).outcome)

    asyncio.run(main())

Requests on one client are sent one at a time (an `asyncio.Lock`); each returns its reply with
the events that came before it. Realtime pans are paced with `asyncio.sleep`. The checks are the
blocking client's (`dynd._core`): ids matched, a total deadline per call, bounded lines, nesting
and events held, `BadReply` subclasses for lines that break the protocol.
"""

from __future__ import annotations

import asyncio
import errno
import itertools
import socket
from typing import (
    Any,
    AsyncIterator,
    Awaitable,
    Callable,
    Dict,
    List,
    Mapping,
    Optional,
    Sequence,
    Tuple,
    TypeVar,
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

__all__ = ["AsyncClient"]

JSON = Dict[str, Any]
T = TypeVar("T")


class AsyncClient:
    """One asyncio connection to dynd; make it with ``await AsyncClient.connect(path)``.

    The socket lookup, trust checks and errors are the blocking `Client`'s: `UntrustedSocket`
    before anything is sent, `DaemonNotRunning` naming the path, `DyndError` for an error
    reply, `DyndTimeout` when a call (sending a request and reading up to its reply, or
    waiting for an event) takes longer than `timeout` seconds in all, `BadReply` subclasses for
    lines that break the protocol; `max_line`, `max_events`, `max_event_bytes` as `Client`'s.
    """

    def __init__(
        self,
        path: str,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        timeout: Optional[float],
        *,
        max_line: int = _core.MAX_LINE,
        max_events: int = _core.MAX_EVENTS,
        max_event_bytes: int = _core.MAX_EVENT_BYTES,
    ) -> None:
        """Wraps an open, checked connection; use `connect`."""
        self.path = path
        self.timeout = timeout
        self._reader = reader
        self._writer = writer
        self._lock = asyncio.Lock()
        self._lines = _core.LineSplitter(max_line)
        self._pending = _core.Inbox(max_events, max_event_bytes)
        self._ids = itertools.count(1)
        self._clocks: Dict[str, str] = {}

    @classmethod
    async def connect(
        cls,
        path: Optional[str] = None,
        timeout: Optional[float] = 10.0,
        *,
        max_line: int = _core.MAX_LINE,
        max_events: int = _core.MAX_EVENTS,
        max_event_bytes: int = _core.MAX_EVENT_BYTES,
    ) -> AsyncClient:
        """Connects to `path` (default: the socket lookup, its directory checked) and checks the
        daemon's uid before anything is sent."""
        path = resolve(path)
        loop = asyncio.get_running_loop()
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            sock.setblocking(False)
            try:
                await asyncio.wait_for(loop.sock_connect(sock, path), timeout)
            except asyncio.TimeoutError:
                raise DyndTimeout(
                    "dynd at %s did not accept the connection within %s s" % (path, timeout)
                ) from None
            except OSError as error:
                if error.errno in (errno.ENOENT, errno.ECONNREFUSED):
                    raise DaemonNotRunning(path, error.strerror or str(error)) from None
                raise OSError(
                    error.errno, "cannot connect to dynd at %s: %s" % (path, error.strerror)
                ) from None
            check_peer(sock, path)
            # The reader's own buffer stays small: lines are split by `_core.LineSplitter`.
            reader, writer = await asyncio.open_unix_connection(sock=sock, limit=4 * _core.CHUNK)
        except BaseException:
            sock.close()
            raise
        return cls(
            path,
            reader,
            writer,
            timeout,
            max_line=max_line,
            max_events=max_events,
            max_event_bytes=max_event_bytes,
        )

    async def __aenter__(self) -> AsyncClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def close(self) -> None:
        """Closes the connection; sessions it opened without ``keep`` close with it. What could
        not be sent yet is dropped (a daemon that does not read cannot hold the close)."""
        if self._writer.transport.get_write_buffer_size():
            self._writer.transport.abort()
        else:
            self._writer.close()
        try:
            await self._writer.wait_closed()
        except (ConnectionError, OSError):
            pass

    # The raw layer ---------------------------------------------------------------------

    async def exchange(self, op: str, **fields: Any) -> Tuple[JSON, List[JSON]]:
        """Sends one request; returns ``(reply, events)`` as parsed JSON. The request's ``id``
        is the next of this connection unless `fields` gives one. Raises `DyndError` for an
        error reply."""
        reply, events = await self._exchange(op, fields)
        return reply, [event for event, _ in events]

    async def _exchange(
        self, op: str, fields: Dict[str, Any]
    ) -> Tuple[JSON, List[Tuple[JSON, int]]]:
        """`exchange`, with the size of each event's line; the whole call within `timeout`."""
        request_id = fields.pop("id", None)
        if request_id is None:
            request_id = next(self._ids)
        line = _core.encode(op, fields, request_id)
        async with self._lock:
            # Closing on a timeout: the reply is still owed, and later lines would answer the
            # wrong request.
            reply, events = await self._within(
                self._send_and_read(op, line, request_id),
                "a reply to '%s'" % op,
                self.timeout,
                closing=True,
            )
        error = _core.error_of(reply)
        if error is not None:
            if isinstance(error, BadReply):
                self._abort()
            raise error
        return reply, events

    async def _send_and_read(
        self, op: str, line: bytes, request_id: Any
    ) -> Tuple[JSON, List[Tuple[JSON, int]]]:
        self._writer.write(line)
        try:
            await self._writer.drain()
        except ConnectionError as lost:
            self._abort()
            raise ConnectionClosed(
                "dynd at %s closed the connection (%s)" % (self.path, lost)
            ) from None
        events: List[Tuple[JSON, int]] = []
        size = 0
        while True:
            message, length = await self._read()
            if _core.is_event(message):
                events.append((message, length))
                size += length
                self._pending.check(len(events), size)
                continue
            _core.check_answers(message, request_id, op)
            return message, events

    async def request(self, op: str, **fields: Any) -> JSON:
        """Sends one request and returns its reply as parsed JSON; its events are kept for
        `next_event` and `events`."""
        reply, events = await self._exchange(op, fields)
        self._pending.keep(events)
        return reply

    async def events(self, until: Optional[str] = None) -> AsyncIterator[Event]:
        """Yields typed events (those kept first) until one whose ``ev`` is `until`, or until the
        daemon closes the connection. Each wait is bounded by `timeout` (`DyndTimeout`)."""
        while True:
            try:
                event = await self.next_event()
            except ConnectionClosed:
                return
            yield event
            if until is not None and event.ev == until:
                return

    async def call(self, op: str, **fields: Any) -> Reply:
        """Sends one request of any op; its typed reply with the events it caused."""
        reply, events = await self.exchange(op, **fields)
        return self._checked(_core.typed_reply, op, reply, events)

    # Typed ops ---------------------------------------------------------------------------

    async def hello(self) -> Hello:
        """The daemon's protocol version, name, version, transitions and their parameters."""
        return _typed(Hello, await self.call("hello"))

    async def open_transition(
        self,
        transition: str,
        params: Optional[Mapping[str, Any]] = None,
        *,
        session: Optional[str] = None,
        clock: Optional[str] = None,
        fps: Optional[float] = None,
        keep: Optional[bool] = None,
    ) -> Opened:
        """Opens a session of `transition` with its `params` (see `Client.open_transition`)."""
        fields = _core.open_fields(
            transition=transition, params=params, session=session, clock=clock, fps=fps, keep=keep
        )
        return await self._opened(fields, clock)

    async def open_scene(
        self,
        scene: SceneSource,
        *,
        session: Optional[str] = None,
        clock: Optional[str] = None,
        fps: Optional[float] = None,
        keep: Optional[bool] = None,
    ) -> Opened:
        """Opens a session of a scene: a dict or the path of a JSON file."""
        fields = _core.open_fields(scene=scene, session=session, clock=clock, fps=fps, keep=keep)
        return await self._opened(fields, clock)

    async def _opened(self, fields: Dict[str, Any], clock: Optional[str]) -> Opened:
        opened = _typed(Opened, await self.call("open", **fields))
        self._clocks[opened.session] = clock or "realtime"
        return opened

    async def gesture(
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
        """One pan event (see `Client.gesture`)."""
        fields: Dict[str, Any] = {"session": session, "phase": phase, "x": x, "y": y, "t": t}
        if velocity is not None:
            fields["vx"], fields["vy"] = _core.pair(velocity)
        fields["estimator"] = estimator
        return _typed(Ack, await self.call("gesture", **fields))

    async def pan(
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
        """A straight 60 Hz pan from `start` to `end` (see `Client.pan`); realtime pacing
        awaits `asyncio.sleep` between samples."""
        _core.check_pace(pace)
        if pace == "auto":
            pace = "step" if await self.clock_of(session) == "manual" else "realtime"
        loop = asyncio.get_running_loop()
        started = loop.time()
        result = PanResult()
        for sample in _core.pan_samples(start, end, duration, release_velocity, cancel):
            if sample.step is not None:
                if pace == "realtime":
                    await asyncio.sleep(max(0.0, started + sample.t - loop.time()))
                elif pace == "step":
                    result.events.extend((await self.step(session, dt=sample.step)).events)
            reply = await self.call("gesture", **sample.fields(session, estimator))
            result.events.extend(reply.events)
        return result

    async def tap(self, session: str, x: float, y: float) -> InputTaken:
        """A tap at (x, y)."""
        return _typed(InputTaken, await self.call("tap", session=session, x=x, y=y))

    async def swipe(
        self,
        session: str,
        direction: str,
        *,
        at: Optional[Sequence[float]] = None,
        velocity: Optional[Sequence[float]] = None,
    ) -> InputTaken:
        """A swipe `direction`, from `at` and with `velocity` when given."""
        fields: Dict[str, Any] = {"session": session, "direction": direction}
        if at is not None:
            fields["x"], fields["y"] = _core.pair(at)
        if velocity is not None:
            fields["vx"], fields["vy"] = _core.pair(velocity)
        return _typed(InputTaken, await self.call("swipe", **fields))

    async def step(self, session: str, count: int = 1, dt: Optional[float] = None) -> Stepped:
        """Advances a manual session by `count` frames of `dt` seconds (default 1/fps)."""
        return _typed(Stepped, await self.call("step", session=session, count=count, dt=dt))

    async def get(self, session: str) -> Snapshot:
        """The session's time, whether it runs, and every item's state."""
        return _typed(Snapshot, await self.call("get", session=session))

    async def watch(self, session: str) -> Watching:
        """From now on this connection also receives the session's events."""
        return _typed(Watching, await self.call("watch", session=session))

    async def close_session(self, session: str) -> Ack:
        """Closes the session."""
        self._clocks.pop(session, None)
        return _typed(Ack, await self.call("close", session=session))

    async def list_sessions(self) -> List[SessionInfo]:
        """Every open session, in the order they were opened (asked a page at a
        time: a reply holds about a megabyte of sessions)."""
        sessions: List[SessionInfo] = []
        start: Optional[int] = 0
        while start is not None:
            page = _typed(
                SessionList, await self.call("list", **({"from": start} if start else {}))
            )
            sessions += page.sessions
            start = page.next
        return sessions

    async def debug(self, session: str, enable: bool = True) -> DebugGeometry:
        """Starts (or stops) ``debug`` events; the geometry now."""
        return _typed(DebugGeometry, await self.call("debug", session=session, enable=enable))

    async def add_item(self, session: str, item: Mapping[str, Any]) -> Ack:
        """Adds an item object to a scene session."""
        return _typed(Ack, await self.call("add_item", session=session, item=dict(item)))

    async def add_behavior(self, session: str, behavior: Mapping[str, Any]) -> BehaviorAdded:
        """Adds a behavior object to a scene session; ``reply.behavior`` is its id."""
        reply = await self.call("add_behavior", session=session, behavior=dict(behavior))
        return _typed(BehaviorAdded, reply)

    async def remove_item(self, session: str, item: str) -> Ack:
        """Removes an item from a scene session."""
        return _typed(Ack, await self.call("remove_item", session=session, item=item))

    async def remove_behavior(self, session: str, behavior: str) -> Ack:
        """Removes a behavior from a scene session."""
        return _typed(Ack, await self.call("remove_behavior", session=session, behavior=behavior))

    async def remove_all_behaviors(self, session: str) -> Ack:
        """Removes every behavior of a scene session."""
        return _typed(Ack, await self.call("remove_all_behaviors", session=session))

    async def set_behavior(self, session: str, behavior: str, **fields: Any) -> Ack:
        """Sets fields of a behavior (e.g. ``magnitude=0.5``)."""
        reply = await self.call("set_behavior", session=session, behavior=behavior, **fields)
        return _typed(Ack, reply)

    async def behaviors(self, session: str) -> Behaviors:
        """A scene's behaviors with the current value of every field ``set_behavior`` sets."""
        return _typed(Behaviors, await self.call("behaviors", session=session))

    async def add_group(self, session: str, group: str, items: Sequence[str]) -> Ack:
        """Groups `items` of a scene into one rigid body called `group` (UIDynamicItemGroup);
        behaviors may then name `group` where they take items."""
        members = {"id": group, "items": list(items)}
        return _typed(Ack, await self.call("add_group", session=session, group=members))

    async def remove_group(self, session: str, group: str) -> Ack:
        """Removes an item group; its members move on their own again."""
        return _typed(Ack, await self.call("remove_group", session=session, group=group))

    async def items_in_rect(self, session: str, rect: Sequence[float]) -> List[str]:
        """The ids of the items whose frames meet `rect` ``(x, y, w, h)``."""
        box = _core.numbers(rect, (4,), "a rectangle (x, y, w, h)")
        reply = await self.call("items_in_rect", session=session, rect=box)
        return _typed(ItemsInRect, reply).items

    async def set_bounds(self, session: str, bounds: Sequence[float]) -> Ack:
        """Changes a scene's reference bounds: ``(w, h)`` (origin 0, 0) or ``(x, y, w, h)``."""
        box = _core.numbers(bounds, (2, 4), "bounds (w, h) or (x, y, w, h)")
        return _typed(Ack, await self.call("set_bounds", session=session, bounds=box))

    async def set_item(
        self,
        session: str,
        item: str,
        *,
        center: Optional[Sequence[float]] = None,
        angle: Optional[float] = None,
    ) -> Ack:
        """Moves and/or turns an item; the animator re-reads it."""
        point = None if center is None else list(_core.pair(center))
        reply = await self.call("set_item", session=session, item=item, center=point, angle=angle)
        return _typed(Ack, reply)

    async def add_velocity(
        self,
        session: str,
        item: str,
        velocity: Optional[Sequence[float]] = None,
        angular: Optional[float] = None,
    ) -> Ack:
        """Adds linear (vx, vy) and/or angular velocity to an item."""
        vector = None if velocity is None else list(_core.pair(velocity))
        reply = await self.call(
            "add_velocity", session=session, item=item, velocity=vector, angular=angular
        )
        return _typed(Ack, reply)

    # Waiting for events ----------------------------------------------------------------

    async def clock_of(self, session: str) -> str:
        """``manual`` or ``realtime`` (asked with ``list`` for a session opened elsewhere)."""
        if session not in self._clocks:
            for info in await self.list_sessions():
                if info.session == session:
                    self._clocks[session] = info.clock
                    break
            else:
                return "realtime"
        return self._clocks[session]

    async def next_event(self, timeout: Optional[float] = None) -> Event:
        """The next event: one kept by `request`, else the next to arrive within `timeout`
        seconds (default: the client's), else `DyndTimeout`."""
        if self._pending:
            return self._checked(_core.typed_event, self._pending.pop())
        async with self._lock:
            wait = self.timeout if timeout is None else timeout
            event = await self._within(self._read_event(), "an event", wait, closing=False)
        return self._checked(_core.typed_event, event)

    @overload
    async def wait_for(
        self, ev: Literal["done"] = ..., session: Optional[str] = ..., timeout: float = ...
    ) -> DoneEvent: ...

    @overload
    async def wait_for(
        self, ev: str, session: Optional[str] = ..., timeout: float = ...
    ) -> Event: ...

    async def wait_for(
        self, ev: str = "done", session: Optional[str] = None, timeout: float = 10.0
    ) -> Event:
        """Reads events until an `ev` event (of `session`, when given) and returns it; raises
        `DyndTimeout` after `timeout` seconds naming what came instead (see `Client.wait_for`)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        seen: List[Event] = []
        what = _core.describe_wait(ev, session)
        while True:
            try:
                event = await self.next_event(max(0.0, deadline - loop.time()))
            except DyndTimeout:
                raise DyndTimeout(
                    "%s did not come within %g s (%s came meanwhile)"
                    % (what, timeout, _core.summary(seen))
                ) from None
            if _core.matches(event, ev, session):
                return event
            seen.append(event)

    @overload
    async def run_until(
        self,
        session: str,
        ev: Literal["done"] = ...,
        *,
        max_seconds: float = ...,
        count: int = ...,
        timeout: float = ...,
    ) -> DoneEvent: ...

    @overload
    async def run_until(
        self,
        session: str,
        ev: str,
        *,
        max_seconds: float = ...,
        count: int = ...,
        timeout: float = ...,
    ) -> Event: ...

    async def run_until(
        self,
        session: str,
        ev: str = "done",
        *,
        max_seconds: float = 10.0,
        count: int = 30,
        timeout: float = 10.0,
    ) -> Event:
        """Runs `session` until an `ev` event of it (see `Client.run_until`)."""
        for index in range(len(self._pending)):
            event = parse_event(self._pending.kept[index][0])
            if _core.matches(event, ev, session):
                self._pending.take(index)
                return event
        if await self.clock_of(session) != "manual":
            return await self.wait_for(ev, session, timeout)
        seen: List[Event] = []
        start: Optional[float] = None
        what = _core.describe_wait(ev, session)
        while True:
            stepped = await self.step(session, count=count)
            for event in stepped.events:
                if _core.matches(event, ev, session):
                    return event
                seen.append(event)
            if start is None:
                start = stepped.frames[0].t if stepped.frames else stepped.t
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

    def _abort(self) -> None:
        """Drops the connection at once, whatever is still to be sent."""
        self._writer.transport.abort()

    def _checked(self, parse: Callable[..., T], *arguments: Any) -> T:
        """`parse(*arguments)`, the connection dropped when it raises `BadReply`."""
        try:
            return parse(*arguments)
        except BadReply:
            self._abort()
            raise

    async def _within(
        self, work: Awaitable[T], what: str, timeout: Optional[float], *, closing: bool
    ) -> T:
        """`work` within `timeout` seconds, else `DyndTimeout` (dropping the connection when
        `closing`); drops the connection when `work` raises `BadReply`."""
        try:
            return await asyncio.wait_for(work, timeout)
        except asyncio.TimeoutError:
            if closing:
                self._abort()
            raise DyndTimeout(
                "%s did not come from dynd at %s within %g s%s"
                % (what, self.path, timeout or 0, "; the connection was closed" if closing else "")
            ) from None
        except BadReply:
            self._abort()
            raise

    async def _read_event(self) -> JSON:
        """The next message, which must be an event (no request is waiting)."""
        message, _ = await self._read()
        if not _core.is_event(message):
            raise _core.unexpected_reply(message)
        return message

    async def _read(self) -> Tuple[JSON, int]:
        """The next message, checked (`_core.decode_line`), and the length of its line."""
        while True:
            line = self._lines.next_line()
            if line is not None:
                return _core.decode_line(line), len(line)
            try:
                chunk = await self._reader.read(_core.CHUNK)
            except ConnectionError:
                chunk = b""
            if not chunk:
                cut = self._lines.pending
                self._abort()
                raise ConnectionClosed(
                    "dynd at %s closed the connection%s"
                    % (self.path, " in the middle of a line (%d bytes)" % cut if cut else "")
                )
            self._lines.feed(chunk)
