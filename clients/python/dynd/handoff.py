"""Checking a release: is the finger's velocity handed to the item, as ``dynctl handoff`` checks?

    pan = client.pan(session, (160, 500), (160, 380), duration=0.2, release_velocity=(0, -1400))
    check = assert_handoff(client, session, pan)       # AssertionError with a report if not

The checks, in order (README, "dynctl handoff"):

1. The ``handoff`` event: the item's velocity must be the finger's after the item's
   constraints (a rail projects it onto its axis, ``anchored`` makes it 0, the engine's speed
   limit scales it down), within ``max(tolerance, speed * 2**-23)`` (the engine's 32-bit floats)
   plus 0.0011 for the wire's rounding to 3 decimals; the daemon's ``velocity_error`` must be
   within ``max(tolerance, speed * 2**-23)``. A release velocity dynd estimated that came out 0
   or limited is explained in the report (`ReleaseEstimate.explanation`, the sentence
   ``dynctl handoff`` prints), and in the failure of an `expected` velocity.
2. The motion: ``get`` right after the release must hold that velocity (within
   ``max(tolerance, 0.0011)``); the first frame must not move across a rail (more than
   `motion_tolerance`); and the velocities of the first frames (single-frame steps, at most 3,
   ending early at a contact of the item, a ``done`` or a ``pause``; frame k taken at k/60 s),
   extrapolated back to the release instant (Lagrange), must be the item velocity within
   `motion_tolerance` — judged only when the 2- and 3-frame extrapolations agree within
   0.05 pt/s (otherwise the forces change too fast to be removed, and the check says so).

The session must be on the manual clock (the measurement steps it): a realtime one raises
ValueError saying to open it with ``clock="manual"``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import List, Optional, Sequence, Tuple, Union

from . import _protocol
from ._core import PanResult
from .client import Client
from .errors import DyndError
from .messages import (
    ContactEvent,
    DoneEvent,
    Event,
    FrameEvent,
    HandoffEvent,
    PauseEvent,
    Reply,
    Vec2,
)

__all__ = [
    "HandoffCheck",
    "Motion",
    "assert_handoff",
    "check_handoff",
    "expected_velocity",
    "measure_motion",
    "extrapolate",
    "SMOOTH_ENOUGH",
    "WIRE_ROUNDING",
]

#: How close (pt/s) the 2- and 3-frame extrapolations must be for the motion to be judged.
SMOOTH_ENOUGH = 0.05
#: What the wire's rounding to 3 decimals may take from a velocity, with a margin (pt/s).
WIRE_ROUNDING = 0.0011
#: The engine keeps velocities as 32-bit floats: nothing finer than 2**-23 of the speed.
FLOAT32_PRECISION = 2.0**-23
#: The manual clock's default frame: 60 fps.
FRAME = 1.0 / 60

HandoffSource = Union[HandoffEvent, PanResult, Reply]


def fmt(value: float) -> str:
    """`value` rounded to 3 decimals (halves away from zero), as JSON writes it: ``-1466.667``,
    ``0``, ``1400``."""
    scaled = math.floor(abs(value) * 1000 + 0.5) / 1000
    rounded = math.copysign(scaled, value) if scaled else 0.0
    if rounded == int(rounded) and abs(rounded) < 1e15:
        return "%d" % int(rounded)
    return repr(rounded)


def number_text(value: float) -> str:
    """`value` unrounded, as JSON writes it (``0``, ``0.000598``)."""
    if value == int(value) and abs(value) < 1e15:
        return "%d" % int(value)
    return repr(value)


def pair_text(v: Sequence[float]) -> str:
    """``(x, y)`` with each number as `fmt` writes it."""
    return "(%s, %s)" % (fmt(v[0]), fmt(v[1]))


def distance(a: Sequence[float], b: Sequence[float]) -> float:
    """The Euclidean distance between two vectors."""
    return math.hypot(a[0] - b[0], a[1] - b[1])


def _fill(template: str, **values: str) -> str:
    """`template` (one of `dynd._protocol.HANDOFF_TEMPLATES`) with each ``{name}`` replaced."""
    for name, value in values.items():
        template = template.replace("{%s}" % name, value)
    return template


def expected_velocity(handoff: HandoffEvent) -> Tuple[Vec2, List[str]]:
    """The finger's velocity after the item's constraints, applied in order — the velocity the
    item should move with — and one sentence per constraint saying what it did."""
    v: Vec2 = handoff.gesture_velocity
    sentences: List[str] = []
    for constraint in handoff.constraints:
        before = v
        if constraint.kind == "rail" and constraint.axis is not None:
            ax, ay = constraint.axis
            dot = v[0] * ax + v[1] * ay
            v = (ax * dot, ay * dot)
            sentences.append(
                _fill(
                    _protocol.HANDOFF_TEMPLATES["rail"],
                    axis=pair_text(constraint.axis), before=pair_text(before), after=pair_text(v),
                )
            )
        elif constraint.kind == "anchored":
            v = (0.0, 0.0)
            sentences.append(_protocol.HANDOFF_TEMPLATES["anchored"])
        elif constraint.kind == "speed_limit" and constraint.max_speed is not None:
            limit = constraint.max_speed
            speed = math.hypot(v[0], v[1])
            if speed > limit:
                v = (v[0] * limit / speed, v[1] * limit / speed)
            sentences.append(
                _fill(
                    _protocol.HANDOFF_TEMPLATES["speed_limit"],
                    max=fmt(limit), before=pair_text(before), after=pair_text(v),
                )
            )
        else:
            sentences.append("an unknown constraint %r: not applied" % constraint.raw)
    return v, sentences


def extrapolate(samples: Sequence[Tuple[float, Vec2]], t: float = 0.0) -> Vec2:
    """The polynomial through the ``(time, velocity)`` samples (Lagrange form), at time `t`."""
    x = y = 0.0
    for i, (ti, vi) in enumerate(samples):
        weight = 1.0
        for j, (tj, _) in enumerate(samples):
            if j != i:
                weight *= (t - tj) / (ti - tj)
        x += weight * vi[0]
        y += weight * vi[1]
    return (x, y)


@dataclass
class Motion:
    """The item's motion after the release, measured from the session: `held` (``get`` before
    any step), the `first` frame's velocity, the 2- and 3-frame extrapolations back to the
    release, why the frames stopped early (`stopped`), and the `events` the steps caused."""

    held: Optional[Vec2] = None
    first: Optional[Vec2] = None
    two_frames: Optional[Vec2] = None
    three_frames: Optional[Vec2] = None
    stopped: Optional[str] = None
    events: List[Event] = field(default_factory=list)


def measure_motion(client: Client, session: str, item: str) -> Motion:
    """Reads `item` with ``get``, then steps single frames (at most three) until a contact of
    the item, a ``done`` or a ``pause`` ends the free flight. The events of those steps are
    kept by the client (`Client.keep`), so `Client.run_until` still sees a ``done``."""
    motion = Motion()
    state = client.get(session).item(item)
    if state is not None:
        motion.held = state.velocity
    samples: List[Tuple[float, Vec2]] = []
    while len(samples) < 3 and motion.stopped is None:
        try:
            stepped = client.step(session, count=1)
        except DyndError as error:
            if error.code != "busy":
                raise
            raise ValueError(
                "the handoff check steps %r frame by frame to measure the motion, and %s: open "
                'the session with clock="manual"' % (session, error.message)
            ) from error
        motion.events.extend(stepped.events)
        velocity: Optional[Vec2] = None
        for event in stepped.events:
            if isinstance(event, FrameEvent):
                frame_state = event.item(item)
                velocity = None if frame_state is None else frame_state.velocity
            elif isinstance(event, ContactEvent) and event.involves(item):
                motion.stopped = "the item touched something"
            elif isinstance(event, DoneEvent):
                motion.stopped = "the transition reported its outcome"
            elif isinstance(event, PauseEvent):
                motion.stopped = "the session came to rest"
        # A frame that came with its end is shown as the first frame, but not extrapolated
        # from: what follows it is the end, not flight.
        if not samples:
            motion.first = velocity
        if motion.stopped is not None or velocity is None:
            break
        samples.append(((len(samples) + 1) * FRAME, velocity))
    if len(samples) >= 2:
        motion.two_frames = extrapolate(samples[:2])
    if len(samples) >= 3:
        motion.three_frames = extrapolate(samples)
    client.keep(motion.events)
    return motion


@dataclass
class HandoffCheck:
    """The result of `check_handoff`: the `handoff` event, the `expected` velocity (the finger's
    after the constraints) with the constraints' `sentences`, the `motion`, the report `lines`,
    the `failures` (empty when it passed) and whether the motion was `verified`."""

    session: str
    handoff: HandoffEvent
    expected: Vec2
    sentences: List[str]
    motion: Motion
    lines: List[str]
    failures: List[str]
    verified: bool

    @property
    def passed(self) -> bool:
        """True when nothing failed."""
        return not self.failures

    def report(self) -> str:
        """The multi-line report: the velocities, the constraints' sentences, the motion
        numbers, and the failures or the verdict."""
        item = self.handoff.item
        head = "handoff of %s in session %s: " % (item, self.session)
        if self.failures:
            head += "FAIL"
            tail = ["failures:"] + ["  - " + failure for failure in self.failures]
        else:
            how = "exactly" if not self.handoff.constraints else "as far as its constraints allow"
            if self.verified:
                head += "PASS: %s moves with the finger's release velocity, %s" % (item, how)
            else:
                # The handoff held but the motion was not judged: not a PASS (dynctl's verdict).
                head += ("PARTIAL: %s took the finger's release velocity %s at the handoff; its "
                         "motion after the release was not verified (see above)" % (item, how))
            tail = []
        return "\n".join([head] + self.lines + tail)


def _handoff_of(source: HandoffSource) -> HandoffEvent:
    if isinstance(source, HandoffEvent):
        return source
    handoff = source.handoff
    if handoff is None:
        raise AssertionError(
            "no handoff: the transition took no drag from this pan (events: %s)"
            % ", ".join(event.ev for event in source.events)
        )
    return handoff


def check_handoff(
    client: Client,
    session: str,
    handoff: HandoffSource,
    *,
    tolerance: float = 0.001,
    motion_tolerance: float = 0.05,
    expected: Optional[Sequence[float]] = None,
    require_motion: bool = False,
) -> HandoffCheck:
    """Checks the release of a pan on the manual `session` as ``dynctl handoff`` does (see the
    module's documentation) and returns the result; raises nothing for a failed check.

    `handoff` is the ``handoff`` event, or the result of `Client.pan` / `Client.gesture` that
    caused it (AssertionError if it caused none). `tolerance` bounds ``velocity_error`` (pt/s,
    never below 2**-23 of the speed), `motion_tolerance` the measured motion. `expected`, when
    given, is the velocity the test expects the item to take (vx, vy), checked like the
    constraints' result. `require_motion` fails the check when the motion could not be judged.
    """
    if tolerance < 0 or motion_tolerance < 0:
        raise ValueError("tolerances must not be negative")
    event = _handoff_of(handoff)
    finger_after, sentences = expected_velocity(event)
    lines: List[str] = []
    failures: List[str] = []
    item_velocity = event.item_velocity
    lines.append("  finger velocity: %s pt/s" % pair_text(event.gesture_velocity))
    # Why dynd's estimate is 0 or limited, when it is: it explains a failure that follows.
    why = event.estimate.explanation if event.estimate is not None else None
    if why is not None:
        lines.append("    " + why)
    lines.append(
        "  expected (the finger's after the constraints): %s pt/s" % pair_text(finger_after)
    )
    lines += ["    " + sentence for sentence in sentences]
    lines.append("  item velocity: %s pt/s (handoff event)" % pair_text(item_velocity))
    speed = math.hypot(*finger_after)
    allowed = max(tolerance, speed * FLOAT32_PRECISION)
    bound = "%g (32-bit precision)" % allowed if allowed > tolerance else "%g" % tolerance
    gap = distance(finger_after, item_velocity)
    if gap > allowed + WIRE_ROUNDING:
        failures.append(
            "the item's velocity %s is not the finger's after its constraints %s (off by %s pt/s)"
            % (pair_text(item_velocity), pair_text(finger_after), fmt(gap))
        )
    if expected is not None:
        wanted = (float(expected[0]), float(expected[1]))
        lines.append("  the test expects: %s pt/s" % pair_text(wanted))
        off = distance(wanted, item_velocity)
        if off > max(tolerance, math.hypot(*wanted) * FLOAT32_PRECISION) + WIRE_ROUNDING:
            failures.append(
                "the item's velocity %s is not the expected %s (off by %s pt/s)"
                % (pair_text(item_velocity), pair_text(wanted), fmt(off))
                + ("" if why is None else ": " + why)
            )
    if event.velocity_error is not None:
        lines.append(
            "  taken within %s pt/s (velocity_error, before rounding; tolerance %s)"
            % (number_text(event.velocity_error), bound)
        )
        if event.velocity_error > allowed:
            failures.append(
                "velocity_error %r pt/s is above the tolerance %s" % (event.velocity_error, bound)
            )

    motion = measure_motion(client, session, event.item)
    verified = False
    if motion.held is not None:
        lines.append(
            "  held at the release: %s pt/s (get, before any step)" % pair_text(motion.held)
        )
        if distance(motion.held, item_velocity) > max(tolerance, WIRE_ROUNDING):
            failures.append(
                "the session holds %s pt/s, not the handoff's item velocity %s"
                % (pair_text(motion.held), pair_text(item_velocity))
            )
    not_judged: Optional[str] = None
    if motion.first is None:
        not_judged = motion.stopped or "no frame came"
        lines.append("  moving: no frame to measure (%s)" % not_judged)
    else:
        lines.append("  first frame after the release: %s pt/s" % pair_text(motion.first))
        for constraint in event.constraints:
            if constraint.kind != "rail" or constraint.axis is None:
                continue
            ax, ay = constraint.axis
            across = abs(-motion.first[0] * ay + motion.first[1] * ax)
            if across > motion_tolerance:
                failures.append("the item moves %s pt/s across its rail" % fmt(across))
        if motion.two_frames is not None and motion.three_frames is not None:
            spread = distance(motion.two_frames, motion.three_frames)
            off = distance(motion.three_frames, item_velocity)
            if spread <= SMOOTH_ENOUGH:
                lines.append(
                    "  extrapolated back to the release: %s pt/s, %s from the item velocity "
                    "(motion tolerance %g)"
                    % (pair_text(motion.three_frames), fmt(off), motion_tolerance)
                )
                if off > motion_tolerance:
                    failures.append(
                        "the frames after the release move at %s pt/s, not %s"
                        % (pair_text(motion.three_frames), pair_text(item_velocity))
                    )
                verified = True
            else:
                not_judged = "the forces after the release change too fast"
                lines.append(
                    "  extrapolated back to the release: not judged: %s (two frames give %s, "
                    "three %s)"
                    % (not_judged, pair_text(motion.two_frames), pair_text(motion.three_frames))
                )
        else:
            not_judged = motion.stopped or "too few frames"
            lines.append("  extrapolated back to the release: not judged: %s" % not_judged)
    if require_motion and not verified:
        failures.append("the motion after the release was not verified: %s" % not_judged)
    return HandoffCheck(
        session=session,
        handoff=event,
        expected=finger_after,
        sentences=sentences,
        motion=motion,
        lines=lines,
        failures=failures,
        verified=verified,
    )


def assert_handoff(
    client: Client,
    session: str,
    handoff: HandoffSource,
    *,
    tolerance: float = 0.001,
    motion_tolerance: float = 0.05,
    expected: Optional[Sequence[float]] = None,
    require_motion: bool = False,
) -> HandoffCheck:
    """`check_handoff`, raising AssertionError with the multi-line report when any check
    fails (finger velocity, expected, item velocity, the constraints' sentences, the motion
    numbers, the failures); returns the passing `HandoffCheck` otherwise."""
    check = check_handoff(
        client,
        session,
        handoff,
        tolerance=tolerance,
        motion_tolerance=motion_tolerance,
        expected=expected,
        require_motion=require_motion,
    )
    if not check.passed:
        raise AssertionError(check.report())
    return check
