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

from . import _getevent, _libinput_record
from ._evdev import StrokeReadError, finite_number, lines_of

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
    `device_info` the ``getevent -lp`` text when `text` does not start with it. For
    ``libinput``: `screen` maps an axis that gives no resolution onto the output it drives."""
    if not (points_per_inch > 0 and math.isfinite(points_per_inch)):
        raise ValueError("points_per_inch must be above 0, not %r" % points_per_inch)
    if screen is not None and not (
        len(screen) == 3 and all(v > 0 and math.isfinite(v) for v in screen)
    ):
        raise ValueError(
            "screen must be (width px, height px, density dpi), each above 0, not %r" % (screen,)
        )
    lines = lines_of(text)
    if format == "csv":
        samples = _csv(lines)
    elif format == "jsonl":
        samples = _jsonl(lines)
    elif format == "libinput":
        samples = [Sample(*s) for s in _libinput_record.read(lines, points_per_inch, screen)]
    elif format == "getevent":
        read = _getevent.read(lines, points_per_inch, screen, device_info)
        samples = [Sample(*s) for s in read]
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
                finite_number(fields[t], "t", number),
                finite_number(fields[x], "x", number),
                finite_number(fields[y], "y", number),
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
