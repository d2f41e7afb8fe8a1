"""Typed forms of dynd's replies and events (protocol/PROTOCOL.md, sections 5 and 7).

Each class is a dataclass parsed from the JSON the daemon wrote; `raw` keeps that JSON (a dict),
so a field this version does not model is still at hand. Vectors and points are
``(x, y)`` tuples of floats; sizes ``(w, h)``.

`parse_event` turns an event dict into the matching `Event` subclass (`UnknownEvent` for an
``ev`` it does not know); `parse_reply` turns a successful reply of an op into its `Reply`
subclass.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple, Type, TypeVar, Union

from . import _protocol

__all__ = [
    "Vec2",
    "ItemState",
    "Constraint",
    "ReleaseEstimate",
    "SessionInfo",
    "Event",
    "FrameEvent",
    "ContactEvent",
    "PauseEvent",
    "ResumeEvent",
    "HandoffEvent",
    "DoneEvent",
    "DebugEvent",
    "ClosedEvent",
    "ShutdownEvent",
    "SlowEvent",
    "OnTimeEvent",
    "ContactLimitEvent",
    "ActionEvent",
    "UnknownEvent",
    "Reply",
    "InputTaken",
    "Ack",
    "Hello",
    "Opened",
    "Stepped",
    "Snapshot",
    "Watching",
    "SessionList",
    "DebugGeometry",
    "BehaviorAdded",
    "ItemsInRect",
    "Parameter",
    "Behavior",
    "Behaviors",
    "parse_event",
    "parse_reply",
    "parse_item",
]

#: A point, vector or size: ``(x, y)``.
Vec2 = Tuple[float, float]
JSON = Dict[str, Any]


def _vec(value: Any) -> Vec2:
    return (float(value[0]), float(value[1]))


def _opt_vec(value: Any) -> Optional[Vec2]:
    return None if value is None else _vec(value)


def _opt_float(value: Any) -> Optional[float]:
    return None if value is None else float(value)


def _number_fields(value: Any) -> Optional[Dict[str, float]]:
    if not isinstance(value, dict):
        return None
    return {str(k): float(v) for k, v in value.items()}


def _values(value: Any) -> Dict[str, float]:
    if not isinstance(value, dict):
        return {}
    return {str(k): float(v) for k, v in value.items()}


@dataclass
class ItemState:
    """One item's state: `center`, `angle` (radians, clockwise), `velocity` (pt/s),
    `angular_velocity` (rad/s), and `size` where the message carries it (``open``, ``get``).
    `shape` is ``"rectangle"``, ``"ellipse"`` or ``"path"`` as a ``get`` reply gives it (every
    other message, and a rectangle in ``get``, leave it out: ``"rectangle"``); `path` is the
    polygon's vertices relative to the center for a path, else None."""

    id: str
    center: Vec2
    angle: float
    velocity: Vec2
    angular_velocity: float
    size: Optional[Vec2]
    raw: JSON = field(repr=False)
    shape: str = "rectangle"
    path: Optional[List[Vec2]] = None


def parse_item(raw: JSON) -> ItemState:
    """The `ItemState` of one item object of a frame or reply."""
    return ItemState(
        id=str(raw["id"]),
        center=_vec(raw["center"]),
        angle=float(raw.get("angle", 0)),
        velocity=_vec(raw.get("velocity", (0, 0))),
        angular_velocity=float(raw.get("angular_velocity", 0)),
        size=_opt_vec(raw.get("size")),
        raw=raw,
        shape=str(raw.get("shape", "rectangle")),
        path=None if raw.get("path") is None else [_vec(p) for p in raw["path"]],
    )


def _find_item(items: Sequence[ItemState], item_id: str) -> Optional[ItemState]:
    """The state of `item_id` among `items`, or None (frames and ``get`` replies)."""
    return next((state for state in items if state.id == item_id), None)


def _items(value: Any) -> List[ItemState]:
    return [parse_item(item) for item in (value or [])]


@dataclass
class Constraint:
    """One constraint of a `HandoffEvent`: `kind` is ``"rail"`` (with `axis`, a unit vector),
    ``"anchored"`` or ``"speed_limit"`` (with `max_speed`, pt/s)."""

    kind: str
    axis: Optional[Vec2]
    max_speed: Optional[float]
    raw: JSON = field(repr=False)


#: Why dynd's estimate of a release velocity is 0 or limited, by `ReleaseEstimate.reason`: the
#: sentences ``dynctl`` and the pages give, generated from their one definition
#: (``Sources/PageScripts/HandoffWords.swift``) into `dynd._protocol`. ``estimated``, the
#: ordinary case, has none.
REASON_SENTENCES: Dict[str, str] = _protocol.REASON_SENTENCES


def _sentence_number(value: float) -> str:
    """At most 3 decimals, no trailing zeros (as HandoffWords writes numbers)."""
    text = ("%.3f" % round(value, 3)).rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


@dataclass
class ReleaseEstimate:
    """How dynd estimated a release velocity from the pan's samples (a `HandoffEvent`'s
    `estimate`, None when the client gave the velocity): `reason` is ``estimated`` (the fit),
    ``pointer_stopped`` (0: the pointer was still `still_ms` ms, more than 40, before lift-off),
    ``too_few_samples``, ``sparse_samples`` (0: the moves came `gap_ms` ms apart, more than 40),
    ``stale_samples``, ``degenerate_fit`` (all 0), ``limited`` (scaled down to 10**6 pt/s) or
    ``reversed`` (the fit, pointing back against the pan); `samples` how many samples the
    estimator held within its horizon."""

    reason: str
    samples: int
    still_ms: Optional[float]
    raw: JSON = field(repr=False)
    gap_ms: Optional[float] = None

    @property
    def explanation(self) -> Optional[str]:
        """The sentence ``dynctl`` prints for a 0 or limited velocity, e.g. "release velocity
        0 pt/s: the pointer was still for 55 ms before lift-off (Android's and Flutter's 40 ms
        rule)"; None for ``estimated`` and for a reason this client does not know."""
        template = REASON_SENTENCES.get(self.reason)
        if template is None:
            return None
        still = "?" if self.still_ms is None else _sentence_number(self.still_ms)
        gap = "?" if self.gap_ms is None else _sentence_number(self.gap_ms)
        return "release velocity " + template.replace("{still_ms}", still).replace("{gap_ms}", gap)


@dataclass
class SessionInfo:
    """One session of a ``list`` reply; `transition` is None for a scene session and
    `missed_ticks` None for a manual one."""

    session: str
    transition: Optional[str]
    clock: str
    running: bool
    missed_ticks: Optional[int]
    raw: JSON = field(repr=False)


# Events ------------------------------------------------------------------------------------


@dataclass
class Event:
    """Any event: `ev` (its kind), `session` (None for ``shutdown``) and the `raw` dict."""

    ev: str
    session: Optional[str]
    raw: JSON = field(repr=False)


@dataclass
class FrameEvent(Event):
    """A frame: `seq` (1, 2, … per session), animator time `t`, every item's state; `dropped`
    realtime frames coalesced away before it (0 when none), `dropped_contacts` likewise,
    and the transition's `values` (empty when it reports none)."""

    seq: int
    t: float
    items: List[ItemState]
    dropped: int
    dropped_contacts: int
    values: Dict[str, float]

    def item(self, item_id: str) -> Optional[ItemState]:
        """The state of `item_id` in this frame, or None."""
        return _find_item(self.items, item_id)


@dataclass
class ContactEvent(Event):
    """A contact ``began`` or ``ended`` (`phase`) between `item` and another item (`with_item`)
    or a boundary (`boundary`: its id, None for the reference bounds, when `with_item` is None);
    `point` where it began."""

    phase: str
    item: str
    with_item: Optional[str]
    boundary: Optional[str]
    point: Optional[Vec2]

    def involves(self, item_id: str) -> bool:
        """Whether `item_id` is one of the two sides of the contact."""
        return self.item == item_id or self.with_item == item_id


@dataclass
class PauseEvent(Event):
    """The animator came to rest at time `t` and stopped ticking."""

    t: float


@dataclass
class ResumeEvent(Event):
    """The animator started running again at time `t`."""

    t: float


@dataclass
class HandoffEvent(Event):
    """A gesture ended and the dynamics took over `item`: the finger's `gesture_velocity`, the
    `item_velocity` the item moves with, the `constraints` that changed it (in the order
    applied) and the daemon's `velocity_error` (|item − finger after constraints|, before
    rounding); `estimate`, how dynd estimated the finger's velocity (None when the client gave
    it; its `explanation` says why a velocity is 0 or limited). When a decay or a sheet took
    the release: `projection`, where it comes to rest; the `decay` that stops it there (its one
    field: ``{"deceleration_rate": 0.998}``, ``{"friction": …}`` or ``{"drag": …}``); a
    sheet's chosen `detent` and the `spring` that carries it there (``mass``, ``stiffness``,
    ``damping``, ``damping_ratio``, ``response``, ``duration``, ``bounce``); each None
    otherwise."""

    item: str
    gesture_velocity: Vec2
    item_velocity: Vec2
    constraints: List[Constraint]
    velocity_error: Optional[float]
    estimate: Optional[ReleaseEstimate] = None
    projection: Optional[Vec2] = None
    decay: Optional[Dict[str, float]] = None
    detent: Optional[str] = None
    spring: Optional[Dict[str, float]] = None


@dataclass
class DoneEvent(Event):
    """A gesture cycle finished with `outcome` (``opened``, ``closed``, ``bounced``, …); the
    transition's `values`, if any."""

    outcome: str
    values: Dict[str, float]


@dataclass
class DebugEvent(Event):
    """The session's behaviors as geometry after frame `seq` (see the ``debug`` op); the
    geometry lists are kept as parsed JSON. `fields` (each ``{id, kind, position, region,
    strength, items, samples}``, a sample ``[x, y, fx, fy]``) and `groups` (each ``{id, items,
    center, angle, size}``) are empty from a daemon without them."""

    seq: int
    t: float
    boundaries: List[JSON]
    attachments: List[JSON]
    snaps: List[JSON]
    pushes: List[JSON]
    gravity: List[JSON]
    contacts: List[JSON]
    fields: List[JSON] = field(default_factory=list)
    groups: List[JSON] = field(default_factory=list)


@dataclass
class ClosedEvent(Event):
    """The session is gone: `reason` is ``closed``, ``owner_left`` or ``idle``."""

    reason: str


@dataclass
class ShutdownEvent(Event):
    """The daemon is stopping (`reason` ``terminated`` or ``interrupted``)."""

    reason: str


@dataclass
class SlowEvent(Event):
    """A realtime frame was not computed by its next tick: it had taken `frame_ms` of a
    `budget_ms` budget at time `t`."""

    t: float
    frame_ms: float
    budget_ms: float


@dataclass
class OnTimeEvent(Event):
    """A slow realtime session has been on time for a second again, at time `t`."""

    t: float


@dataclass
class ContactLimitEvent(Event):
    """The session's world holds its most contacts (`limit`) at time `t`."""

    t: float
    limit: int


@dataclass
class ActionEvent(Event):
    """An action rule's ``emit`` fired: the `behavior` whose rule it is, the `name` emitted, the
    `item` the rule watches (None for ``always``), after the step ending at time `t`, with
    frame `seq`."""

    seq: int
    t: float
    behavior: str
    name: str
    item: Optional[str]


@dataclass
class UnknownEvent(Event):
    """An event this client does not model; see `raw`."""


def _base(raw: JSON) -> Dict[str, Any]:
    session = raw.get("session")
    return {
        "ev": str(raw.get("ev")),
        "session": None if session is None else str(session),
        "raw": raw,
    }


def _constraint(raw: JSON) -> Constraint:
    return Constraint(
        kind=str(raw.get("kind")),
        axis=_opt_vec(raw.get("axis")),
        max_speed=_opt_float(raw.get("max_speed")),
        raw=raw,
    )


def _estimate(raw: Any) -> Optional[ReleaseEstimate]:
    if not isinstance(raw, dict):
        return None
    return ReleaseEstimate(
        reason=str(raw.get("reason")),
        samples=int(raw.get("samples", 0)),
        still_ms=_opt_float(raw.get("still_ms")),
        raw=raw,
        gap_ms=_opt_float(raw.get("gap_ms")),
    )


def parse_event(raw: JSON) -> Event:
    """The typed form of the event `raw` (a dict with ``"ev"``)."""
    ev = raw.get("ev")
    base = _base(raw)
    if ev == "frame":
        return FrameEvent(
            seq=int(raw["seq"]),
            t=float(raw["t"]),
            items=_items(raw.get("items")),
            dropped=int(raw.get("dropped", 0)),
            dropped_contacts=int(raw.get("dropped_contacts", 0)),
            values=_values(raw.get("values")),
            **base,
        )
    if ev == "contact":
        return ContactEvent(
            phase=str(raw["phase"]),
            item=str(raw["item"]),
            with_item=None if raw.get("with") is None else str(raw["with"]),
            boundary=None if raw.get("boundary") is None else str(raw["boundary"]),
            point=_opt_vec(raw.get("point")),
            **base,
        )
    if ev == "pause":
        return PauseEvent(t=float(raw["t"]), **base)
    if ev == "resume":
        return ResumeEvent(t=float(raw["t"]), **base)
    if ev == "handoff":
        return HandoffEvent(
            item=str(raw["item"]),
            gesture_velocity=_vec(raw["gesture_velocity"]),
            item_velocity=_vec(raw["item_velocity"]),
            constraints=[_constraint(c) for c in raw.get("constraints", [])],
            velocity_error=_opt_float(raw.get("velocity_error")),
            estimate=_estimate(raw.get("estimate")),
            projection=_opt_vec(raw.get("projection")),
            decay=_number_fields(raw.get("decay")),
            detent=None if raw.get("detent") is None else str(raw["detent"]),
            spring=_number_fields(raw.get("spring")),
            **base,
        )
    if ev == "done":
        return DoneEvent(outcome=str(raw["outcome"]), values=_values(raw.get("values")), **base)
    if ev == "debug":
        return DebugEvent(
            seq=int(raw["seq"]),
            t=float(raw["t"]),
            boundaries=list(raw.get("boundaries", [])),
            attachments=list(raw.get("attachments", [])),
            snaps=list(raw.get("snaps", [])),
            pushes=list(raw.get("pushes", [])),
            gravity=list(raw.get("gravity", [])),
            contacts=list(raw.get("contacts", [])),
            fields=list(raw.get("fields", [])),
            groups=list(raw.get("groups", [])),
            **base,
        )
    if ev == "closed":
        return ClosedEvent(reason=str(raw.get("reason")), **base)
    if ev == "shutdown":
        return ShutdownEvent(reason=str(raw.get("reason")), **base)
    if ev == "slow":
        return SlowEvent(
            t=float(raw["t"]),
            frame_ms=float(raw["frame_ms"]),
            budget_ms=float(raw["budget_ms"]),
            **base,
        )
    if ev == "on_time":
        return OnTimeEvent(t=float(raw["t"]), **base)
    if ev == "contact_limit":
        return ContactLimitEvent(t=float(raw["t"]), limit=int(raw["limit"]), **base)
    if ev == "action":
        item = raw.get("item")
        return ActionEvent(
            seq=int(raw["seq"]),
            t=float(raw["t"]),
            behavior=str(raw["behavior"]),
            name=str(raw["name"]),
            item=None if item is None else str(item),
            **base,
        )
    return UnknownEvent(**base)


# Replies -----------------------------------------------------------------------------------


E = TypeVar("E", bound=Event)


@dataclass
class Reply:
    """A successful reply: the echoed `id` (None when the request had none), the `raw` dict,
    and the `events` the request caused, in the order they came (frames of a ``step``, a
    ``handoff``, …), typed."""

    id: Any
    raw: JSON = field(repr=False)
    events: List[Event] = field(repr=False)

    def of(self, kind: Type[E]) -> List[E]:
        """The events of this request of the class `kind` (e.g. ``reply.of(FrameEvent)``)."""
        return [event for event in self.events if isinstance(event, kind)]

    @property
    def handoff(self) -> Optional[HandoffEvent]:
        """The last ``handoff`` event the request caused, if any."""
        handoffs = self.of(HandoffEvent)
        return handoffs[-1] if handoffs else None

    @property
    def done(self) -> Optional[DoneEvent]:
        """The last ``done`` event the request caused, if any."""
        done = self.of(DoneEvent)
        return done[-1] if done else None


@dataclass
class Ack(Reply):
    """A reply without fields (``gesture``, ``close`` and the scene ops)."""


@dataclass
class Parameter:
    """One parameter of a transition as ``hello`` lists it (and ``open`` checks it): its
    `name`, `default` and `source`; a number has `min`, `max` (both accepted) and `unit` (``""``
    when it has none), a choice its `choices` (the others are None). A number whose default or
    range depends on the transition's bounds has `of_bounds`: the expressions of the bounds'
    ``width`` and ``height`` that give its ``default``, ``min`` or ``max`` (the numbers are their
    values in the standard 320×568); None when all are fixed."""

    name: str
    default: Union[float, str, bool]
    min: Optional[float]
    max: Optional[float]
    unit: Optional[str]
    choices: Optional[List[str]]
    source: str
    of_bounds: Optional[Dict[str, str]] = None
    raw: JSON = field(repr=False, default_factory=dict)


def _parameter(raw: JSON) -> Parameter:
    default = raw["default"]
    choices = raw.get("choices")
    return Parameter(
        name=str(raw["name"]),
        default=default if isinstance(default, (bool, str)) else float(default),
        min=_opt_float(raw.get("min")),
        max=_opt_float(raw.get("max")),
        unit=None if raw.get("unit") is None else str(raw["unit"]),
        choices=None if choices is None else [str(c) for c in choices],
        source=str(raw["source"]),
        of_bounds=None if raw.get("of_bounds") is None else {
            str(k): str(v) for k, v in raw["of_bounds"].items()},
        raw=raw,
    )


@dataclass
class Hello(Reply):
    """The ``hello`` reply: `protocol` (1), `server` (``"dynd"``), `version`, the
    `transitions` ``open`` accepts, and each one's `parameters` in declared order, keyed by
    transition in `transitions` order (empty from a daemon that does not send them)."""

    protocol: int
    server: str
    version: str
    transitions: List[str]
    parameters: Dict[str, List[Parameter]]


@dataclass
class Opened(Reply):
    """The ``open`` reply: the `session`'s name and its `items` (with sizes)."""

    session: str
    items: List[ItemState]


@dataclass
class Stepped(Reply):
    """The ``step`` reply: the animator's time `t` after the step and whether it is still
    `running`; its frames are in `frames`."""

    t: float
    running: bool

    @property
    def frames(self) -> List[FrameEvent]:
        """The frames the step wrote."""
        return self.of(FrameEvent)


@dataclass
class Snapshot(Reply):
    """The ``get`` reply: time `t`, `running`, and every item's state with its size; and (dynd's
    extension) the reference `bounds` ``(x, y, width, height)`` and, for a transition session,
    every one of its `params` (the defaults filled in); None when the daemon sends none. A
    scene's item `groups`, each id with its members (empty when it has none). The `motion` in
    force when the transition's parameters give a spring or a decay: ``{"spring": {"set":
    [fields], "mass", "stiffness", "damping", …}}`` or ``{"decay": {"friction": 2}}``; None
    otherwise."""

    t: float
    running: bool
    items: List[ItemState]
    bounds: Optional[Tuple[float, float, float, float]] = None
    params: Optional[Dict[str, Union[float, bool, str]]] = None
    groups: Dict[str, List[str]] = field(default_factory=dict)
    motion: Optional[Dict[str, Any]] = None

    def item(self, item_id: str) -> Optional[ItemState]:
        """The state of `item_id`, or None."""
        return _find_item(self.items, item_id)


@dataclass
class Watching(Reply):
    """The ``watch`` reply: the items' states now, the animator's time `t`, whether it is
    `running`, and the `outcome` of the transition's current gesture cycle when its ``done``
    already came (None before that, and for scenes): a client waiting for ``pause`` or ``done``
    can tell it already happened."""

    items: List[ItemState]
    t: float
    running: bool
    outcome: Optional[str]


@dataclass
class InputTaken(Reply):
    """The ``tap`` and ``swipe`` reply: whether the transition `taken` the input (False: it
    ignores that input there, nothing changed)."""

    taken: bool


@dataclass
class SessionList(Reply):
    """The ``list`` reply: open sessions, in the order they were opened; ``next``
    (pass it as ``from``) when more are left for another page."""

    sessions: List[SessionInfo]
    next: Optional[int] = None


@dataclass
class DebugGeometry(Reply):
    """The ``debug`` reply: the session's behaviors as geometry now (None after
    ``enable: false``), as parsed JSON."""

    debug: Optional[JSON]


@dataclass
class ItemsInRect(Reply):
    """The ``items_in_rect`` reply: the ids of the `items` whose frames meet the rectangle."""

    items: List[str]


@dataclass
class BehaviorAdded(Reply):
    """The ``add_behavior`` reply: the `behavior`'s id (given or assigned)."""

    behavior: str


@dataclass
class Behavior:
    """One behavior of a scene as the ``behaviors`` reply lists it: its `type`, its `id`, and
    `fields`, every other member as parsed JSON in wire order (``{"items": ["box"],
    "direction": [0, 1], "angle": 1.570796, "magnitude": 1}``): each field ``set_behavior``
    can set, with its current value, under the name ``set_behavior`` takes."""

    type: str
    id: str
    fields: Dict[str, Any]
    raw: JSON = field(repr=False)


@dataclass
class Behaviors(Reply):
    """The ``behaviors`` reply: a scene's `behaviors`, in the order they were added."""

    behaviors: List[Behavior]

    def behavior(self, behavior_id: str) -> Optional[Behavior]:
        """The behavior called `behavior_id`, or None."""
        return next((b for b in self.behaviors if b.id == behavior_id), None)


def _behavior(raw: JSON) -> Behavior:
    return Behavior(
        type=str(raw["type"]),
        id=str(raw["id"]),
        fields={k: v for k, v in raw.items() if k not in ("type", "id")},
        raw=raw,
    )


AnyReply = Union[
    Ack,
    Hello,
    Opened,
    Stepped,
    Snapshot,
    Watching,
    InputTaken,
    SessionList,
    DebugGeometry,
    BehaviorAdded,
    Behaviors,
    ItemsInRect,
]


def parse_reply(op: str, raw: JSON, events: Sequence[Event] = ()) -> Reply:
    """The typed form of the successful reply `raw` to a request of `op`, with the `events`
    the request caused."""
    base: Dict[str, Any] = {"id": raw.get("id"), "raw": raw, "events": list(events)}
    if op == "hello":
        return Hello(
            protocol=int(raw.get("protocol", 0)),
            server=str(raw.get("server", "")),
            version=str(raw.get("version", "")),
            transitions=[str(t) for t in raw.get("transitions", [])],
            parameters={
                str(name): [_parameter(p) for p in table]
                for name, table in raw.get("parameters", {}).items()
            },
            **base,
        )
    if op == "open":
        return Opened(session=str(raw["session"]), items=_items(raw.get("items")), **base)
    if op == "step":
        return Stepped(t=float(raw["t"]), running=bool(raw["running"]), **base)
    if op == "get":
        bounds = raw.get("bounds")
        params = raw.get("params")
        return Snapshot(
            t=float(raw["t"]),
            running=bool(raw["running"]),
            items=_items(raw.get("items")),
            bounds=None if bounds is None else (
                float(bounds[0]), float(bounds[1]), float(bounds[2]), float(bounds[3])
            ),
            params=None if params is None else dict(params),
            groups={
                str(g["id"]): [str(i) for i in g.get("items", [])] for g in raw.get("groups", [])
            },
            motion=None if raw.get("motion") is None else dict(raw["motion"]),
            **base,
        )
    if op == "watch":
        outcome = raw.get("outcome")
        return Watching(
            items=_items(raw.get("items")),
            t=float(raw.get("t", 0)),
            running=bool(raw.get("running", True)),
            outcome=None if outcome is None else str(outcome),
            **base,
        )
    if op in ("tap", "swipe"):
        return InputTaken(taken=bool(raw.get("taken", True)), **base)
    if op == "list":
        return SessionList(
            sessions=[_session_info(s) for s in raw.get("sessions", [])],
            next=raw.get("next"),
            **base,
        )
    if op == "debug":
        return DebugGeometry(debug=raw.get("debug"), **base)
    if op == "add_behavior":
        return BehaviorAdded(behavior=str(raw["behavior"]), **base)
    if op == "behaviors":
        return Behaviors(behaviors=[_behavior(b) for b in raw.get("behaviors", [])], **base)
    if op == "items_in_rect":
        return ItemsInRect(items=[str(i) for i in raw.get("items", [])], **base)
    return Ack(**base)


def _session_info(raw: Mapping[str, Any]) -> SessionInfo:
    transition = raw.get("transition")
    missed = raw.get("missed_ticks")
    return SessionInfo(
        session=str(raw["session"]),
        transition=None if transition is None else str(transition),
        clock=str(raw["clock"]),
        running=bool(raw["running"]),
        missed_ticks=None if missed is None else int(missed),
        raw=dict(raw),
    )
