"""What the blocking and the asyncio client share, free of I/O: request lines, splitting and
checking the daemon's lines (`LineSplitter`, `decode_line`, `check_answers`), the events held
unread (`Inbox`), the pan's samples, scene files, the errors of a connection that failed, was
closed or did not answer in time, summaries of events for error messages (the ops themselves
are `dynd.ops`). Not part of the public API except `PanResult` and `PanSample` (re-exported by the
package) and the limits below (documented in the package's README)."""

from __future__ import annotations

import collections
import errno
import json
import math
import os
from dataclasses import dataclass, field
from typing import (
    Any,
    Deque,
    Dict,
    Iterable,
    List,
    Mapping,
    Optional,
    Sequence,
    Tuple,
    Type,
    TypeVar,
    Union,
)

from . import _protocol
from .errors import (
    BadReply,
    ConnectionClosed,
    DaemonNotRunning,
    DyndError,
    DyndTimeout,
    InvalidUTF8,
    LineTooLong,
    NonFiniteNumber,
    NotJSON,
    ReplyMismatch,
    TooDeep,
    TooManyEvents,
    quote,
)
from .messages import DoneEvent, Event, HandoffEvent, Reply, Vec2, parse_event, parse_reply

__all__ = [
    "PanResult",
    "PanSample",
    "pan_samples",
    "recorded_samples",
    "load_scene",
    "open_fields",
    "encode",
    "MAX_LINE",
    "MAX_DEPTH",
    "MAX_EVENTS",
    "MAX_EVENT_BYTES",
]

JSON = Dict[str, Any]
#: The longest line a client reads, in bytes without its newline (the clients' `max_line`):
#: 64 MiB, the most `dynd --max-line` allows, and far more than any line dynd writes (its
#: replies and events are bounded, protocol/PROTOCOL.md section 12). A longer line raises
#: `LineTooLong` as soon as that many bytes came without a newline.
MAX_LINE = _protocol.MAX_LINE_BYTES
#: Deepest nesting of arrays and objects a client accepts: the daemon's own limit (its deepest
#: message is 56 levels). Deeper is `TooDeep`.
MAX_DEPTH = _protocol.MAX_NESTING_DEPTH
#: Most events a client holds unread (the clients' `max_events`): those that came while it waits
#: for a reply, and those kept for `next_event`. More is `TooManyEvents`.
MAX_EVENTS = 100_000
#: Most bytes of event lines a client holds unread (`max_event_bytes`); more is `TooManyEvents`.
MAX_EVENT_BYTES = 64 * 1024 * 1024
#: Bytes asked of the socket at a time.
CHUNK = 65536

#: A scene: a dict (the scene object of protocol/PROTOCOL.md, section 6) or a JSON file's path.
SceneSource = Union[Mapping[str, Any], str, "os.PathLike[str]"]

PACES = ("auto", "realtime", "step", "none")
#: The longest ``dt`` of one ``step`` (protocol/PROTOCOL.md, ``step``): a longer interval
#: between a recording's samples is stepped in parts.
MAX_STEP_DT = _protocol.MAX_STEP_DT
#: How many 60 Hz samples a pan has per second.
SAMPLE_RATE = 60


def encode(op: str, fields: Mapping[str, Any], request_id: Any = None) -> bytes:
    """One request line: ``{"op": op, "id": request_id, **fields}`` as compact JSON and
    ``\\n``. Fields whose value is None are left out (the daemon's default applies). Raises
    ValueError for a non-finite number (the daemon would refuse it)."""
    request: Dict[str, Any] = {"op": op}
    if request_id is not None:
        request["id"] = request_id
    request.update((k, v) for k, v in fields.items() if v is not None)
    return json.dumps(request, separators=(",", ":"), allow_nan=False).encode("utf-8") + b"\n"


class LineSplitter:
    """Splits the bytes a connection delivers into lines, in time linear in their size however
    they are chunked: each byte is searched for ``\\n`` once, and consumed lines are dropped
    from the front only once they are half the buffer. A line longer than `max_line` raises
    `LineTooLong` as soon as that many bytes are held without a newline, so at most about
    `max_line` plus one chunk is ever held."""

    def __init__(self, max_line: int = MAX_LINE) -> None:
        if max_line < 1:
            raise ValueError("max_line must be positive, not %r" % max_line)
        self.max_line = max_line
        self._buffer = bytearray()
        self._start = 0
        self._scanned = 0

    @property
    def pending(self) -> int:
        """Bytes held that do not form a complete line yet."""
        return len(self._buffer) - self._start

    def feed(self, data: bytes) -> None:
        """Adds bytes read from the connection."""
        self._buffer += data

    def next_line(self) -> Optional[bytes]:
        """The next complete line without its ``\\n``, or None when more bytes are needed."""
        newline = self._buffer.find(b"\n", self._scanned)
        if newline < 0:
            self._scanned = len(self._buffer)
            if self.pending > self.max_line:
                raise LineTooLong(
                    "the daemon wrote a line longer than %d bytes (the client's max_line): %s"
                    % (self.max_line, quote(self._buffer[self._start : self._start + 201]))
                )
            return None
        if newline - self._start > self.max_line:
            raise LineTooLong(
                "the daemon wrote a line of %d bytes, longer than the client's max_line (%d): %s"
                % (newline - self._start, self.max_line, quote(self._buffer[self._start : newline]))
            )
        line = bytes(self._buffer[self._start : newline])
        self._start = self._scanned = newline + 1
        if self._start == len(self._buffer):
            self._buffer.clear()
            self._start = self._scanned = 0
        elif self._start >= CHUNK and self._start * 2 >= len(self._buffer):
            del self._buffer[: self._start]
            self._scanned -= self._start
            self._start = 0
        return line


class _NonFinite(Exception):
    """`json.loads` met ``NaN``, ``Infinity`` or ``-Infinity``."""


def _refuse_constant(name: str) -> Any:
    raise _NonFinite(name)


def decode_line(line: bytes) -> JSON:
    """The message one line of the daemon holds, checked: UTF-8 (`InvalidUTF8`), JSON
    (`NotJSON`), no ``NaN``/``Infinity`` and no number that overflows a double
    (`NonFiniteNumber`), at most `MAX_DEPTH` levels deep (`TooDeep`), an object (`BadReply`)."""
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError as error:
        raise InvalidUTF8(
            "the daemon wrote a line that is not UTF-8 (byte %d): %s" % (error.start, quote(line))
        ) from None
    try:
        message = json.loads(text, parse_constant=_refuse_constant)
    except _NonFinite as error:
        raise NonFiniteNumber(
            "the daemon wrote %s, which is not a JSON number: %s" % (error, quote(line))
        ) from None
    except RecursionError:
        raise TooDeep(
            "the daemon wrote a line nested deeper than %d levels: %s" % (MAX_DEPTH, quote(line))
        ) from None
    except ValueError as error:
        raise NotJSON(
            "the daemon wrote a line that is not JSON (%s): %s" % (error, quote(line))
        ) from None
    if not isinstance(message, dict):
        raise BadReply("the daemon wrote a line that is not a JSON object: %s" % quote(line))
    _check_values(message, line)
    return message


def _check_values(message: JSON, line: bytes) -> None:
    """Raises `TooDeep` or `NonFiniteNumber` (a number such as 1e400 overflows to infinity)."""
    stack: List[Tuple[Any, int]] = [(message, 1)]
    while stack:
        value, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise TooDeep(
                "the daemon wrote a line nested deeper than %d levels: %s" % (MAX_DEPTH, quote(line))
            )
        for child in value.values() if isinstance(value, dict) else value:
            if isinstance(child, (dict, list)):
                stack.append((child, depth + 1))
            elif isinstance(child, float) and not math.isfinite(child):
                raise NonFiniteNumber(
                    "the daemon wrote a number that overflows a double: %s" % quote(line)
                )


def is_event(message: JSON) -> bool:
    """Whether a decoded message is an event (``ev``, no ``ok``) rather than a reply; raises
    `BadReply` for one that is neither, or whose ``ok`` is not a boolean."""
    if "ok" in message:
        if not isinstance(message["ok"], bool):
            raise BadReply("the daemon wrote a reply whose 'ok' is not true or false: %s"
                           % quote(message), message)
        return False
    if isinstance(message.get("ev"), str):
        return True
    raise BadReply(
        "the daemon wrote an object with neither 'ok' (a reply) nor 'ev' (an event): %s"
        % quote(message),
        message,
    )


def check_answers(reply: JSON, request_id: Any, op: str) -> None:
    """Raises `ReplyMismatch` unless `reply` answers the request `request_id` (an ``op``):
    it echoes that id, or it is an error reply without one (absent or null: the daemon could
    not read the request's id, protocol/PROTOCOL.md section 3)."""
    echoed = reply.get("id")
    if echoed is None and reply.get("ok") is False:
        return
    if type(echoed) is type(request_id) and echoed == request_id:
        return
    raise ReplyMismatch(
        "the daemon answered the '%s' request %s with a reply %s: %s"
        % (
            op,
            json.dumps(request_id),
            "without an id" if echoed is None else "to request %s" % quote(json.dumps(echoed)),
            quote(reply),
        ),
        reply,
    )


def unexpected_reply(reply: JSON) -> ReplyMismatch:
    """The error of a reply that came when no request was waiting."""
    return ReplyMismatch(
        "the daemon wrote a reply while no request was waiting: %s" % quote(reply), reply
    )


class Inbox:
    """The events a client holds unread: those kept for `next_event`, and (while a request
    waits) those that came before its reply, bounded by `max_events` events and
    `max_event_bytes` bytes of their lines (`TooManyEvents`)."""

    def __init__(self, max_events: int = MAX_EVENTS, max_event_bytes: int = MAX_EVENT_BYTES):
        self.max_events = max_events
        self.max_event_bytes = max_event_bytes
        self.kept: Deque[Tuple[JSON, int]] = collections.deque()
        self._kept_bytes = 0

    def __len__(self) -> int:
        return len(self.kept)

    def check(self, waiting: int, waiting_bytes: int) -> None:
        """Raises `TooManyEvents` if `waiting` more events of `waiting_bytes` bytes would be
        more than the client holds."""
        count = len(self.kept) + waiting
        size = self._kept_bytes + waiting_bytes
        if count > self.max_events or size > self.max_event_bytes:
            raise TooManyEvents(
                "the daemon sent %d events (%d bytes) that were not read, more than the client "
                "holds (max_events %d, max_event_bytes %d)"
                % (count, size, self.max_events, self.max_event_bytes)
            )

    def keep(self, events: Iterable[Tuple[JSON, int]]) -> None:
        """Keeps events (with the sizes of their lines) for `pop`."""
        for event, size in events:
            self.kept.append((event, size))
            self._kept_bytes += size

    def pop(self) -> JSON:
        """The oldest event kept."""
        event, size = self.kept.popleft()
        self._kept_bytes -= size
        return event

    def take(self, index: int) -> JSON:
        """The event kept at `index`, removed."""
        event, size = self.kept[index]
        del self.kept[index]
        self._kept_bytes -= size
        return event


class Exchange:
    """One request waiting for its reply: the events that come before it (`events`, with the
    sizes of their lines, bounded by what `pending` may still hold) and the reply's checks."""

    def __init__(self, op: str, request_id: Any, pending: Inbox) -> None:
        self.op = op
        self.request_id = request_id
        self.events: List[Tuple[JSON, int]] = []
        self._pending = pending
        self._size = 0

    def take(self, message: JSON, length: int) -> bool:
        """Takes the next message (its line `length` bytes long): False for an event, kept in
        `events`; True for the reply, checked to answer the request (`check_answers`). Raises
        `BadReply` for a message that is neither, `ReplyMismatch`, `TooManyEvents`."""
        if is_event(message):
            self.events.append((message, length))
            self._size += length
            self._pending.check(len(self.events), self._size)
            return False
        check_answers(message, self.request_id, self.op)
        return True


def typed_reply(op: str, reply: JSON, events: Sequence[JSON]) -> Reply:
    """`parse_reply` of a successful reply and its events; `BadReply` when a field the reply
    or an event must have is missing or of the wrong form."""
    try:
        return parse_reply(op, reply, [parse_event(e) for e in events])
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as error:
        raise BadReply(
            "the daemon's reply to '%s' (or an event before it) lacks a field or has one of the "
            "wrong form (%s: %s): %s" % (op, type(error).__name__, error, quote(reply)),
            reply,
        ) from None


def typed_event(event: JSON) -> Event:
    """`parse_event`; `BadReply` when a field the event must have is missing or wrong."""
    try:
        return parse_event(event)
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as error:
        raise BadReply(
            "the daemon wrote an event that lacks a field or has one of the wrong form "
            "(%s: %s): %s" % (type(error).__name__, error, quote(event)),
            event,
        ) from None


def error_of(reply: Dict[str, Any]) -> Optional[DyndError]:
    """The `DyndError` of an error reply, None for a successful one."""
    return None if reply.get("ok") else DyndError.from_reply(reply)


def connect_failed(path: str, error: OSError) -> OSError:
    """The error of a connection to `path` that failed with `error`: `DaemonNotRunning` when
    nothing listens there (no socket, or a stale one), else an `OSError` naming the path."""
    if isinstance(error, (FileNotFoundError, ConnectionRefusedError)) or error.errno in (
        errno.ENOENT,
        errno.ECONNREFUSED,
    ):
        return DaemonNotRunning(path, error.strerror or str(error))
    return OSError(error.errno, "cannot connect to dynd at %s: %s" % (path, error.strerror or error))


def not_accepted(path: str, timeout: Optional[float]) -> DyndTimeout:
    """The error of a connection to `path` not accepted within `timeout` seconds."""
    return DyndTimeout("dynd at %s did not accept the connection within %s s" % (path, timeout))


def closed_by_daemon(path: str, *, reason: Optional[str] = None, cut: int = 0) -> ConnectionClosed:
    """The error of a connection the daemon at `path` closed: while the client wrote (`reason`,
    the system's word for it) or read (`cut`: the bytes of an unfinished line it left)."""
    if reason is not None:
        detail = " (%s)" % reason
    else:
        detail = " in the middle of a line (%d bytes)" % cut if cut else ""
    return ConnectionClosed("dynd at %s closed the connection%s" % (path, detail))


def late(what: str, path: str, seconds: Optional[float], closing: bool) -> DyndTimeout:
    """The error of `what` (``"a reply to 'get'"``, ``"an event"``) not coming from the daemon
    at `path` within `seconds`; `closing`: the client closed the connection (a reply was owed
    and would come late)."""
    return DyndTimeout(
        "%s did not come from dynd at %s within %g s%s"
        % (what, path, seconds or 0, "; the connection was closed" if closing else "")
    )


def not_seen(what: str, timeout: float, seen: Iterable[Event]) -> DyndTimeout:
    """The error of `what` (``"a 'done' event of session 'lock'"``) not coming within `timeout`
    seconds, naming the events that came instead."""
    return DyndTimeout("%s did not come within %g s (%s came meanwhile)" % (what, timeout, summary(seen)))


def pair(value: Sequence[float]) -> Tuple[float, float]:
    """`value` as an ``(x, y)`` tuple of floats; ValueError unless it has two numbers."""
    if len(value) != 2:
        raise ValueError("expected two numbers (x, y), got %r" % (value,))
    return (float(value[0]), float(value[1]))


def numbers(value: Sequence[float], counts: Tuple[int, ...], what: str) -> List[float]:
    """`value` as a list of floats; ValueError unless it has one of `counts` numbers (a
    rectangle ``(x, y, w, h)``, bounds ``(w, h)`` or ``(x, y, w, h)``)."""
    if len(value) not in counts:
        raise ValueError("expected %s, got %r" % (what, value))
    return [float(v) for v in value]


def load_scene(scene: SceneSource) -> Dict[str, Any]:
    """The scene object of `scene`: a mapping as given, or the JSON object in the file at the
    path `scene`."""
    if isinstance(scene, Mapping):
        return dict(scene)
    with open(os.fspath(scene), encoding="utf-8") as handle:
        loaded = json.load(handle)
    if not isinstance(loaded, dict):
        raise ValueError("%s does not hold a JSON object" % os.fspath(scene))
    return loaded


def open_fields(
    *,
    transition: Optional[str] = None,
    scene: Optional[SceneSource] = None,
    params: Optional[Mapping[str, Any]] = None,
    session: Optional[str] = None,
    clock: Optional[str] = None,
    fps: Optional[float] = None,
    keep: Optional[bool] = None,
    bounds: Optional[Sequence[float]] = None,
    reduce_motion: Optional[bool] = None,
) -> Dict[str, Any]:
    """The fields of an ``open`` request (None: left out, the daemon's default)."""
    return {
        "reduce_motion": reduce_motion,
        "bounds": None if bounds is None else [float(v) for v in bounds],
        "session": session,
        "transition": transition,
        "scene": None if scene is None else load_scene(scene),
        "params": None if params is None else dict(params),
        "clock": clock,
        "fps": fps,
        "keep": keep,
    }


@dataclass
class PanSample:
    """One request of a pan: `phase`, position (`x`, `y`), time `t` from the first sample,
    the release velocity on ``ended`` (else None), and `step` — the seconds of the one-frame
    step a manual session takes before this sample (None for the first)."""

    phase: str
    x: float
    y: float
    t: float
    velocity: Optional[Vec2]
    step: Optional[float]

    def fields(self, session: str, estimator: Optional[str]) -> Dict[str, Any]:
        """The fields of this sample's ``gesture`` request."""
        fields: Dict[str, Any] = {
            "session": session,
            "phase": self.phase,
            "x": self.x,
            "y": self.y,
            "t": self.t,
        }
        if self.velocity is not None:
            fields["vx"], fields["vy"] = self.velocity
        if estimator is not None:
            fields["estimator"] = estimator
        return fields


def pan_samples(
    start: Sequence[float],
    end: Sequence[float],
    duration: float = 0.25,
    release_velocity: Optional[Sequence[float]] = None,
    cancel: bool = False,
) -> List[PanSample]:
    """The samples of a straight pan from `start` to `end` over `duration` seconds, as
    ``dynctl gesture`` sends them: ``began`` at `start` (t 0), ``changed`` every 1/60 s along
    the line, ``ended`` (or ``cancelled``) at `end` at t = `duration`, with `release_velocity`
    (vx, vy) when given (else the daemon estimates it from the samples)."""
    if not (0 <= duration <= 60):
        raise ValueError("duration must be between 0 and 60 seconds, not %r" % duration)
    x0, y0 = pair(start)
    x1, y1 = pair(end)
    velocity = None if release_velocity is None else pair(release_velocity)
    count = max(1, int(round(duration * SAMPLE_RATE)))
    interval = duration / count
    samples = []
    for index in range(count + 1):
        fraction = index / count
        if index == 0:
            phase = "began"
        elif index == count:
            phase = "cancelled" if cancel else "ended"
        else:
            phase = "changed"
        samples.append(
            PanSample(
                phase=phase,
                x=x0 + (x1 - x0) * fraction,
                y=y0 + (y1 - y0) * fraction,
                t=duration * fraction,
                velocity=velocity if phase == "ended" else None,
                step=interval if index > 0 and interval > 0 else None,
            )
        )
    return samples


def recorded_samples(
    samples: Sequence[Sequence[float]],
    release_velocity: Optional[Sequence[float]] = None,
    cancel: bool = False,
) -> List[PanSample]:
    """The requests of a recorded stroke, `samples` ``(t, x, y)``: ``began`` at the first,
    ``changed`` at each after, ``ended`` (or ``cancelled``) at the last with
    `release_velocity` when given; each with its recorded `t`, and a `step` of the interval
    since the one before when it is positive."""
    if len(samples) < 2:
        raise ValueError(
            "a stroke needs at least two samples (down and lift), not %d" % len(samples)
        )
    velocity = None if release_velocity is None else pair(release_velocity)
    planned = []
    for index, sample in enumerate(samples):
        if len(sample) != 3 or not all(math.isfinite(v) for v in sample):
            raise ValueError(
                "sample %d must be three finite numbers (t, x, y), not %r" % (index, sample)
            )
        t, x, y = (float(v) for v in sample)
        if index == 0:
            phase = "began"
        elif index == len(samples) - 1:
            phase = "cancelled" if cancel else "ended"
        else:
            phase = "changed"
        interval = t - float(samples[index - 1][0]) if index > 0 else 0.0
        planned.append(
            PanSample(
                phase=phase,
                x=x,
                y=y,
                t=t,
                velocity=velocity if phase == "ended" else None,
                step=interval if interval > 0 else None,
            )
        )
    return planned


@dataclass
class PanResult:
    """What a pan caused: every event of its ``gesture`` requests and of the steps between
    them (manual sessions), in order, typed."""

    events: List[Event] = field(default_factory=list)

    @property
    def handoff(self) -> Optional[HandoffEvent]:
        """The ``handoff`` event of the release, if the transition took the drag."""
        handoffs = [e for e in self.events if isinstance(e, HandoffEvent)]
        return handoffs[-1] if handoffs else None

    @property
    def done(self) -> Optional[DoneEvent]:
        """A ``done`` event that came during the pan, if any."""
        done = [e for e in self.events if isinstance(e, DoneEvent)]
        return done[-1] if done else None


def check_pace(pace: str) -> None:
    """Raises ValueError unless `pace` is auto, realtime, step or none."""
    if pace not in PACES:
        raise ValueError("pace must be one of %s, not %r" % (", ".join(PACES), pace))


def summary(events: Iterable[Event]) -> str:
    """How many events of each kind, e.g. ``"12 events: 10 frame, 1 handoff, 1 pause"``."""
    counts = collections.Counter(event.ev for event in events)
    total = sum(counts.values())
    if not total:
        return "no events"
    kinds = ", ".join("%d %s" % (n, ev) for ev, n in counts.items())
    return "%d event%s: %s" % (total, "" if total == 1 else "s", kinds)


def matches(event: Event, ev: str, session: Optional[str]) -> bool:
    """Whether `event` is an `ev` event of `session` (any session when None)."""
    return event.ev == ev and (session is None or event.session == session)


def describe_wait(ev: str, session: Optional[str]) -> str:
    """``"a 'done' event of session 'lock'"``."""
    return "a '%s' event%s" % (ev, "" if session is None else " of session '%s'" % session)


R = TypeVar("R", bound=Reply)


def typed(kind: Type[R], reply: Reply) -> R:
    """`reply`, checked to be a `kind` (the op's reply class)."""
    if not isinstance(reply, kind):
        raise TypeError("expected %s, got %r" % (kind.__name__, reply))
    return reply
