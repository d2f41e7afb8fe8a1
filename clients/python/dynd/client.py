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
"What the client checks"). The ops are the op table's (`dynd.ops`), run over a blocking socket
(`Client.perform`); their methods are inherited from `dynd.ops.OpMethods`, which lists them
once for both clients.
"""

from __future__ import annotations

import socket
import time
from typing import (
    Any,
    Dict,
    Iterator,
    List,
    Literal,
    Optional,
    Sequence,
    Tuple,
    TypeVar,
    overload,
)

from . import _core
from .errors import BadReply, ConnectionClosed, DyndTimeout
from .location import check_peer, resolve
from .messages import DoneEvent, Event, Reply
from .ops import OpMethods, Ops, Pause, Request, Work

__all__ = ["Client", "connect_socket"]

JSON = _core.JSON
R = TypeVar("R")


def connect_socket(path: str, timeout: Optional[float]) -> socket.socket:
    """A Unix stream socket connected to `path`, its daemon checked (`check_peer`); raises
    `DaemonNotRunning` (naming `path`) when nothing listens there, `UntrustedSocket` for a
    daemon of another user."""
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        sock.settimeout(timeout)
        try:
            sock.connect(path)
        except socket.timeout:
            raise _core.not_accepted(path, timeout) from None
        except OSError as error:
            raise _core.connect_failed(path, error) from None
        check_peer(sock, path)
    except BaseException:
        sock.close()
        raise
    return sock


class Client(OpMethods):
    """One connection to dynd. Not thread-safe: use one per thread.

    `path` is the socket; by default `default_socket_location()`, whose per-user directory is
    checked first. Raises, before anything is sent, `InvalidSocketPath` for a path no socket can
    have, `UntrustedSocket` for an unsafe directory or a daemon of another user, and
    `DaemonNotRunning` (naming the path) when no daemon listens.
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
        #: What the connection knows besides its socket, and its ops (`dynd.ops`).
        self.ops = Ops(max_events, max_event_bytes)
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

    def _exchange(
        self, op: str, fields: Dict[str, Any]
    ) -> Tuple[JSON, List[Tuple[JSON, int]]]:
        """`exchange`, with the size of each event's line."""
        deadline = None if self.timeout is None else time.monotonic() + self.timeout
        line, exchange = self.ops.start(op, fields)
        self._send(op, line, deadline)
        while True:
            message, length = self._read(
                "a reply to '%s'" % op, deadline, self.timeout, closing=True
            )
            try:
                if exchange.take(message, length):
                    break
            except BadReply:
                self.close()
                raise
        error = _core.error_of(message)
        if error is not None:
            if isinstance(error, BadReply):
                self.close()
            raise error
        return message, exchange.events

    def request(self, op: str, **fields: Any) -> JSON:
        """Sends one request and returns its reply as parsed JSON; the events it caused are
        kept for `events` and `next_event`. Raises `DyndError` for an error reply."""
        reply, events = self._exchange(op, fields)
        self.ops.pending.keep(events)
        return reply

    def events(self, until: Optional[str] = None) -> Iterator[Event]:
        """Yields typed events: those kept, then new ones as they arrive; stops after the first
        whose ``ev`` is `until` (if given), or when the daemon closes the connection. Each wait
        is bounded by the client's `timeout` (`DyndTimeout`)."""
        while True:
            try:
                event = self.next_event()
            except ConnectionClosed:
                return
            yield event
            if until is not None and event.ev == until:
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

    def perform(self, work: Work[R]) -> R:
        """Runs an entry of the op table (`dynd.ops`) over this connection: sends its requests,
        pausing and waiting for events as a plan asks, and returns its result. Every op method
        (`dynd.ops.OpMethods`) is this with its entry."""
        if isinstance(work, Request):
            return self._request(work)
        began = time.monotonic()
        answer: Any = None
        try:
            while True:
                try:
                    step = work.send(answer)
                except StopIteration as finished:
                    result: R = finished.value
                    return result
                if isinstance(step, Request):
                    answer = self._request(step)
                elif isinstance(step, Pause):
                    _sleep_until(began + step.at)
                    answer = None
                else:
                    answer = self.wait_for(step.ev, step.session, step.timeout)
        finally:
            work.close()

    def _request(self, request: Request[R]) -> R:
        return request.result(self.call(request.op, **request.fields))

    # The ops (``hello``, ``pan``, …) are inherited: `dynd.ops.OpMethods` lists them once for
    # both clients, each running its entry of the op table with `perform`.

    # Waiting for events ----------------------------------------------------------------

    def keep(self, events: Sequence[Event]) -> None:
        """Keeps `events` (already handed out, e.g. by a measurement's steps) for `next_event`,
        `wait_for` and `run_until`, after those kept before."""
        self.ops.pending.keep((event.raw, 0) for event in events)

    def next_event(self, timeout: Optional[float] = None) -> Event:
        """The next event: one kept by `request`, else the next to arrive within `timeout`
        seconds (default: the client's), else `DyndTimeout`."""
        if self.ops.pending:
            return self._typed_event(self.ops.pending.pop())
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
                if self.ops.pending:
                    event = self._typed_event(self.ops.pending.pop())
                else:
                    if left <= 0:
                        raise _Expired()
                    event = self._typed_event(self._next_event(what, left, quiet=True))
            except _Expired:
                raise _core.not_seen(what, timeout, seen) from None
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
        """Runs `session` until an `ev` event of it (default ``done``) and returns it
        (`dynd.ops.Ops.run_until`): a manual session is stepped `count` frames at a time, for
        at most `max_seconds` of animation; a realtime one is waited for (`wait_for`, at most
        `timeout` seconds). Raises `DyndTimeout` when the event does not come in time or the
        session comes to rest without it; the message names the events seen."""
        return self.perform(
            self.ops.run_until(session, ev, max_seconds=max_seconds, count=count, timeout=timeout)
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
            raise _core.closed_by_daemon(self.path, reason=error.strerror) from None

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
                    raise _core.closed_by_daemon(self.path, cut=cut)
                self._lines.feed(chunk)
        except BadReply:
            self.close()
            raise
        except _Expired:
            if quiet:
                raise
            if closing:
                self.close()
            raise _core.late(what, self.path, seconds, closing) from None


class _Expired(Exception):
    """A deadline passed while reading."""


def _sleep_until(deadline: float) -> None:
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            return
        time.sleep(left)
