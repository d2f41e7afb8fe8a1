"""The op table: for every op of protocol/PROTOCOL.md section 5, the request it sends and the
typed result its reply becomes, written once and free of I/O; and `OpMethods`, the one list
that makes each op a method of both clients.

`Ops` holds what one connection knows besides its socket (the next request id, the clock of
each session it opened, the events kept unread) and has one method per op. A method returns
either a `Request` (one request and how its typed reply becomes the result) or a `Plan`: a
generator, for what takes several steps (``list`` pages, a pan, running a session until an
event), that yields `Request`, `Pause` and `Wait` steps and is sent each step's answer.
`Client` and `AsyncClient` run both with their own transport (their ``perform``: `dynd.client`,
`dynd.aio`), so the two return the same types by construction. The one thing read here besides
the arguments is a scene file `open_scene` is given by path.

`OpMethods`, the base class of both clients, names each op once: ``hello =
OpMethod(Ops.hello)`` gives `Client` a ``hello()`` returning ``Hello`` and `AsyncClient` an
``async`` ``hello()`` returning the same, with the entry's parameters, checked by mypy, and its
documentation (`dynd._op_methods`). Adding an op to the client is a method of `Ops` and its line
in `OpMethods`; ``tests/test_ops.py`` fails for an entry without one. (`run_until` is the
exception: each client has its own method, for its overloads by event, that runs the entry.)
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import (
    Any,
    Callable,
    Dict,
    Generator,
    Generic,
    List,
    Mapping,
    Optional,
    Sequence,
    Tuple,
    Type,
    TypeVar,
    Union,
)

from . import _core
from ._core import PanResult, SceneSource
from ._op_methods import OpMethod
from ._protocol import OP_DEFAULTS
from .errors import DyndTimeout
from .messages import (
    Ack,
    BehaviorAdded,
    Behaviors,
    DebugGeometry,
    Event,
    Hello,
    InputTaken,
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

__all__ = ["Ops", "OpMethods", "OpMethod", "Request", "Pause", "Wait", "Plan", "Work"]

R = TypeVar("R")
K = TypeVar("K", bound=Reply)


@dataclass(frozen=True)
class Request(Generic[R]):
    """One request: its `op`, its `fields` (None: left out, the daemon's default) and `result`,
    which turns the typed reply (`dynd.messages.parse_reply`, with the request's events) into
    what the op returns."""

    op: str
    fields: Dict[str, Any]
    result: Callable[[Reply], R]


@dataclass(frozen=True)
class Pause:
    """A plan's step: wait until `at` seconds after the plan began (a realtime pan's pacing).
    Its answer is None."""

    at: float


@dataclass(frozen=True)
class Wait:
    """A plan's step: read events until an `ev` event of `session` (`Client.wait_for`), at most
    `timeout` seconds. Its answer is that event."""

    ev: str
    session: Optional[str]
    timeout: float


Step = Union[Request[Any], Pause, Wait]
#: What takes several steps: yields each step, is sent its answer, returns the op's result.
Plan = Generator[Step, Any, R]
#: What an op method of `Ops` returns.
Work = Union[Request[R], Plan[R]]


def _as(kind: Type[K]) -> Callable[[Reply], K]:
    """The reply itself, checked to be a `kind` (the op's reply class)."""
    return lambda reply: _core.typed(kind, reply)


def _items(reply: Reply) -> List[str]:
    return _core.typed(ItemsInRect, reply).items


class Ops:
    """One connection's ops without its transport; see the module's documentation.

    `pending` holds the events kept unread (`max_events` events, `max_event_bytes` bytes of
    their lines at most), `clocks` the clock of each session this connection opened or asked
    about.
    """

    def __init__(
        self, max_events: int = _core.MAX_EVENTS, max_event_bytes: int = _core.MAX_EVENT_BYTES
    ) -> None:
        self.pending = _core.Inbox(max_events, max_event_bytes)
        self.clocks: Dict[str, str] = {}
        self._ids = itertools.count(1)

    def start(self, op: str, fields: Mapping[str, Any]) -> Tuple[bytes, _core.Exchange]:
        """The request line of `op` with `fields` (None: left out) and the `Exchange` that
        waits for its reply. Its ``id`` is ``fields["id"]`` when given, else the next of this
        connection (1, 2, …)."""
        fields = dict(fields)
        request_id = fields.pop("id", None)
        if request_id is None:
            request_id = next(self._ids)
        line = _core.encode(op, fields, request_id)
        return line, _core.Exchange(op, request_id, self.pending)

    # One request each ------------------------------------------------------------------

    def hello(self) -> Request[Hello]:
        """The daemon's protocol version, name, version, transitions and their parameters."""
        return Request("hello", {}, _as(Hello))

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
    ) -> Request[Ack]:
        """One pan event: `phase` ``began``, ``changed``, ``ended`` or ``cancelled`` at (x, y),
        at time `t` (seconds, the client's clock), with the release `velocity` (vx, vy) on
        ``ended`` if known. A release's ``handoff`` is in ``reply.handoff``."""
        fields: Dict[str, Any] = {"session": session, "phase": phase, "x": x, "y": y, "t": t}
        if velocity is not None:
            fields["vx"], fields["vy"] = _core.pair(velocity)
        fields["estimator"] = estimator
        return Request("gesture", fields, _as(Ack))

    def tap(self, session: str, x: float, y: float) -> Request[InputTaken]:
        """A tap at (x, y); what it does is the transition's (`taken` says whether it acted)."""
        return Request("tap", {"session": session, "x": x, "y": y}, _as(InputTaken))

    def swipe(
        self,
        session: str,
        direction: str,
        *,
        at: Optional[Sequence[float]] = None,
        velocity: Optional[Sequence[float]] = None,
    ) -> Request[InputTaken]:
        """A swipe `direction` (``left``, ``right``, ``up``, ``down``), starting `at` (x, y) and
        with `velocity` (vx, vy) when given."""
        fields: Dict[str, Any] = {"session": session, "direction": direction}
        if at is not None:
            fields["x"], fields["y"] = _core.pair(at)
        if velocity is not None:
            fields["vx"], fields["vy"] = _core.pair(velocity)
        return Request("swipe", fields, _as(InputTaken))

    def step(self, session: str, count: int = 1, dt: Optional[float] = None) -> Request[Stepped]:
        """Advances a manual session by `count` frames of `dt` seconds (default 1/fps); the
        frames are in ``reply.frames``, their other events in ``reply.events``."""
        return Request("step", {"session": session, "count": count, "dt": dt}, _as(Stepped))

    def get(self, session: str) -> Request[Snapshot]:
        """The session's time, whether it runs, and every item's state."""
        return Request("get", {"session": session}, _as(Snapshot))

    def watch(self, session: str) -> Request[Watching]:
        """From now on this connection also receives the session's events."""
        return Request("watch", {"session": session}, _as(Watching))

    def close_session(self, session: str) -> Request[Ack]:
        """Closes the session (any connection may); its watchers get ``closed``."""
        self.clocks.pop(session, None)
        return Request("close", {"session": session}, _as(Ack))

    def debug(self, session: str, enable: bool = True) -> Request[DebugGeometry]:
        """Starts (or stops) ``debug`` events after each frame; the geometry now."""
        return Request("debug", {"session": session, "enable": enable}, _as(DebugGeometry))

    def add_item(self, session: str, item: Mapping[str, Any]) -> Request[Ack]:
        """Adds an item object to a scene session."""
        return Request("add_item", {"session": session, "item": dict(item)}, _as(Ack))

    def remove_item(self, session: str, item: str) -> Request[Ack]:
        """Removes an item (and what cannot exist without it) from a scene session."""
        return Request("remove_item", {"session": session, "item": item}, _as(Ack))

    def add_behavior(self, session: str, behavior: Mapping[str, Any]) -> Request[BehaviorAdded]:
        """Adds a behavior object to a scene session; ``reply.behavior`` is its id."""
        fields = {"session": session, "behavior": dict(behavior)}
        return Request("add_behavior", fields, _as(BehaviorAdded))

    def remove_behavior(self, session: str, behavior: str) -> Request[Ack]:
        """Removes a behavior from a scene session."""
        return Request("remove_behavior", {"session": session, "behavior": behavior}, _as(Ack))

    def remove_all_behaviors(self, session: str) -> Request[Ack]:
        """Removes every behavior of a scene session."""
        return Request("remove_all_behaviors", {"session": session}, _as(Ack))

    def set_behavior(self, /, session: str, behavior: str, **fields: Any) -> Request[Ack]:
        """Sets fields of a behavior (e.g. ``magnitude=0.5``)."""
        return Request(
            "set_behavior", dict({"session": session, "behavior": behavior}, **fields), _as(Ack)
        )

    def behaviors(self, session: str) -> Request[Behaviors]:
        """A scene's behaviors in the order they were added, each with the current value of
        every field ``set_behavior`` can set (``reply.behavior("b1").fields``)."""
        return Request("behaviors", {"session": session}, _as(Behaviors))

    def add_group(self, session: str, group: str, items: Sequence[str]) -> Request[Ack]:
        """Groups `items` of a scene into one rigid body called `group` (UIDynamicItemGroup);
        behaviors may then name `group` where they take items."""
        members = {"id": group, "items": list(items)}
        return Request("add_group", {"session": session, "group": members}, _as(Ack))

    def remove_group(self, session: str, group: str) -> Request[Ack]:
        """Removes an item group; its members move on their own again."""
        return Request("remove_group", {"session": session, "group": group}, _as(Ack))

    def items_in_rect(self, session: str, rect: Sequence[float]) -> Request[List[str]]:
        """The ids of the items whose frames meet `rect` ``(x, y, w, h)``."""
        box = _core.numbers(rect, (4,), "a rectangle (x, y, w, h)")
        return Request("items_in_rect", {"session": session, "rect": box}, _items)

    def define(self, document: SceneSource) -> Request[Ack]:
        """Defines a transition from a document (docs/TRANSITION-DOCUMENTS.md), for new
        sessions: a dict, or the path of a JSON file holding one. The daemon checks it whole;
        a document with errors is refused (``invalid_scene``), every error with its pointer."""
        return Request("define", {"document": _core.load_scene(document)}, _as(Ack))

    def set_bounds(self, session: str, bounds: Sequence[float]) -> Request[Ack]:
        """Changes a scene's reference bounds: ``(w, h)`` (origin 0, 0) or ``(x, y, w, h)``."""
        box = _core.numbers(bounds, (2, 4), "bounds (w, h) or (x, y, w, h)")
        return Request("set_bounds", {"session": session, "bounds": box}, _as(Ack))

    def set_item(
        self,
        session: str,
        item: str,
        *,
        center: Optional[Sequence[float]] = None,
        angle: Optional[float] = None,
    ) -> Request[Ack]:
        """Moves and/or turns an item; the animator re-reads it."""
        point = None if center is None else list(_core.pair(center))
        fields = {"session": session, "item": item, "center": point, "angle": angle}
        return Request("set_item", fields, _as(Ack))

    def add_velocity(
        self,
        session: str,
        item: str,
        velocity: Optional[Sequence[float]] = None,
        angular: Optional[float] = None,
    ) -> Request[Ack]:
        """Adds linear (vx, vy) and/or angular velocity to an item."""
        vector = None if velocity is None else list(_core.pair(velocity))
        fields = {"session": session, "item": item, "velocity": vector, "angular": angular}
        return Request("add_velocity", fields, _as(Ack))

    # Several steps each ----------------------------------------------------------------

    def open_transition(
        self,
        transition: str,
        params: Optional[Mapping[str, Any]] = None,
        *,
        session: Optional[str] = None,
        clock: Optional[str] = None,
        fps: Optional[float] = None,
        keep: Optional[bool] = None,
        bounds: Optional[Sequence[float]] = None,
        reduce_motion: Optional[bool] = None,
    ) -> Plan[Opened]:
        """Opens a session of the named `transition` with its `params` (e.g.
        ``{"open_speed": 800}``); `clock` ``"manual"`` or ``"realtime"`` (the default); `bounds`
        ``(w, h)`` or ``(x, y, w, h)`` in points (default 320×568: the transition lays itself
        out in them); `reduce_motion` True to be shown where a release's motion ends rather
        than the way there (None: the daemon's default). The session's name is `session` or
        one the daemon assigns (``reply.session``)."""
        fields = _core.open_fields(
            transition=transition, params=params, session=session, clock=clock, fps=fps,
            keep=keep, bounds=bounds, reduce_motion=reduce_motion,
        )
        return self._open(fields, clock)

    def open_scene(
        self,
        scene: SceneSource,
        *,
        session: Optional[str] = None,
        clock: Optional[str] = None,
        fps: Optional[float] = None,
        keep: Optional[bool] = None,
        reduce_motion: Optional[bool] = None,
    ) -> Plan[Opened]:
        """Opens a session of a scene: a dict (protocol/PROTOCOL.md, section 6) or the path of
        a JSON file holding one; `reduce_motion` as `open_transition`'s."""
        fields = _core.open_fields(
            scene=scene, session=session, clock=clock, fps=fps, keep=keep,
            reduce_motion=reduce_motion,
        )
        return self._open(fields, clock)

    def _open(self, fields: Dict[str, Any], clock: Optional[str]) -> Plan[Opened]:
        opened: Opened = yield Request("open", fields, _as(Opened))
        self.clocks[opened.session] = clock or OP_DEFAULTS["open"]["clock"]
        return opened

    def list_sessions(self) -> Plan[List[SessionInfo]]:
        """Every open session, in the order they were opened (asked a page at a time, each
        page's ``next`` the ``from`` of the next: a reply holds about a megabyte of
        sessions)."""
        sessions: List[SessionInfo] = []
        start: Optional[int] = 0
        while start is not None:
            fields = {"from": start} if start else {}
            page: SessionList = yield Request("list", fields, _as(SessionList))
            sessions += page.sessions
            start = page.next
        return sessions

    def clock_of(self, session: str) -> Plan[str]:
        """``manual`` or ``realtime``: known for sessions this client opened, else asked with
        ``list`` (``realtime`` for a session the daemon does not list)."""
        if session not in self.clocks:
            sessions: List[SessionInfo] = yield from self.list_sessions()
            for info in sessions:
                if info.session == session:
                    self.clocks[session] = info.clock
                    break
            else:
                return "realtime"
        return self.clocks[session]

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
    ) -> Plan[PanResult]:
        """A straight pan from `start` to `end` over `duration` seconds, sampled at 60 Hz as
        ``dynctl gesture`` does (`dynd.pan_samples`), released with `release_velocity` (vx, vy)
        when given (else the daemon estimates it), or cancelled.

        `pace`: ``step`` sends a one-frame ``step`` between samples (a manual session follows
        the finger), ``realtime`` spreads the samples over `duration` by the wall clock, ``none``
        sends them back to back, ``auto`` (the default) is ``step`` for a manual session and
        ``realtime`` otherwise. Returns every event the pan caused; ``result.handoff`` is the
        release's."""
        _core.check_pace(pace)
        samples = _core.pan_samples(start, end, duration, release_velocity, cancel)
        result: PanResult = yield from self._send(session, samples, pace, estimator)
        return result

    def replay_samples(
        self,
        session: str,
        samples: Sequence[Sequence[float]],
        *,
        release_velocity: Optional[Sequence[float]] = None,
        pace: str = "auto",
        estimator: Optional[str] = None,
        cancel: bool = False,
    ) -> Plan[PanResult]:
        """A recorded stroke sent with its own timestamps, as ``dynctl gesture --samples``
        does: `samples` are ``(t, x, y)`` (seconds, points; `dynd.strokes.read_samples` reads
        them from a CSV, JSON-lines, ``libinput record`` or ``getevent -lt`` file), sent as
        ``began``, ``changed`` …, ``ended`` (or ``cancelled``) with each `t` as recorded, even
        repeated or backwards (the daemon's estimator applies its rule to them).

        `pace` as for `pan`, by the recorded intervals (`step`: a step of each positive
        interval, in steps of at most 10 s; `realtime`: slept). Returns every event the stroke
        caused; ``result.handoff`` is the release's."""
        _core.check_pace(pace)
        planned = _core.recorded_samples(samples, release_velocity, cancel)
        result: PanResult = yield from self._send(session, planned, pace, estimator)
        return result

    def _send(
        self,
        session: str,
        samples: List[_core.PanSample],
        pace: str,
        estimator: Optional[str],
    ) -> Plan[PanResult]:
        """Sends `samples` (a pan's or a recorded stroke's), paced as `pace` says: a realtime
        pause until each sample's time from the first, or steps of its `step` seconds."""
        if pace == "auto":
            clock: str = yield from self.clock_of(session)
            pace = "step" if clock == "manual" else "realtime"
        result = PanResult()
        origin = samples[0].t if samples else 0.0
        for sample in samples:
            if sample.step is not None:
                if pace == "realtime":
                    yield Pause(sample.t - origin)
                elif pace == "step":
                    left = sample.step
                    while left > 0:
                        dt = min(left, _core.MAX_STEP_DT)
                        stepped: Stepped = yield self.step(session, dt=dt)
                        result.events.extend(stepped.events)
                        left -= dt
            reply: Ack = yield Request("gesture", sample.fields(session, estimator), _as(Ack))
            result.events.extend(reply.events)
        return result

    def run_until(
        self,
        session: str,
        ev: str = "done",
        *,
        max_seconds: float = 10.0,
        count: int = 30,
        timeout: float = 10.0,
    ) -> Plan[Event]:
        """Runs `session` until an `ev` event of it (default ``done``) and returns it: one kept
        unread first; else a manual session is stepped `count` frames at a time, for at most
        `max_seconds` of animation, and a realtime one is waited for (`Wait`, at most `timeout`
        seconds). Raises `DyndTimeout` when the event does not come in time or the session
        comes to rest without it; the message names the events seen."""
        for index in range(len(self.pending)):
            event = parse_event(self.pending.kept[index][0])
            if _core.matches(event, ev, session):
                self.pending.take(index)
                return event
        clock: str = yield from self.clock_of(session)
        if clock != "manual":
            waited: Event = yield Wait(ev, session, timeout)
            return waited
        seen: List[Event] = []
        first: Optional[float] = None
        what = _core.describe_wait(ev, session)
        while True:
            stepped: Stepped = yield self.step(session, count=count)
            for event in stepped.events:
                if _core.matches(event, ev, session):
                    return event
                seen.append(event)
            if first is None:
                first = stepped.frames[0].t if stepped.frames else stepped.t
            if not stepped.running:
                raise DyndTimeout(
                    "%s did not come: the session came to rest at t=%g (%s)"
                    % (what, stepped.t, _core.summary(seen))
                )
            if stepped.t - first >= max_seconds:
                raise DyndTimeout(
                    "%s did not come within %g s of animation (%s)"
                    % (what, max_seconds, _core.summary(seen))
                )


class OpMethods:
    """The base class of `Client` and `AsyncClient`: every op of `Ops` as a method of both, one
    line each, in the order of `Ops` (`dynd._op_methods.OpMethod`; `run_until` is the clients'
    own). A client supplies ``ops`` and ``perform(work)``, which runs an entry's `Request` or
    `Plan` over its connection (an ``async def`` for an asyncio client)."""

    hello = OpMethod(Ops.hello)
    gesture = OpMethod(Ops.gesture)
    tap = OpMethod(Ops.tap)
    swipe = OpMethod(Ops.swipe)
    step = OpMethod(Ops.step)
    get = OpMethod(Ops.get)
    watch = OpMethod(Ops.watch)
    close_session = OpMethod(Ops.close_session)
    debug = OpMethod(Ops.debug)
    add_item = OpMethod(Ops.add_item)
    remove_item = OpMethod(Ops.remove_item)
    add_behavior = OpMethod(Ops.add_behavior)
    remove_behavior = OpMethod(Ops.remove_behavior)
    remove_all_behaviors = OpMethod(Ops.remove_all_behaviors)
    set_behavior = OpMethod(Ops.set_behavior)
    behaviors = OpMethod(Ops.behaviors)
    add_group = OpMethod(Ops.add_group)
    remove_group = OpMethod(Ops.remove_group)
    items_in_rect = OpMethod(Ops.items_in_rect)
    set_bounds = OpMethod(Ops.set_bounds)
    define = OpMethod(Ops.define)
    set_item = OpMethod(Ops.set_item)
    add_velocity = OpMethod(Ops.add_velocity)
    open_transition = OpMethod(Ops.open_transition)
    open_scene = OpMethod(Ops.open_scene)
    list_sessions = OpMethod(Ops.list_sessions)
    clock_of = OpMethod(Ops.clock_of)
    pan = OpMethod(Ops.pan)
    replay_samples = OpMethod(Ops.replay_samples)
