"""The YAML of ``libinput record``, read as libinput-record(1) (FILE FORMAT) lays it out, not
as YAML in general (as the Swift module ``Strokes``: LibinputRecord.swift): the first device of
``devices:``, its ``absinfo:`` entries and its ``- evdev:`` events; positions converted by the
axes' resolution (units per millimetre), or, for an axis without one (0: many touchscreens give
none), mapped onto `screen` as the compositor maps the touchscreen onto its output."""

from __future__ import annotations

from typing import Dict, List, Optional, Sequence, Tuple

from ._evdev import NAMES, Axis, EvdevEvent, StrokeReadError, first_finger


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


def read(
    lines: List[str], points_per_inch: float, screen: Optional[Sequence[float]] = None
) -> List[Tuple[float, float, float]]:
    """The samples ``(t, x, y)`` of `lines` of ``libinput record`` YAML (`dynd.strokes`);
    `screen` ``(width px, height px, density dpi)`` for axes without a resolution."""
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
    x, y = (_resolved_axis(absinfo, code, last, screen is not None) for code in codes)

    def points(axis: Axis, value: int, along: int) -> float:
        if axis.resolution > 0 or screen is None:
            return axis.points_by_resolution(value, points_per_inch)
        return axis.points_on_screen(value, screen[along], screen[2], points_per_inch)

    return [(t, points(x, rx, 0), points(y, ry, 1)) for t, rx, ry in raw_samples]


def _resolved_axis(absinfo: Dict[int, Axis], code: int, last: int, has_screen: bool) -> Axis:
    name = NAMES[code]
    axis = absinfo.get(code)
    if axis is None:
        raise StrokeReadError(
            last, "expected the absinfo of %s (code %d) in the device, found none" % (name, code)
        )
    if axis.resolution <= 0 and not has_screen:
        raise StrokeReadError(
            axis.line,
            "expected a resolution (units per millimetre) for %s, found %d: without it the "
            "positions become points only on the screen the device maps onto (screen=(W, H, "
            "DPI))" % (name, axis.resolution),
        )
    if axis.maximum <= axis.minimum:
        raise StrokeReadError(axis.line, "expected %s's max above its min" % name)
    return axis
