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
the events that came before it. The ops are the op table's (`dynd.ops`), the blocking client's
own, so both return the same types: their methods come from the one list of both clients,
`dynd.ops.OpMethods`, as ``async`` methods that run the entry with `AsyncClient.perform`;
realtime pans are paced with `asyncio.sleep`. The checks are the blocking client's
(`dynd._core`): ids matched, a total deadline per call, bounded lines, nesting and events held,
`BadReply` subclasses for lines that break the protocol.
"""

from __future__ import annotations

import asyncio
import socket
from typing import (
    Any,
    AsyncIterator,
    Awaitable,
    Callable,
    Dict,
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

__all__ = ["AsyncClient"]

JSON = _core.JSON
T = TypeVar("T")
R = TypeVar("R")


class AsyncClient(OpMethods):
    """One asyncio connection to dynd; make it with ``await AsyncClient.connect(path)``.

    The socket lookup, trust checks and errors are the blocking `Client`'s: `InvalidSocketPath`
    and `UntrustedSocket` before anything is sent, `DaemonNotRunning` naming the path, `DyndError` for an error
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
        #: What the connection knows besides its socket, and its ops (`dynd.ops`).
        self.ops = Ops(max_events, max_event_bytes)

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
                raise _core.not_accepted(path, timeout) from None
            except OSError as error:
                raise _core.connect_failed(path, error) from None
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
        line, exchange = self.ops.start(op, fields)
        async with self._lock:
            # Closing on a timeout: the reply is still owed, and later lines would answer the
            # wrong request.
            reply = await self._within(
                self._send_and_read(line, exchange),
                "a reply to '%s'" % op,
                self.timeout,
                closing=True,
            )
        error = _core.error_of(reply)
        if error is not None:
            if isinstance(error, BadReply):
                self._abort()
            raise error
        return reply, exchange.events

    async def _send_and_read(self, line: bytes, exchange: _core.Exchange) -> JSON:
        """Sends `line` and reads up to its reply, the events before it kept in `exchange`."""
        self._writer.write(line)
        try:
            await self._writer.drain()
        except ConnectionError as lost:
            self._abort()
            raise _core.closed_by_daemon(self.path, reason=lost.strerror or str(lost)) from None
        while True:
            message, length = await self._read()
            if exchange.take(message, length):
                return message

    async def request(self, op: str, **fields: Any) -> JSON:
        """Sends one request and returns its reply as parsed JSON; its events are kept for
        `next_event` and `events`."""
        reply, events = await self._exchange(op, fields)
        self.ops.pending.keep(events)
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

    async def perform(self, work: Work[R]) -> R:
        """Runs an entry of the op table (`dynd.ops`) over this connection: sends its requests,
        pausing and waiting for events as a plan asks, and returns its result. Every op method
        (`dynd.ops.OpMethods`) is this with its entry."""
        if isinstance(work, Request):
            return await self._request(work)
        loop = asyncio.get_running_loop()
        began = loop.time()
        answer: Any = None
        try:
            while True:
                try:
                    step = work.send(answer)
                except StopIteration as finished:
                    result: R = finished.value
                    return result
                if isinstance(step, Request):
                    answer = await self._request(step)
                elif isinstance(step, Pause):
                    await asyncio.sleep(max(0.0, began + step.at - loop.time()))
                    answer = None
                else:
                    answer = await self.wait_for(step.ev, step.session, step.timeout)
        finally:
            work.close()

    async def _request(self, request: Request[R]) -> R:
        return request.result(await self.call(request.op, **request.fields))

    # The ops (``hello``, ``pan``, …) are inherited: `dynd.ops.OpMethods` lists them once for
    # both clients, each running its entry of the op table with `perform`.

    # Waiting for events ----------------------------------------------------------------

    def keep(self, events: Sequence[Event]) -> None:
        """Keeps `events` (already handed out, e.g. by a measurement's steps) for `next_event`,
        `wait_for` and `run_until`, after those kept before."""
        self.ops.pending.keep((event.raw, 0) for event in events)

    async def next_event(self, timeout: Optional[float] = None) -> Event:
        """The next event: one kept by `request`, else the next to arrive within `timeout`
        seconds (default: the client's), else `DyndTimeout`."""
        if self.ops.pending:
            return self._checked(_core.typed_event, self.ops.pending.pop())
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
                raise _core.not_seen(what, timeout, seen) from None
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
        return await self.perform(
            self.ops.run_until(session, ev, max_seconds=max_seconds, count=count, timeout=timeout)
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
            raise _core.late(what, self.path, timeout, closing) from None
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
                raise _core.closed_by_daemon(self.path, cut=cut)
            self._lines.feed(chunk)
