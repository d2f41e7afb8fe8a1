"""What the readers of `dynd.strokes` share: the error, the text helpers, and the evdev side —
the first finger's stroke in a stream of kernel input events and the axes that convert it (as
the Swift module ``Strokes``: TextLines.swift, EvdevTouch.swift, DeviceUnits.swift)."""

from __future__ import annotations

import math
from typing import Dict, List, NamedTuple, Optional, Tuple

SYN, KEY, ABS = 0, 1, 3
SYN_REPORT, SYN_MT_REPORT = 0, 2
BTN_TOUCH = 330
ABS_X, ABS_Y = 0, 1
MT_SLOT, MT_X, MT_Y, MT_TRACKING_ID = 47, 53, 54, 57
NAMES = {
    ABS_X: "ABS_X",
    ABS_Y: "ABS_Y",
    MT_SLOT: "ABS_MT_SLOT",
    MT_X: "ABS_MT_POSITION_X",
    MT_Y: "ABS_MT_POSITION_Y",
    MT_TRACKING_ID: "ABS_MT_TRACKING_ID",
}


class StrokeReadError(ValueError):
    """A samples file that does not parse: `line` (1-based; the last line for what is missing
    at the end) and `message` (what was expected there)."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__("line %d: %s" % (line, message))
        self.line = line
        self.message = message


def lines_of(text: str) -> List[str]:
    """The lines of `text`, numbered from 1 by their index + 1, ``\\r\\n`` accepted."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [line[:-1] if line.endswith("\r") else line for line in lines]


def finite_number(text: str, what: str, line: int) -> float:
    """A finite number from a field, or the error naming `line` and `what`."""
    field = text.strip(" \t")
    try:
        value = float(field)
    except ValueError:
        value = math.nan
    if not math.isfinite(value):
        raise StrokeReadError(line, "expected a finite number for %s, found '%s'" % (what, field))
    return value


class EvdevEvent(NamedTuple):
    """One ``struct input_event`` of a recording, with its line."""

    t: float
    type: int
    code: int
    value: int
    line: int


class Axis(NamedTuple):
    """One absolute axis (``struct input_absinfo``): range, resolution (units per mm), line."""

    minimum: int
    maximum: int
    resolution: int
    line: int

    def points_by_resolution(self, value: int, points_per_inch: float) -> float:
        """Millimetres from the minimum, times `points_per_inch` / 25.4."""
        return (value - self.minimum) / self.resolution / 25.4 * points_per_inch

    def points_on_screen(
        self, value: int, pixels: float, density: float, points_per_inch: float
    ) -> float:
        """Android's TouchInputMapper: pixels / (max − min + 1) per unit from the minimum;
        then pixels to points at `density` dpi."""
        scale = pixels / (self.maximum - self.minimum + 1)
        return (value - self.minimum) * scale * points_per_inch / density


def first_finger(
    events: List[EvdevEvent], last_line: int
) -> Tuple[List[Tuple[float, int, int]], bool]:
    """The first finger's samples ``(t, x, y)`` in device units — the frame it touched, each
    frame that moved it, the frame it lifted (at its last position) — and whether they are the
    multi-touch axes (slots, type B); else ``BTN_TOUCH`` at ``ABS_X``, ``ABS_Y``."""
    multi = any(e.type == ABS and e.code == MT_X for e in events)
    for e in events:
        if e.type == SYN and e.code == SYN_MT_REPORT:
            raise StrokeReadError(
                e.line,
                "expected the multi-touch slot protocol (type B): SYN_MT_REPORT (type A) is "
                "not read",
            )
    x_code, y_code = (MT_X, MT_Y) if multi else (ABS_X, ABS_Y)
    slot = 0
    xs: Dict[int, int] = {}
    ys: Dict[int, int] = {}
    followed: Optional[int] = None
    touched: Optional[Tuple[int, int]] = None
    lifted = moved = False
    samples: List[Tuple[float, int, int]] = []
    for e in events:
        if e.type == SYN and e.code == SYN_REPORT:
            if followed is not None:
                if samples:
                    if lifted:
                        samples.append((e.t, samples[-1][1], samples[-1][2]))
                        break
                    if moved and followed in xs and followed in ys:
                        samples.append((e.t, xs[followed], ys[followed]))
            elif touched is not None:
                if touched[0] not in xs or touched[0] not in ys:
                    axes = "ABS_MT_POSITION_" if multi else "ABS_"
                    raise StrokeReadError(
                        touched[1],
                        "expected the touch's position (%sX and %sY) by its SYN_REPORT, "
                        "found none" % (axes, axes),
                    )
                followed = touched[0]
                samples.append((e.t, xs[followed], ys[followed]))
            touched = None
            moved = False
        elif multi and e.type == ABS and e.code == MT_SLOT:
            slot = e.value
        elif multi and e.type == ABS and e.code == MT_TRACKING_ID:
            if e.value >= 0 and followed is None and touched is None:
                touched = (slot, e.line)
            if e.value < 0 and slot == followed:
                lifted = True
        elif not multi and e.type == KEY and e.code == BTN_TOUCH:
            if e.value == 1 and followed is None:
                touched = (0, e.line)
            if e.value == 0 and followed is not None:
                lifted = True
        elif e.type == ABS and e.code in (x_code, y_code):
            where = slot if multi else 0
            (xs if e.code == x_code else ys)[where] = e.value
            moved = moved or where == followed
    if followed is None:
        raise StrokeReadError(
            last_line,
            "expected a touch (%s and a SYN_REPORT), found none"
            % ("ABS_MT_TRACKING_ID ≥ 0" if multi else "BTN_TOUCH 1 with ABS_X and ABS_Y"),
        )
    return samples, multi
