"""What Android's ``getevent -lt`` prints (AOSP ``toolbox/getevent.c``), with the axes of
``getevent -lp`` (as the Swift module ``Strokes``: GeteventLog.swift), mapped onto the screen
as Android's TouchInputMapper does."""

from __future__ import annotations

from typing import Dict, List, Optional, Sequence, Tuple

from ._evdev import (
    ABS_X,
    MT_X,
    NAMES,
    Axis,
    EvdevEvent,
    StrokeReadError,
    finite_number,
    first_finger,
    lines_of,
)


_TYPES = {"EV_SYN": 0, "EV_KEY": 1, "EV_ABS": 3}
_CODES = {"SYN_REPORT": 0, "SYN_MT_REPORT": 2, "BTN_TOUCH": 330}
_CODES.update({name: code for code, name in NAMES.items()})
_KEY_VALUES = {"DOWN": 1, "UP": 0, "REPEAT": 2}


def _label(word: str, labels: Dict[str, int], prefix: str) -> Optional[int]:
    """4 hexadecimal digits, a known label, -1 for another label (ignored), else None."""
    if len(word) == 4:
        try:
            return int(word, 16)
        except ValueError:
            pass
    if prefix in word:
        return labels.get(word, -1)
    return None


def _value(word: str) -> Optional[int]:
    if len(word) == 8:
        try:
            bits = int(word, 16)
            return bits - (1 << 32) if bits >= 1 << 31 else bits
        except ValueError:
            pass
    if word in _KEY_VALUES:
        return _KEY_VALUES[word]
    return 0 if "_" in word else None


class _DeviceInfo:
    """The axes ``getevent -lp`` lists, per device (``add device N: PATH``; none: "")."""

    def __init__(self) -> None:
        self.device = ""
        self.axes: Dict[str, Dict[str, Axis]] = {}

    def take(self, text: str, line: int) -> bool:
        if text.startswith("could not "):
            return True
        if text.startswith("add device ") or text.startswith("remove device "):
            if ":" in text:
                self.device = text.split(":", 1)[1].strip(" \t")
            return True
        if not text.startswith((" ", "\t")):
            return False
        if ": value " not in text:
            return True
        head, rest = text.split(": value ", 1)
        words = head.split()
        label = words[-1] if words else ""
        fields: Dict[str, int] = {}
        for part in rest.split(","):
            pair = part.split()
            if len(pair) == 2:
                try:
                    fields[pair[0]] = int(pair[1])
                except ValueError:
                    pass
        if "min" not in fields or "max" not in fields:
            raise StrokeReadError(
                line,
                "expected an axis as `getevent -lp` prints it (LABEL : value V, min A, max B, "
                "fuzz F, flat L, resolution R), found '%s'" % text.strip(" \t"),
            )
        try:
            name = NAMES.get(int(label, 16), label)
        except ValueError:
            name = label
        axes = self.axes.setdefault(self.device, {})
        axes[name] = Axis(fields["min"], fields["max"], fields.get("resolution", 0), line)
        return True

    def axis(self, name: str, device: str, last: int) -> Axis:
        axis = self.axes.get(device, {}).get(name)
        if axis is None and device == "":
            axis = next((a[name] for a in self.axes.values() if name in a), None)
        if axis is None:
            raise StrokeReadError(
                last,
                "expected the range of %s (the `getevent -lp` lines of %s, in the file before "
                "its events or given apart: dynctl --device-info FILE), found none"
                % (name, device or "the device"),
            )
        if axis.maximum <= axis.minimum:
            raise StrokeReadError(axis.line, "expected %s's max above its min" % name)
        return axis


def read(
    lines: List[str],
    points_per_inch: float,
    screen: Optional[Sequence[float]],
    device_info: Optional[str],
) -> List[Tuple[float, float, float]]:
    """The samples ``(t, x, y)`` of `lines` of ``getevent -lt`` output (`dynd.strokes`)."""
    info = _DeviceInfo()
    if device_info is not None:
        for number, line in enumerate(lines_of(device_info), start=1):
            if line.strip(" \t") and not info.take(line, number):
                raise StrokeReadError(
                    number,
                    "expected a line of `getevent -lp` in the device info, found '%s'" % line,
                )
    events: Dict[str, List[EvdevEvent]] = {}
    positioned: Optional[str] = None
    for number, line in enumerate(lines, start=1):
        if not line.strip(" \t"):
            continue
        if line.startswith("["):
            device, event = _getevent_line(line, number)
            events.setdefault(device, []).append(event)
            if positioned is None and event.type == 3 and event.code in (MT_X, ABS_X):
                positioned = device
        elif not info.take(line, number):
            raise StrokeReadError(
                number,
                "expected a `getevent -lt` event line ([SECONDS] TYPE CODE VALUE), found '%s'"
                % line,
            )
    last = max(1, len(lines))
    device = positioned if positioned is not None else min(events, default="")
    raw_samples, multi = first_finger(events.get(device, []), last)
    if screen is None:
        raise StrokeReadError(
            last,
            "expected the screen's size and density (adb shell wm size, wm density) to convert "
            "getevent's units: give them (dynctl: --screen-size W,H --screen-density DPI)",
        )
    width, height, density = (float(v) for v in screen)
    names = ("ABS_MT_POSITION_X", "ABS_MT_POSITION_Y") if multi else ("ABS_X", "ABS_Y")
    x = info.axis(names[0], device, last)
    y = info.axis(names[1], device, last)
    return [
        (
            t,
            x.points_on_screen(rx, width, density, points_per_inch),
            y.points_on_screen(ry, height, density, points_per_inch),
        )
        for t, rx, ry in raw_samples
    ]


def _getevent_line(text: str, line: int) -> Tuple[str, EvdevEvent]:
    expected = "expected [SECONDS] TYPE CODE VALUE, found '%s'" % text
    close = text.find("]")
    if close < 0:
        raise StrokeReadError(line, expected)
    t = finite_number(text[1:close], "the time", line)
    words = text[close + 1 :].split()
    device = ""
    if words and words[0].endswith(":"):
        device = words.pop(0)[:-1]
    kind = _label(words[0], _TYPES, "EV_") if len(words) == 3 else None
    code = _label(words[1], _CODES, "_") if len(words) == 3 else None
    if kind is None or code is None:
        raise StrokeReadError(line, expected)
    value = _value(words[2])
    if value is None:
        raise StrokeReadError(
            line, "expected a hexadecimal value (or DOWN, UP, REPEAT), found '%s'" % words[2]
        )
    return device, EvdevEvent(t, kind, code, value, line)
