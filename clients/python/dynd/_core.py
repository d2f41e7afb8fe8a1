"""What the blocking and the asyncio client share: request lines, the pan's samples, scene
files, summaries of events for error messages. Not part of the public API except `PanResult`
and `PanSample` (re-exported by the package)."""

from __future__ import annotations

import collections
import json
import os
from dataclasses import dataclass, field
from typing import (
    Any,
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

from .errors import DyndError
from .messages import DoneEvent, Event, HandoffEvent, Reply, Vec2

__all__ = ["PanResult", "PanSample", "pan_samples", "load_scene", "open_fields", "encode"]

#: A scene: a dict (the scene object of protocol/PROTOCOL.md, section 6) or a JSON file's path.
SceneSource = Union[Mapping[str, Any], str, "os.PathLike[str]"]

PACES = ("auto", "realtime", "step", "none")
#: How many 60 Hz samples a pan has per second.
SAMPLE_RATE = 60


def encode(op: str, fields: Mapping[str, Any]) -> bytes:
    """One request line: ``{"op": op, **fields}`` as compact JSON and ``\\n``. Fields whose
    value is None are left out (the daemon's default applies). Raises ValueError for a
    non-finite number (the daemon would refuse it)."""
    request: Dict[str, Any] = {"op": op}
    request.update((k, v) for k, v in fields.items() if v is not None)
    return json.dumps(request, separators=(",", ":"), allow_nan=False).encode("utf-8") + b"\n"


def error_of(reply: Dict[str, Any]) -> Optional[DyndError]:
    """The `DyndError` of an error reply, None for a successful one."""
    return None if reply.get("ok") else DyndError.from_reply(reply)


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
        raise ValueError("%s does not hold a JSON object (a scene)" % os.fspath(scene))
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
) -> Dict[str, Any]:
    """The fields of an ``open`` request (None: left out, the daemon's default)."""
    return {
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
