"""Recorded strokes read into samples ``(t, x, y)`` (seconds, points): what
`Client.replay_samples` sends. The same formats and rules as dynctl's ``--samples`` (the
Swift module ``Strokes``; docs/STROKES.md), checked against the same cases
(``Tests/Shared/strokes/expected.json``):

- ``csv``: a header naming the columns ``t``, ``x``, ``y`` (any order; others ignored), then one
  sample a line;
- ``jsonl``: one object ``{"t":…,"x":…,"y":…}`` a line, or a ``dynctl record`` trace (its first
  pan: the ``gesture`` requests dynctl sent, from ``began`` to ``ended`` or ``cancelled``);
- ``libinput``: the YAML of ``libinput record``, read as its man page lays it out (the first
  device; its ``absinfo`` and ``- evdev:`` events), positions converted by the axes'
  resolution (units per millimetre);
- ``getevent``: Android's ``getevent -lt`` (or ``-t``), the axes' ranges from ``getevent -lp``
  lines first in the file or in `device_info`, mapped onto `screen` (width and height in
  pixels, density in dpi) as Android's TouchInputMapper does.

Device units become points at `points_per_inch` (default 160, Android's baseline density).
A file that does not parse raises `StrokeReadError`, naming the line and what was expected.
Times are kept as recorded, even repeated or backwards: the daemon's estimator applies its one
rule to them (protocol/PROTOCOL.md, *The release-velocity estimator*, rule 2).
"""

from __future__ import annotations

import json
import math
import os
from typing import Dict, List, NamedTuple, Optional, Sequence, Tuple, Union

from ._evdev import ABS_X, MT_X, NAMES, Axis, EvdevEvent, StrokeReadError, first_finger

__all__ = [
    "Sample",
    "StrokeReadError",
    "FORMATS",
    "format_of",
    "parse_samples",
    "read_samples",
    "summary",
]

FORMATS = ("csv", "jsonl", "libinput", "getevent")
_EXTENSIONS = {
    "csv": "csv",
    "jsonl": "jsonl",
    "ndjson": "jsonl",
    "json": "jsonl",
    "yml": "libinput",
    "yaml": "libinput",
    "getevent": "getevent",
}


class Sample(NamedTuple):
    """One sample: `t` seconds (the recording's clock), `x`, `y` points."""

    t: float
    x: float
    y: float


def format_of(path: Union[str, "os.PathLike[str]"]) -> Optional[str]:
    """The format a file's extension names (``.csv``; ``.jsonl``, ``.ndjson``, ``.json``;
    ``.yml``, ``.yaml``; ``.getevent``), or None."""
    name = os.path.basename(os.fspath(path))
    if "." not in name:
        return None
    return _EXTENSIONS.get(name.rsplit(".", 1)[1].lower())


def read_samples(
    path: Union[str, "os.PathLike[str]"],
    format: Optional[str] = None,
    *,
    points_per_inch: float = 160.0,
    screen: Optional[Sequence[float]] = None,
    device_info: Union[str, "os.PathLike[str]", None] = None,
) -> List[Sample]:
    """The samples of the file at `path`, in `format` (default: its extension's); `screen` and
    `device_info` (a file of ``getevent -lp`` output) as `parse_samples` takes them."""
    chosen = format or format_of(path)
    if chosen is None:
        raise ValueError("%s: no format for its extension: give format=" % os.fspath(path))
    with open(path, encoding="utf-8") as file:
        text = file.read()
    info = None
    if device_info is not None:
        with open(device_info, encoding="utf-8") as file:
            info = file.read()
    return parse_samples(
        text, chosen, points_per_inch=points_per_inch, screen=screen, device_info=info
    )


def parse_samples(
    text: str,
    format: str,
    *,
    points_per_inch: float = 160.0,
    screen: Optional[Sequence[float]] = None,
    device_info: Optional[str] = None,
) -> List[Sample]:
    """The samples of `text` in `format` (one of `FORMATS`). For ``getevent``: `screen` is
    ``(width, height, density)`` (pixels, pixels, dpi: ``adb shell wm size``, ``wm density``),
    `device_info` the ``getevent -lp`` text when `text` does not start with it."""
    if not (points_per_inch > 0 and math.isfinite(points_per_inch)):
        raise ValueError("points_per_inch must be above 0, not %r" % points_per_inch)
    lines = _lines(text)
    if format == "csv":
        samples = _csv(lines)
    elif format == "jsonl":
        samples = _jsonl(lines)
    elif format == "libinput":
        samples = _libinput(lines, points_per_inch)
    elif format == "getevent":
        samples = _getevent(lines, points_per_inch, screen, device_info)
    else:
        raise ValueError("format must be one of %s, not %r" % (", ".join(FORMATS), format))
    if len(samples) < 2:
        raise StrokeReadError(
            max(1, len(lines)),
            "expected at least two samples (where the finger went down and where it lifted), "
            "found %d" % len(samples),
        )
    return samples


def summary(samples: Sequence[Sample]) -> Dict[str, float]:
    """What a stroke is, as dynctl prints it: ``samples``, ``duration`` (s), the ``span``'s
    ``width`` and ``height`` (pt), and the times that ``repeated`` or went ``backward``."""
    xs = [s.x for s in samples]
    ys = [s.y for s in samples]
    pairs = list(zip(samples, samples[1:]))
    return {
        "samples": len(samples),
        "duration": samples[-1].t - samples[0].t,
        "width": max(xs) - min(xs),
        "height": max(ys) - min(ys),
        "repeated": sum(1 for a, b in pairs if b.t == a.t),
        "backward": sum(1 for a, b in pairs if b.t < a.t),
    }


# The readers ------------------------------------------------------------------------------


def _lines(text: str) -> List[str]:
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [line[:-1] if line.endswith("\r") else line for line in lines]


def _number(text: str, what: str, line: int) -> float:
    field = text.strip(" \t")
    try:
        value = float(field)
    except ValueError:
        value = math.nan
    if not math.isfinite(value):
        raise StrokeReadError(line, "expected a finite number for %s, found '%s'" % (what, field))
    return value


def _csv(lines: List[str]) -> List[Sample]:
    columns: Optional[Tuple[int, int, int, int]] = None
    samples = []
    for number, line in enumerate(lines, start=1):
        if not line.strip(" \t"):
            continue
        fields = line.split(",")
        if columns is None:
            names = [f.strip(" \t").lower() for f in fields]
            if not {"t", "x", "y"} <= set(names):
                raise StrokeReadError(
                    number,
                    "expected a header naming the columns t, x and y, found '%s'" % ",".join(names),
                )
            columns = (len(fields), names.index("t"), names.index("x"), names.index("y"))
            continue
        count, t, x, y = columns
        if len(fields) != count:
            raise StrokeReadError(
                number, "expected %d columns, as the header names, found %d" % (count, len(fields))
            )
        samples.append(
            Sample(
                _number(fields[t], "t", number),
                _number(fields[x], "x", number),
                _number(fields[y], "y", number),
            )
        )
    return samples


def _jsonl(lines: List[str]) -> List[Sample]:
    samples: List[Sample] = []
    trace = False
    pan = "before"
    for number, line in enumerate(lines, start=1):
        if not line.strip(" \t"):
            continue
        try:
            value = json.loads(line)
        except ValueError as error:
            raise StrokeReadError(number, "expected a JSON object: %s" % error) from None
        if not isinstance(value, dict):
            raise StrokeReadError(number, "expected a JSON object, found %s" % json.dumps(value))
        if not samples and not trace and "trace" in value:
            trace = True
            continue
        if not trace:
            samples.append(_sample(value, number, ""))
            continue
        sent = value.get("sent")
        if pan == "after" or not isinstance(sent, dict) or sent.get("op") != "gesture":
            continue
        phase = sent.get("phase")
        if pan == "before" and phase != "began":
            continue
        pan = "after" if phase in ("ended", "cancelled") else "during"
        samples.append(_sample(sent, number, "the trace's gesture "))
    if trace and not samples:
        raise StrokeReadError(
            max(1, len(lines)),
            'expected a gesture in the trace ({"sent":{"op":"gesture",…}} lines from a '
            "`dynctl record … --pan` or `--samples`), found none",
        )
    return samples


def _sample(value: Dict[str, object], line: int, what: str) -> Sample:
    numbers = []
    for name in ("t", "x", "y"):
        member = value.get(name)
        if (
            isinstance(member, bool)
            or not isinstance(member, (int, float))
            or not math.isfinite(member)
        ):
            found = "it is missing" if name not in value else "found %s" % json.dumps(member)
            raise StrokeReadError(line, 'expected a number for %s"%s": %s' % (what, name, found))
        numbers.append(float(member))
    return Sample(*numbers)


def _integers(text: str, line: int) -> List[int]:
    inner = text[1:-1] if text.startswith("[") and text.endswith("]") else ""
    parts = inner.split(",")
    try:
        values = [int(p.strip(" \t")) for p in parts]
    except ValueError:
        values = []
    if len(values) != 5:
        raise StrokeReadError(line, "expected a list of five integers, found '%s'" % text)
    return values


def _libinput(lines: List[str], points_per_inch: float) -> List[Sample]:
    absinfo: Dict[int, Axis] = {}
    events: List[EvdevEvent] = []
    section = "header"
    section_indent = 0
    devices = 0
    saw_version = False
    in_evdev = False
    for number, raw in enumerate(lines, start=1):
        line = raw.split("#", 1)[0]
        item = line.strip(" \t")
        if not item:
            continue
        indent = len(line) - len(line.lstrip(" "))
        if indent == 0 and not item.startswith("- "):
            if item.startswith("version:"):
                if item[len("version:") :].strip(" \t") != "1":
                    raise StrokeReadError(number, "expected version: 1, found '%s'" % item)
                saw_version = True
            section = "devices" if item == "devices:" else "header"
            continue
        if section == "header":
            continue
        # A section ends at a line no deeper than its key, but for a list item at the key's
        # indent (YAML lets a key's list start there, as libinput record writes ``events:``).
        if section in ("absinfo", "events") and (
            indent < section_indent or (indent == section_indent and not item.startswith("- "))
        ):
            section = "devices"
        if item.startswith("- node:"):
            devices += 1
            if devices > 1:
                break
            section = "devices"
            continue
        if section == "devices" and item in ("absinfo:", "events:"):
            section = item[:-1]
            section_indent = indent
        elif section == "absinfo":
            code, colon, values = item.partition(":")
            try:
                key = int(code.strip(" \t"))
            except ValueError:
                colon = ""
            if not colon:
                raise StrokeReadError(
                    number,
                    "expected an absinfo entry CODE: [min, max, fuzz, flat, resolution], "
                    "found '%s'" % item,
                )
            v = _integers(values.strip(" \t"), number)
            absinfo[key] = Axis(v[0], v[1], v[4], number)
        elif section == "events" and item.startswith("- ") and item.endswith(":"):
            in_evdev = item == "- evdev:"
        elif section == "events" and in_evdev and item.startswith("- ["):
            v = _integers(item[2:].strip(" \t"), number)
            events.append(EvdevEvent(v[0] + v[1] / 1_000_000, v[2], v[3], v[4], number))
    last = max(1, len(lines))
    if not saw_version:
        raise StrokeReadError(1, "expected a libinput record file (version: 1), found none")
    if devices == 0:
        raise StrokeReadError(last, "expected a device (devices: - node: …), found none")
    raw_samples, multi = first_finger(events, last)
    codes = (53, 54) if multi else (0, 1)
    x, y = (_resolved_axis(absinfo, code, last) for code in codes)
    return [
        Sample(
            t,
            x.points_by_resolution(rx, points_per_inch),
            y.points_by_resolution(ry, points_per_inch),
        )
        for t, rx, ry in raw_samples
    ]


def _resolved_axis(absinfo: Dict[int, Axis], code: int, last: int) -> Axis:
    name = NAMES[code]
    axis = absinfo.get(code)
    if axis is None:
        raise StrokeReadError(
            last, "expected the absinfo of %s (code %d) in the device, found none" % (name, code)
        )
    if axis.resolution <= 0:
        raise StrokeReadError(
            axis.line,
            "expected a resolution (units per millimetre) for %s, found %d: without it the "
            "positions cannot become points" % (name, axis.resolution),
        )
    if axis.maximum <= axis.minimum:
        raise StrokeReadError(axis.line, "expected %s's max above its min" % name)
    return axis


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


def _getevent(
    lines: List[str],
    points_per_inch: float,
    screen: Optional[Sequence[float]],
    device_info: Optional[str],
) -> List[Sample]:
    info = _DeviceInfo()
    if device_info is not None:
        for number, line in enumerate(_lines(device_info), start=1):
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
        Sample(
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
    t = _number(text[1:close], "the time", line)
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
