#!/usr/bin/env python3
"""Randomized multi-connection chaos run against a real dynd (`make chaos`, `make chaos-test`).

    python3 tools/chaos.py BIN_DIR [--seconds N] [--seed S] [--max-rtt-ms MS] [--heavy SHARE]
                           [--heavy-kinds overlap,polyline,longstep,bigrealtime] [--connections N]
                           (--heavy-kinds also takes the costly kinds: bigdt,rules,failures,
                           bigdebug, or `all`)

Starts `BIN_DIR/dynd --socket PATH` on a private temporary socket, then for N seconds keeps 12-24
client connections busy (each slot opens a connection, plays one randomly chosen client for a
while, closes it, gracefully or abruptly, and opens the next):

  scene scripters   every op on scenes with items and behaviors of every type (collision with
                    boundaries and polylines, attachments of every kind, snaps, pushes, item
                    behaviors), manual steps with large counts, realtime sessions, debug, get, list
  transition users  every transition, random parameters, pans with and without release
                    velocities and times, taps, swipes, steps or realtime play
  malformed senders bad JSON, non-objects, wrong types, unknown fields, huge numbers, long names,
                    control characters, duplicate keys, pipelined in batches; over-long lines
  watchers          watch/debug other clients' sessions; some stop reading for seconds (or for
                    good), then read everything that queued up
  partial writers   lines split into pieces sent with pauses, unterminated last lines, clients
                    that vanish in the middle of a line
  disconnectors     clients that start long manual steps and disconnect mid-step
  closers           close, get and watch other clients' sessions
  heavy (--heavy)   the reproducers: `overlap` (up to 1000 overlapping items in one collision
                    behavior), `polyline` (collision boundaries made of long, dense, far-flung
                    polylines), `longstep` (manual steps of count 100000 on a scene that never
                    rests), `bigrealtime` (hundreds of items at 240 fps with the debug stream)
  costly (opt-in:   valid requests whose cost is far beyond their size (issue 25): `bigdt` (one
   --heavy-kinds)   frame of dt 2-10 s, or a realtime session at fps 1, on a busy scene; left in
                    the middle at times), `rules` (up to 16 behaviors × 8 repeating rules of 8
                    `set` effects changing a collision behavior's mode, stepped with dt ≤ 1 s),
                    `failures` (pipelined expensive failures in one write: `add_group`s refused
                    after a walk of a many-behavior scene, refused `behaviors` replies, refused
                    opens of 700 path items), `bigdebug` (`debug` on hundreds of behaviors × 1000
                    items with long ids, a reply of tens of MB or a refusal); not in the default
                    list while a debug build cannot meet --max-rtt-ms with them

Checked, for every byte dynd writes: each line is strict JSON (UTF-8, no NaN/Infinity, no number
that overflows a double), an object that is a reply (`ok`) or an event (`ev`); each connection
gets exactly one reply per request, in order (requests carry unique ids; lines that cannot carry
one, such as bad JSON, must be answered without an id); lines that are invalid must be refused;
no connection that reads goes 30 s without a reply it is owed; dynd is never closed on a client
that reads. A separate probe process sends `hello`/`list` every 20 ms on its own connection and
records the round trip (p50/p99/max; the run fails when the max exceeds --max-rtt-ms). At the end
dynd must still answer, its RSS is printed, and SIGTERM must make it send `shutdown`, exit 0 and
remove its socket.

Deterministic given --seed: each slot's sequence of clients and requests comes from the seed, the
slot and the life number, never from replies (state is tracked optimistically), so the same seed
sends the same requests; only their timing and interleaving vary. Exit status: 0 pass, 1 a check
failed, 2 the run could not start.
"""

import argparse
import asyncio
import collections
import json
import math
import multiprocessing
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

# ---------------------------------------------------------------------------------------------
# Strict JSON


class NotStrict(ValueError):
    pass


def _reject_constant(name):
    raise NotStrict(f"non-finite constant {name}")


def _finite_float(text):
    value = float(text)
    if not math.isfinite(value):
        raise NotStrict(f"the number {text} is not finite as a double")
    return value


def parse_strict(raw):
    """The object on one output line (bytes, without the newline), or raises ValueError."""
    text = raw.decode("utf-8")  # UnicodeDecodeError is a ValueError
    value = json.loads(text, parse_constant=_reject_constant, parse_float=_finite_float)
    _check_strings(value)
    return value


def _check_strings(value):
    """Lone surrogates (\\ud800) are valid JSON syntax but not Unicode: dynd must not write them."""
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, str):
            try:
                v.encode("utf-8")
            except UnicodeEncodeError:
                raise NotStrict(f"a string holds a lone surrogate: {v!r}") from None
        elif isinstance(v, dict):
            stack.extend(v.keys())
            stack.extend(v.values())
        elif isinstance(v, list):
            stack.extend(v)


def dumps(obj):
    return json.dumps(obj, separators=(",", ":"), allow_nan=False).encode()


def excerpt(raw, limit=300):
    if isinstance(raw, (bytes, bytearray)):
        text = bytes(raw[:limit * 4]).decode("utf-8", "backslashreplace")
        size = len(raw)
    else:
        text, size = str(raw), len(str(raw))
    text = text.replace("\n", "\\n")
    if len(text) > limit:
        return f"{text[:limit]}… ({size} bytes)"
    return text


NOID = object()  # the reply must carry no "id"


class Either:
    """The reply may carry this id or none (a known deviation, counted in the report)."""

    def __init__(self, value):
        self.value = value


def same_id(expected, message):
    if isinstance(expected, Either):
        return "id" not in message or same_id(expected.value, message)
    got = message.get("id", NOID)
    if expected is NOID or got is NOID:
        return expected is got
    if isinstance(expected, bool) or isinstance(got, bool):
        return False
    if isinstance(expected, str) or isinstance(got, str):
        return type(expected) is type(got) and expected == got
    return expected == got


def show_id(value):
    if isinstance(value, Either):
        return f"{show_id(value.value)} or none"
    return "(no id)" if value is NOID else json.dumps(value)


# ---------------------------------------------------------------------------------------------
# The protocol's vocabulary (protocol/PROTOCOL.md)

# Each transition's parameters: name -> (low, high, integral) or a tuple of words.
TRANSITIONS = {
    "lock-screen": {"gravity": (0.1, 20, False), "elasticity": (0, 1, False),
                    "open_speed": (0, 10000, False), "open_fraction": (0, 1, False),
                    "floor_margin": (0, 100, False), "tap_speed": (0, 5000, False),
                    "grabber_size": (1, 1000, False)},
    "wave-pop": {"rows": (1, 40, True), "row_height": (10, 200, False), "top": (0, 400, False),
                 "gap": (0, 200, False), "damping": (0, 2, False), "frequency": (0.1, 30, False),
                 "lag_divisor": (1, 10000, False), "clamp": (0, 50, False),
                 "complete_rule": ("velocity", "position"), "complete_fraction": (0, 1, False),
                 "finish_frequency": (0.1, 30, False), "finish_damping": (0, 2, False)},
    "sidebar-menu": {"menu_width": (20, 320, False), "top": (0, 200, False),
                     "tab_bar_height": (0, 200, False), "gravity": (0, 20, False),
                     "push": (0, 1000, False), "elasticity": (0, 1, False),
                     "open_alpha": (0, 1, False), "edge_width": (0, 200, False)},
    "snap": {"damping": (0, 1, False), "label_width": (1, 320, False),
             "label_height": (1, 568, False)},
    "drag": {"offset_x": (-70, 70, False), "offset_y": (-30, 30, False),
             "resistance": (0, 100, False), "elasticity": (0, 1, False)},
    "snake": {"damping": (0, 2, False), "frequency": (0.1, 30, False),
              "tail_density": (0.01, 100, False), "tail_resistance": (0, 100, False),
              "resistance": (0, 100, False)},
    "heavy": {"gravity": (0.1, 20, False), "label_width": (1, 320, False),
              "label_height": (1, 568, False)},
    "springy-list": {"rows": (1, 40, True), "row_height": (10, 200, False),
                     "top": (0, 400, False), "damping": (0, 2, False),
                     "frequency": (0.1, 30, False), "resistance_divisor": (1, 100000, False)},
    "toss": {"toss_speed": (0, 20000, False), "photo_width": (10, 320, False),
             "photo_height": (10, 568, False), "snap_damping": (0, 1, False)},
    "notification-center": {"gravity": (0.1, 20, False), "elasticity_base": (0, 1, False),
                            "elasticity_speed": (1, 100000, False),
                            "elasticity_max": (0, 1, False), "open_speed": (0, 10000, False),
                            "pull_zone": (0, 568, False), "floor_margin": (0, 100, False)},
    "pip-corners": {"window_width": (10, 240, False), "window_height": (10, 400, False),
                    "margin": (0, 40, False), "spring_strength": (1, 10000, False),
                    "resistance": (0, 1000, False), "deceleration_rate": (0.9, 0.9999, False)},
    # One decay parameter only: two of them are refused (invalid_params).
    "fling": {"deceleration_rate": (0.9, 0.9999, False), "card_width": (10, 320, False),
              "card_height": (10, 568, False)},
}
BEHAVIOR_TYPES = ["gravity", "collision", "attachment", "snap", "push", "dynamic_item", "spring",
                  "decay"]
ATTACHMENT_KINDS = ["distance", "sliding", "limit", "fixed", "pin"]
HEAVY_KINDS = ["overlap", "polyline", "longstep", "bigrealtime"]
COSTLY_KINDS = ["bigdt", "rules", "failures", "bigdebug"]
MAX_LINE = 1 << 20  # dynd's default --max-line


def r3(x):
    return round(x, 3)


class Gen:
    """Random requests for one client life; every choice comes from `rng`."""

    def __init__(self, rng, tag):
        self.rng = rng
        self.tag = tag
        self.serial = 0

    def uid(self, prefix):
        self.serial += 1
        return f"{prefix}{self.serial}"

    def num(self, lo, hi, integral=False):
        rng = self.rng
        roll = rng.random()
        if roll < 0.08:
            v = lo
        elif roll < 0.16:
            v = hi
        else:
            v = rng.uniform(lo, hi)
        return int(round(v)) if integral else r3(v)

    def point(self, w, h, margin=0):
        return [r3(self.rng.uniform(margin, w - margin)), r3(self.rng.uniform(margin, h - margin))]

    def vector(self, scale):
        return [r3(self.rng.uniform(-scale, scale)), r3(self.rng.uniform(-scale, scale))]

    # items -------------------------------------------------------------------------------------

    def item(self, ident, w, h, size=None):
        rng = self.rng
        side = size or rng.choice([4, 10, 20, 30, 50, 80])
        item = {"id": ident, "center": self.point(w, h, min(side, w / 3, h / 3)),
                "size": [r3(side * rng.uniform(0.5, 1.5)), r3(side * rng.uniform(0.5, 1.5))]}
        shape = rng.choice(["rectangle", "rectangle", "ellipse", "path", None])
        if shape == "path":
            n = rng.randint(3, 8)
            radius = max(5.0, side / 2)
            turn = rng.uniform(0, math.tau)
            item["shape"] = "path"
            item["path"] = [[r3(radius * math.cos(turn + k * math.tau / n)),
                             r3(radius * math.sin(turn + k * math.tau / n))] for k in range(n)]
            item["size"] = [r3(2 * radius), r3(2 * radius)]
        elif shape:
            item["shape"] = shape
        if rng.random() < 0.3:
            item["angle"] = r3(rng.uniform(-math.pi, math.pi))
        return item

    # behaviors ---------------------------------------------------------------------------------

    def polyline(self, n, w, h, step=(5, 40)):
        rng = self.rng
        x, y = self.point(w, h)
        pts = [[r3(x), r3(y)]]
        while len(pts) < n:
            angle = rng.uniform(0, math.tau)
            d = rng.uniform(*step)
            nx, ny = r3(x + d * math.cos(angle)), r3(y + d * math.sin(angle))
            if math.hypot(nx - pts[-1][0], ny - pts[-1][1]) < 1.01:
                continue
            x, y = nx, ny
            pts.append([x, y])
        return pts

    def boundaries(self, w, h, count=None):
        rng = self.rng
        out = []
        for k in range(rng.randint(0, 3) if count is None else count):
            if rng.random() < 0.5:
                a, b = self.point(w, h), self.point(w, h)
                if math.hypot(a[0] - b[0], a[1] - b[1]) < 2:
                    b = [r3(a[0] + 10), r3(a[1] + 10)]
                out.append({"id": f"wall{k}", "from": a, "to": b})
            else:
                out.append({"id": f"line{k}", "path": self.polyline(rng.randint(2, 30), w, h)})
        return out

    def behavior(self, btype, items, w, h, ident=None):
        rng = self.rng
        b = {"type": btype}
        if ident:
            b["id"] = ident
        pick = lambda: rng.choice(items)  # noqa: E731
        some = lambda: rng.sample(items, rng.randint(1, len(items)))  # noqa: E731
        if btype == "gravity":
            b["items"] = some()
            if rng.random() < 0.5:
                b["direction"] = self.vector(2)
            elif rng.random() < 0.8:
                b["angle"], b["magnitude"] = r3(rng.uniform(-7, 7)), r3(rng.uniform(0, 3))
        elif btype == "collision":
            b["items"] = some()
            if rng.random() < 0.7:
                b["mode"] = rng.choice(["everything", "items", "boundaries"])
            roll = rng.random()
            if roll < 0.5:
                b["reference_bounds"] = True
            elif roll < 0.7:
                b["insets"] = [r3(rng.uniform(-20, 40)) for _ in range(4)]
            bs = self.boundaries(w, h)
            if bs:
                b["boundaries"] = bs
        elif btype == "attachment":
            kind = rng.choice(ATTACHMENT_KINDS) if len(items) > 1 else rng.choice(
                ["distance", "sliding"])
            item = pick()
            other = rng.choice([i for i in items if i != item]) if len(items) > 1 else None
            if kind != "distance" or rng.random() < 0.8:
                b["kind"] = kind
            b["item"] = item
            if kind == "distance":
                if other and rng.random() < 0.5:
                    b["to"] = other
                    if rng.random() < 0.3:
                        b["to_offset"] = self.vector(10)
                else:
                    b["anchor"] = self.point(w, h)
                if rng.random() < 0.3:
                    b["offset"] = self.vector(10)
                if rng.random() < 0.5:
                    b["length"] = r3(rng.uniform(0, 200))
                if rng.random() < 0.6:
                    b["frequency"] = r3(rng.choice([0, rng.uniform(0.1, 10)]))
                    b["damping"] = r3(rng.uniform(0, 2))
                if rng.random() < 0.2:
                    b["friction_torque"] = r3(rng.uniform(0, 10))
            elif kind == "sliding":
                b["anchor"] = self.point(w, h)
                b["axis"] = rng.choice([[0, 1], [1, 0], [r3(rng.uniform(0.1, 1)), r3(rng.uniform(-1, 1))]])
                if other and rng.random() < 0.3:
                    b["to"] = other
                if rng.random() < 0.5:
                    b["range"] = [r3(-rng.uniform(0, 100)), r3(rng.uniform(0, 100))]
            elif kind == "limit":
                b["to"] = other
                if rng.random() < 0.5:
                    b["length"] = r3(rng.uniform(0, 300))
            elif kind == "fixed":
                b["to"], b["anchor"] = other, self.point(w, h)
            else:  # pin
                b["to"], b["anchor"] = other, self.point(w, h)
                if rng.random() < 0.5:
                    b["range"] = [r3(-rng.uniform(0, 3)), r3(rng.uniform(0, 3))]
        elif btype == "snap":
            b["item"], b["point"] = pick(), self.point(w, h)
            if rng.random() < 0.5:
                b["damping"] = r3(rng.uniform(0, 1))
        elif btype == "push":
            b["items"] = some()
            b["mode"] = rng.choice(["continuous", "instantaneous"])
            if rng.random() < 0.5:
                b["direction"] = self.vector(5)
            else:
                b["angle"], b["magnitude"] = r3(rng.uniform(-7, 7)), r3(rng.uniform(0, 5))
            if rng.random() < 0.3:
                b["offset"] = self.vector(5)
            if rng.random() < 0.3:
                b["active"] = rng.random() < 0.7
        elif btype == "spring":
            b["items"], b["target"] = some(), self.point(w, h)
            b.update(self.spring_parameters())
            if rng.random() < 0.3:
                b["initial_velocity"] = self.vector(3000)
        elif btype == "decay":
            b["items"] = some()
            b.update(self.decay_parameter())
            if rng.random() < 0.3:
                b["initial_velocity"] = self.vector(3000)
        else:  # dynamic_item
            b["items"] = some()
            for key, lo, hi in [("elasticity", 0, 1), ("friction", 0, 2), ("density", 0.1, 10),
                                ("resistance", 0, 5), ("angular_resistance", 0, 5),
                                ("charge", -5, 5)]:
                if rng.random() < 0.4:
                    b[key] = r3(rng.uniform(lo, hi))
            if rng.random() < 0.2:
                b["allows_rotation"] = rng.random() < 0.5
            if rng.random() < 0.05:
                b["anchored"] = True
        return b

    def spring_parameters(self):
        """One of the spring's five parameter sets (PROTOCOL.md §6), in range."""
        u = lambda lo, hi: r3(self.rng.uniform(lo, hi))  # noqa: E731
        return self.rng.choice([
            {"response": u(0.05, 2), "damping_ratio": u(0, 2)},
            {"duration": u(0.05, 2), "bounce": u(-0.9, 0.9)},
            {"stiffness": u(1, 2000), "damping_ratio": u(0, 2), "mass": u(0.1, 5)},
            {"stiffness": u(1, 2000), "damping": u(0, 60), "mass": u(0.1, 5)},
            {"tension": u(1, 300), "friction": u(0, 60)}])

    def decay_parameter(self):
        """One decay model's parameter, in range."""
        u = lambda lo, hi: r3(self.rng.uniform(lo, hi))  # noqa: E731
        return self.rng.choice([{"deceleration_rate": u(0.98, 0.999)}, {"friction": u(0.1, 5)},
                                {"drag": u(0.01, 0.9)}])

    def settable(self, btype, kind, w, h):
        """Fields for set_behavior on a behavior of `btype` (attachment `kind`)."""
        rng = self.rng
        if btype == "gravity":
            return rng.choice([{"direction": self.vector(2)}, {"magnitude": r3(rng.uniform(0, 3))},
                               {"angle": r3(rng.uniform(-3, 3))}])
        if btype == "collision":
            return rng.choice([{"mode": rng.choice(["everything", "items", "boundaries"])},
                               {"insets": [r3(rng.uniform(0, 30)) for _ in range(4)]},
                               {"boundaries": self.boundaries(w, h, rng.randint(0, 3))}])
        if btype == "attachment":
            if kind in ("distance", None):
                return rng.choice([{"length": r3(rng.uniform(0, 200))},
                                   {"frequency": r3(rng.uniform(0, 5)),
                                    "damping": r3(rng.uniform(0, 2))},
                                   {"anchor": self.point(w, h)}])
            if kind == "sliding":
                return {"range": [r3(-rng.uniform(0, 50)), r3(rng.uniform(0, 50))]}
            return {"friction_torque": r3(rng.uniform(0, 10))}
        if btype == "snap":
            return rng.choice([{"point": self.point(w, h)}, {"damping": r3(rng.uniform(0, 1))}])
        if btype == "spring":
            return rng.choice([{"target": self.point(w, h)}, self.spring_parameters()])
        if btype == "decay":
            return self.decay_parameter()
        if btype == "push":
            return rng.choice([{"direction": self.vector(5)}, {"active": True},
                               {"magnitude": r3(rng.uniform(0, 5))}])
        return rng.choice([{"elasticity": r3(rng.uniform(0, 1))},
                           {"density": r3(rng.uniform(0.1, 5))},
                           {"resistance": r3(rng.uniform(0, 3))}])

    def scene(self, n_items, n_behaviors, w=None, h=None):
        rng = self.rng
        w = w or rng.choice([200, 320, 320, 500, 1000])
        h = h or rng.choice([200, 568, 568, 800])
        items = [self.item(f"i{k}", w, h) for k in range(n_items)]
        ids = [i["id"] for i in items]
        behaviors = []
        types = {}
        if ids:
            for k in range(n_behaviors):
                btype = rng.choice(BEHAVIOR_TYPES)
                b = self.behavior(btype, ids, w, h, ident=f"b{k}")
                behaviors.append(b)
                types[f"b{k}"] = (btype, b.get("kind", "distance"))
        scene = {"bounds": [w, h] if rng.random() < 0.7 else [0, 0, w, h], "items": items,
                 "behaviors": behaviors}
        return scene, ids, types, (w, h)

    def perpetual_scene(self, n_items, w=320, h=568):
        """Elastic items in a box, no gravity, no friction: once pushed they never rest."""
        items = [self.item(f"i{k}", w, h, size=self.rng.choice([10, 20, 30]))
                 for k in range(n_items)]
        ids = [i["id"] for i in items]
        scene = {"bounds": [w, h], "items": items, "behaviors": [
            {"type": "collision", "id": "box", "items": ids, "reference_bounds": True},
            {"type": "dynamic_item", "id": "bouncy", "items": ids, "elasticity": 1,
             "friction": 0, "resistance": 0, "angular_resistance": 0}]}
        return scene, ids

    def transition_params(self, name):
        rng = self.rng
        params = {}
        for key, spec in TRANSITIONS[name].items():
            if rng.random() < 0.3:
                params[key] = rng.choice(spec) if isinstance(spec[0], str) else self.num(*spec)
        return params


# ---------------------------------------------------------------------------------------------
# Malformed lines: (bytes, the id the reply must echo or NOID, must it be an error)


def malformed(g, base_id):
    """A line dynd must refuse, the id its error reply must carry, and a label."""
    rng = g.rng
    i = base_id
    q = json.dumps(i)
    name = lambda n: "x" * n  # noqa: E731
    choices = [
        # not JSON: no id
        (b'{"op":"hello","id":' + q.encode(), NOID, "bad.truncated"),
        (b"{'op':'hello'}", NOID, "bad.quotes"),
        (b'{"op":"hello","id":' + q.encode() + b",}", NOID, "bad.trailing-comma"),
        (b'{"op":"hello","id":' + q.encode() + b"} {}", NOID, "bad.trailing-data"),
        (b'{"op":"he\x01llo","id":' + q.encode() + b"}", NOID, "bad.raw-control"),
        (b'{"op":"hello","id":"\xff\xfe"}', NOID, "bad.utf8"),
        (b'{"op":"hello\x00","id":' + q.encode() + b"}", NOID, "bad.nul"),
        (b'{"op":"tap","id":' + q.encode() + b',"session":"s","x":NaN,"y":1}', NOID, "bad.nan"),
        (b'{"op":"tap","id":' + q.encode() + b',"session":"s","x":-Infinity,"y":1}', NOID,
         "bad.infinity"),
        (b" " * rng.randint(0, 20), NOID, "bad.blank"),
        (b'{"op":"hello","id":' + q.encode() + b',"x":' + b"[" * 70 + b"]" * 70 + b"}", NOID,
         "bad.deep"),
        (bytes(rng.randrange(256) for _ in range(rng.randint(1, 200))).replace(b"\n", b"?")
         .replace(b"{", b"?"), NOID, "bad.bytes"),
        # not an object: no id
        (rng.choice([b"[1,2]", b'"hello"', b"42", b"null", b"true", b"[]"]), NOID,
         "bad.not-object"),
        # the id itself is wrong: no id
        (b'{"op":"hello","id":' + rng.choice([b"null", b"{}", b"[1]", b"true"]) + b"}", NOID,
         "bad.id-type"),
        # faults after the id: the id comes back
        (dumps({"id": i}), i, "bad.no-op"),
        (dumps({"op": 5, "id": i}), i, "bad.op-type"),
        (dumps({"op": rng.choice(["helo", "opne", "stpe", "", "HELLO"]), "id": i}), i,
         "bad.unknown-op"),
        (dumps({"op": "hello", "id": i, rng.choice(["extra", "sesion", "Op"]): 1}), i,
         "bad.unknown-field"),
        (dumps({"op": "open", "id": i, "scene": {"items": [
            {"id": "a", "center": [1, 1], "size": [5, 5], "elasticty": 1}]}}), i,
         "bad.misspelt"),
        (dumps({"op": "open", "id": i, "transition": "lock-screen", "fps": "60"}), i,
         "bad.wrong-type"),
        (dumps({"op": "get", "id": i, "session": rng.choice([5, None, [], {}, True])}), i,
         "bad.wrong-type"),
        (dumps({"op": "open", "id": i, "scene": {"items": {}}}), i, "bad.wrong-shape"),
        (b'{"op":"open","id":' + q.encode() + b',"transition":"lock-screen","fps":1e999}', i,
         "bad.overflow"),
        (b'{"op":"tap","id":' + q.encode() + b',"session":"s","x":-1e400,"y":1}', i,
         "bad.overflow"),
        (dumps({"op": "open", "id": i, "scene": {"items": [
            {"id": "a", "center": [rng.choice([1e300, -1e300, 1e7, 1000001]), 1],
             "size": [5, 5]}]}}), i, "bad.huge-number"),
        # A finite integer beyond 64 bits: the spec reads every number as a double (so this is
        # out_of_range, with the id); dynd's parser refuses it as invalid_number before the id is
        # read. Either is accepted here, and the run reports which it saw.
        (dumps({"op": "open", "id": i, "scene": {"items": [
            {"id": "a", "center": [123456789012345678901234567890, 1], "size": [5, 5]}]}}),
         Either(i), "bad.bigint"),
        (dumps({"op": "step", "id": i, "session": "s", "count": rng.choice([0, 1.5, 100001, -1])}),
         i, "bad.range"),
        (dumps({"op": "get", "id": i, "session": name(rng.choice([257, 1000, 100000]))}), i,
         "bad.long-name"),
        (dumps({"op": "get", "id": i, "session": "a" + chr(rng.randint(1, 31)) + "b"}), i,
         "bad.control-name"),
        (dumps({"op": "get", "id": i, "session": ""}), i, "bad.empty-name"),
        (dumps({"op": "open", "id": i, "transition": "lock-screen",
                "params": {"gravty": 5}}), i, "bad.param"),
        (dumps({"op": "open", "id": i, "transition": "page-curl"}), i, "bad.transition"),
        (b'{"op":"hello","id":"dup","id":' + q.encode() + b"}", i, "bad.duplicate-id"),
    ]
    raw, expect, label = rng.choice(choices)
    if label == "bad.duplicate-id":
        return raw, expect, label, False  # valid: the last id wins
    return raw, expect, label, True


# ---------------------------------------------------------------------------------------------
# Connections


class Pending:
    __slots__ = ("expect", "kind", "raw", "sent", "future", "must_fail")

    def __init__(self, expect, kind, raw, future, must_fail):
        self.expect, self.kind, self.raw, self.future = expect, kind, raw, future
        self.must_fail = must_fail
        self.sent = time.monotonic()


class Conn:
    def __init__(self, run, label, persona):
        self.run, self.label, self.persona = run, label, persona
        self.pending = collections.deque()
        self.reader = self.writer = None
        self.task = None
        self.ended = asyncio.Event()
        self.eof = False            # dynd closed (or we aborted)
        self.aborted = False        # we dropped the connection
        self.half_closed = False    # we sent EOF
        self.stalled = False        # we stopped reading on purpose
        self.may_be_closed = False  # dynd may legitimately close us (a stalled reader)
        self.closing_expected = False  # line_too_long: dynd closes after its reply
        self.last_rx = time.monotonic()
        self.replies = 0
        self.shutdown_seen = False

    async def open(self):
        self.reader, self.writer = await asyncio.open_unix_connection(
            self.run.socket_path, limit=64 << 20)
        self.run.stats["connections"] += 1
        self.task = asyncio.create_task(self._read_loop())
        self.run.conns.add(self)

    @property
    def alive(self):
        return not self.eof and not self.aborted

    # output ------------------------------------------------------------------------------------

    async def _read_loop(self):
        run = self.run
        try:
            while True:
                try:
                    line = await self.reader.readuntil(b"\n")
                except asyncio.IncompleteReadError as e:
                    if e.partial and not self.aborted:
                        run.fail("output ends inside a line", self, e.partial)
                    break
                except asyncio.LimitOverrunError:
                    run.fail("an output line longer than 64 MiB", self, b"")
                    break
                except (ConnectionError, OSError):
                    break
                self.last_rx = time.monotonic()
                run.stats["bytes_read"] += len(line)
                run.stats["lines_read"] += 1
                self._handle(line[:-1])
        finally:
            self.eof = True
            if (self.pending and not self.aborted and not self.may_be_closed
                    and not self.closing_expected and not run.stopping_daemon):
                p = self.pending[0]
                run.fail(f"dynd closed the connection with {len(self.pending)} requests "
                         f"unanswered (the first: {p.kind})", self, p.raw)
            while self.pending:
                p = self.pending.popleft()
                run.stats["unanswered"] += 1
                if not p.future.done():
                    p.future.set_result(None)
            self.ended.set()
            run.conns.discard(self)

    def _handle(self, raw):
        run = self.run
        try:
            msg = parse_strict(raw)
        except ValueError as e:
            run.fail(f"not strict JSON ({e})", self, raw)
            return
        if not isinstance(msg, dict):
            run.fail("a line that is not a JSON object", self, raw)
            return
        if "ev" in msg:
            ev = msg["ev"]
            if not isinstance(ev, str) or "ok" in msg or (
                    ev != "shutdown" and not isinstance(msg.get("session"), str)):
                run.fail("a malformed event", self, raw)
            run.events[ev if isinstance(ev, str) else "?"] += 1
            if ev == "frame" and msg.get("dropped"):
                run.stats["frames_with_dropped"] += 1
            if ev == "shutdown":
                self.shutdown_seen = True
            return
        ok = msg.get("ok")
        if not isinstance(ok, bool):
            run.fail("neither a reply nor an event", self, raw)
            return
        if not self.pending:
            run.fail("a reply to no request (more replies than requests)", self, raw)
            return
        p = self.pending.popleft()
        self.replies += 1
        code = "ok"
        if not ok:
            err = msg.get("error")
            if (not isinstance(err, dict) or not isinstance(err.get("code"), str)
                    or not isinstance(err.get("message"), str)):
                run.fail("an error reply without code and message", self, raw)
            else:
                code = err["code"]
        if not same_id(p.expect, msg):
            run.fail(f"reply {self.replies} carries id {show_id(msg.get('id', NOID))}, "
                     f"expected {show_id(p.expect)} (out of order, or a wrong echo)", self, raw,
                     request=p.raw)
        if ok and p.must_fail:
            run.fail(f"an invalid request ({p.kind}) was accepted", self, raw, request=p.raw)
        run.replies[(p.kind, code)] += 1
        if isinstance(p.expect, Either):
            run.notes[f"{p.kind}: {code}, " + ("id echoed" if "id" in msg else "no id")] += 1
        if code == "line_too_long":
            self.closing_expected = True
        if not p.future.done():
            p.future.set_result(msg)

    # input -------------------------------------------------------------------------------------

    def queue(self, raw, expect, kind, must_fail=False):
        """Records a request line (bytes, no newline) as sent; returns its reply's future."""
        fut = asyncio.get_running_loop().create_future()
        self.pending.append(Pending(expect, kind, raw, fut, must_fail))
        self.run.sent(self, kind, raw)
        return fut

    async def write(self, data):
        if not self.alive or self.half_closed:
            return False
        try:
            self.writer.write(data)
            await self.writer.drain()
            return True
        except (ConnectionError, OSError):
            return False

    async def send(self, obj, kind, expect=None, must_fail=False):
        """Sends a request object (or raw bytes) and returns its reply's future (None: no reply)."""
        raw = obj if isinstance(obj, (bytes, bytearray)) else dumps(obj)
        if expect is None:
            expect = obj.get("id", NOID) if isinstance(obj, dict) else NOID
        if not self.alive or self.half_closed:
            return None
        fut = self.queue(raw, expect, kind, must_fail)
        await self.write(raw + b"\n")
        return fut

    async def request(self, obj, kind, expect=None, must_fail=False):
        fut = await self.send(obj, kind, expect, must_fail)
        if fut is None:
            return None
        return await fut

    def stall(self):
        if self.alive and not self.stalled:
            self.stalled = True
            self.may_be_closed = True
            self.writer.transport.pause_reading()

    def unstall(self):
        if self.stalled:
            self.stalled = False
            self.last_rx = time.monotonic()
            if self.alive:
                self.writer.transport.resume_reading()

    async def close(self, timeout=30):
        """Ends our side and reads until dynd has answered everything and closed."""
        self.unstall()
        if self.alive and not self.half_closed:
            self.half_closed = True
            try:
                self.writer.write_eof()
            except (ConnectionError, OSError, RuntimeError):
                pass
        try:
            await asyncio.wait_for(self.ended.wait(), timeout)
        except asyncio.TimeoutError:
            if self.pending:
                self.run.fail(f"dynd did not finish {len(self.pending)} requests within "
                              f"{timeout}s of the client's EOF", self, self.pending[0].raw)
            self.abort()
        if not self.aborted:
            self.run.stats["closed_gracefully"] += 1

    def abort(self):
        if not self.aborted:
            self.aborted = True
            self.run.stats["aborted"] += 1
            if self.writer is not None:
                self.writer.transport.abort()
            for p in self.pending:
                if not p.future.done():
                    p.future.set_result(None)


# ---------------------------------------------------------------------------------------------
# Clients


class Life:
    """One client's life on one connection: its generator, its sessions, its request ids."""

    def __init__(self, run, slot, number):
        self.run, self.slot, self.number = run, slot, number
        self.rng = random.Random(f"{run.seed}/{slot}/{number}")
        self.g = Gen(self.rng, f"w{slot}.{number}")
        self.conn = None
        self.n = 0

    def session(self, k=0):
        return f"w{self.slot}.{self.number}.{k}"

    def other_session(self):
        rng = self.rng
        slot = rng.randrange(self.run.slots)
        return f"w{slot}.{rng.randrange(max(1, self.number + 2))}.{rng.randrange(3)}"

    def rid(self):
        """A unique request id: a string, a number, or (rarely) none."""
        self.n += 1
        roll = self.rng.random()
        if roll < 0.05:
            return NOID
        if roll < 0.3:
            return self.slot * 10**12 + self.number * 10**6 + self.n
        return f"{self.slot}.{self.number}.{self.n}"

    def req(self, op, **fields):
        obj = {"op": op}
        i = self.rid()
        if i is not NOID:
            obj["id"] = i
        obj.update(fields)
        return obj

    async def call(self, op, kind=None, **fields):
        return await self.conn.request(self.req(op, **fields), kind or op)

    async def think(self, lo=0.0, hi=0.05):
        await asyncio.sleep(self.rng.uniform(lo, hi))

    async def maybe_malformed(self, share=0.05):
        if self.rng.random() < share:
            raw, expect, label, must_fail = malformed(self.g, f"{self.slot}.{self.number}.m{self.n}")
            self.n += 1
            await self.conn.request(raw, label, expect=expect, must_fail=must_fail)

    def step_count(self, fps):
        rng = self.rng
        roll = rng.random()
        if roll < 0.4:
            count = 1
        elif roll < 0.8:
            count = rng.randint(2, 60)
        else:
            count = rng.randint(100, 2000)
        dt = 1.0 / fps if rng.random() < 0.5 else r3(rng.uniform(0.001, 0.05))
        if dt <= 0:
            dt = 0.001
        if count * dt > 600:
            dt = math.floor(600 / count * 1000) / 1000
        return count, dt


async def client_scene(life, heavy=None):
    """Opens a scene and scripts it with every scene op."""
    rng, g = life.rng, life.g
    name = life.session(0)
    manual = rng.random() < 0.7
    fps = rng.choice([30, 60, 60, 120, 240]) if rng.random() < 0.8 else r3(rng.uniform(1, 240))
    scene, items, types, (w, h) = g.scene(rng.randint(0, 12), rng.randint(0, 7))
    opening = {"session": name, "clock": "manual" if manual else "realtime", "scene": scene}
    if rng.random() < 0.5:
        opening["fps"] = fps
    if manual and rng.random() < 0.15:
        opening["keep"] = True
    await life.call("open", "open.scene", **opening)
    if rng.random() < 0.3:
        await life.call("debug", session=name)
    next_item = 0
    for _ in range(rng.randint(3, 30)):
        await life.think()
        await life.maybe_malformed()
        op = rng.choices(
            ["add_item", "remove_item", "add_behavior", "remove_behavior", "remove_all_behaviors",
             "set_behavior", "set_item", "add_velocity", "step", "get", "debug", "list", "watch",
             "behaviors"],
            [3, 1, 4, 1, 0.3, 3, 2, 2, 6 if manual else 1, 2, 1, 1, 0.5, 1])[0]
        if op == "add_item":
            ident = f"a{next_item}"
            next_item += 1
            items.append(ident)
            await life.call(op, session=name, item=g.item(ident, w, h))
        elif op == "remove_item" and items:
            await life.call(op, session=name, item=items.pop(rng.randrange(len(items))))
        elif op == "add_behavior" and items:
            btype = rng.choice(BEHAVIOR_TYPES)
            ident = g.uid("nb")
            b = g.behavior(btype, items, w, h, ident=ident)
            types[ident] = (btype, b.get("kind", "distance"))
            await life.call(op, f"add_behavior.{btype}", session=name, behavior=b)
        elif op == "remove_behavior" and types:
            ident = rng.choice(sorted(types))
            types.pop(ident)
            await life.call(op, session=name, behavior=ident)
        elif op == "remove_all_behaviors":
            types.clear()
            await life.call(op, session=name)
        elif op == "set_behavior" and types:
            ident = rng.choice(sorted(types))
            btype, kind = types[ident]
            await life.call(op, f"set_behavior.{btype}", session=name, behavior=ident,
                            **g.settable(btype, kind, w, h))
        elif op == "set_item" and items:
            fields = {}
            if rng.random() < 0.7:
                fields["center"] = g.point(w, h)
            if rng.random() < 0.5:
                fields["angle"] = r3(rng.uniform(-6, 6))
            await life.call(op, session=name, item=rng.choice(items), **fields)
        elif op == "add_velocity" and items:
            fields = {"velocity": g.vector(rng.choice([10, 500, 5000]))}
            if rng.random() < 0.5:
                fields["angular"] = r3(rng.uniform(-20, 20))
            await life.call(op, session=name, item=rng.choice(items), **fields)
        elif op == "step":
            count, dt = life.step_count(opening.get("fps", 60))
            fields = {"count": count} if rng.random() < 0.9 else {}
            if rng.random() < 0.7:
                fields["dt"] = dt
            await life.call(op, session=name, **fields)
        elif op in ("get", "behaviors"):
            await life.call(op, session=name)
        elif op == "debug":
            await life.call(op, session=name, enable=rng.random() < 0.5)
        elif op == "list":
            await life.call(op)
        elif op == "watch":
            await life.call(op, session=name)
        elif not manual:
            await asyncio.sleep(rng.uniform(0.05, 0.5))  # let the realtime session play
    if rng.random() < 0.5:
        await life.call("close", session=name)


async def client_transition(life, heavy=None):
    """Opens a transition and plays gestures, taps and swipes on it."""
    rng, g = life.rng, life.g
    name = life.session(0)
    transition = rng.choice(sorted(TRANSITIONS))
    manual = rng.random() < 0.6
    fields = {"session": name, "transition": transition,
              "clock": "manual" if manual else "realtime"}
    params = g.transition_params(transition)
    if params:
        fields["params"] = params
    if rng.random() < 0.3:
        fields["fps"] = rng.choice([20, 30, 60, 120, 240])
    fps = fields.get("fps", 60)
    await life.call("open", f"open.{transition}", **fields)
    t = r3(rng.uniform(0, 1000)) if rng.random() < 0.6 else None
    for _ in range(rng.randint(1, 6)):
        roll = rng.random()
        if roll < 0.6:  # a pan
            x, y = g.point(320, 568)
            phase_fields = lambda px, py: ({"x": px, "y": py} | ({"t": t} if t is not None else {}))  # noqa: E731,E501
            await life.call("gesture", session=name, phase="began", **phase_fields(x, y))
            vx, vy = g.vector(rng.choice([200, 2000, 30000]))
            for _ in range(rng.randint(0, 12)):
                if t is not None:
                    t = r3(t + rng.choice([1 / 60, 1 / 120, 0.03, 0.05]))
                x, y = r3(x + vx / 60), r3(y + vy / 60)
                fields = phase_fields(x, y)
                if rng.random() < 0.2:
                    fields["estimator"] = rng.choice(["platform", "linear"])
                await life.call("gesture", session=name, phase="changed", **fields)
                if manual and rng.random() < 0.5:
                    await life.call("step", session=name)
                elif not manual:
                    await asyncio.sleep(1 / 60)
            end = phase_fields(x, y)
            phase = "ended" if rng.random() < 0.85 else "cancelled"
            if phase == "ended":
                if rng.random() < 0.5:
                    end["vx"], end["vy"] = g.vector(rng.choice([500, 5000, 50000, 1000000]))
                elif rng.random() < 0.3:
                    end["estimator"] = rng.choice(["platform", "linear"])
            await life.call("gesture", session=name, phase=phase, **end)
        elif roll < 0.75:
            x, y = g.point(320, 568) if rng.random() < 0.7 else [rng.uniform(240, 320), 560]
            await life.call("tap", session=name, x=r3(x), y=r3(y))
        else:
            fields = {"direction": rng.choice(["left", "right", "up", "down"])}
            if rng.random() < 0.5:
                fields["x"], fields["y"] = g.point(320, 568)
            if rng.random() < 0.5:
                fields["vx"], fields["vy"] = g.vector(3000)
            await life.call("swipe", session=name, **fields)
        if manual:
            count, dt = life.step_count(fps)
            await life.call("step", session=name, count=count, dt=dt)
        else:
            await asyncio.sleep(rng.uniform(0.05, 1.0))
        if rng.random() < 0.3:
            await life.call("get", session=name)
        if rng.random() < 0.1:
            await life.call("debug", session=name, enable=rng.random() < 0.7)
        await life.maybe_malformed()
    if rng.random() < 0.5:
        await life.call("close", session=name)


async def client_malformed(life, heavy=None):
    """Bad lines, alone and pipelined in batches, between good ones; sometimes an over-long
    line, after which dynd closes the connection."""
    rng, g = life.rng, life.g
    for _ in range(rng.randint(1, 8)):
        batch = []
        for _ in range(rng.randint(1, 8)):
            if rng.random() < 0.25:
                obj = life.req(rng.choice(["hello", "list"]))
                batch.append((dumps(obj), obj.get("id", NOID), obj["op"], False))
            else:
                raw, expect, label, must_fail = malformed(g, f"{life.slot}.{life.number}.m{life.n}")
                life.n += 1
                if rng.random() < 0.1:
                    raw += b"\r"  # CRLF: the \r is whitespace to JSON
                batch.append((raw, expect, label, must_fail))
        futs = [life.conn.queue(raw, expect, label, must_fail)
                for raw, expect, label, must_fail in batch]
        await life.conn.write(b"".join(raw + b"\n" for raw, *_ in batch))
        await asyncio.gather(*futs)
        await life.think(0, 0.1)
    if rng.random() < 0.1:
        # One byte over the limit: line_too_long, no id, then dynd closes the connection.
        head = b'{"op":"hello","id":"' + b"x" * (MAX_LINE - 19) + b'"}'
        fut = life.conn.queue(head, NOID, "bad.too-long", True)
        await life.conn.write(head + b"\n")
        await fut
        await asyncio.wait_for(life.conn.ended.wait(), 30)


async def client_watcher(life, heavy=None):
    """Watches other clients' sessions (debug stream too) and reads what comes."""
    rng = life.rng
    for _ in range(rng.randint(1, 6)):
        op = rng.choice(["watch", "watch", "debug", "get", "list"])
        if op == "list":
            await life.call("list")
        else:
            await life.call(op, session=life.other_session())
        await asyncio.sleep(rng.uniform(0.05, 1.0))


async def client_stalled(life, heavy=None):
    """A watcher that stops reading: for a few seconds, or for the rest of its life."""
    rng, g = life.rng, life.g
    name = life.session(0)
    scene, items = g.perpetual_scene(rng.randint(5, 150))
    await life.call("open", "open.scene", session=name, clock="realtime",
                    fps=rng.choice([60, 120, 240]), scene=scene)
    for item in items[:10]:
        await life.call("add_velocity", session=name, item=item, velocity=g.vector(1500))
    for _ in range(rng.randint(0, 3)):
        await life.call("watch", session=life.other_session())
    forever = rng.random() < 0.3
    life.conn.stall()
    # Requests sent while stalled are answered once it reads again.
    futs = []
    for _ in range(rng.randint(0, 3)):
        futs.append(await life.conn.send(life.req(rng.choice(["hello", "list"])), "stalled"))
    await asyncio.sleep(rng.uniform(1, 8))
    if forever:
        life.conn.abort()
        return
    life.conn.unstall()
    for f in futs:
        if f is not None:
            await f
    await life.call("get", session=name)


async def client_partial(life, heavy=None):
    """Writes lines in pieces with pauses; may vanish mid-line or end on an unterminated line."""
    rng = life.rng
    for _ in range(rng.randint(1, 4)):
        obj = life.req(rng.choice(["hello", "list", "get"]))
        if obj["op"] == "get":
            obj["session"] = life.other_session()
        raw = dumps(obj) + b"\n"
        cuts = sorted(rng.sample(range(1, len(raw)), min(len(raw) - 1, rng.randint(1, 4))))
        fut = life.conn.queue(raw[:-1], obj.get("id", NOID), "partial")
        last = 0
        vanish = rng.random() < 0.1
        for k, cut in enumerate(cuts):
            await life.conn.write(raw[last:cut])
            last = cut
            await asyncio.sleep(rng.choice([0.001, 0.05, 0.3, rng.uniform(0.5, 2)]))
            if vanish and k == len(cuts) - 1:
                life.conn.abort()
                return
        await life.conn.write(raw[last:])
        await fut
    if rng.random() < 0.3:
        # An unterminated last line is still answered at EOF.
        obj = life.req("hello")
        fut = life.conn.queue(dumps(obj), obj.get("id", NOID), "unterminated")
        await life.conn.write(dumps(obj))
        await life.conn.close()
        await fut


async def client_disconnector(life, heavy=None):
    """Starts a long manual step on a scene that never rests and disconnects in the middle."""
    rng, g = life.rng, life.g
    name = life.session(0)
    scene, items = g.perpetual_scene(rng.randint(1, 60))
    await life.call("open", "open.scene", session=name, clock="manual", scene=scene,
                    keep=rng.random() < 0.2)
    for item in items[:5]:
        await life.call("add_velocity", session=name, item=item, velocity=g.vector(2000))
    if rng.random() < 0.3:
        await life.call("watch", session=life.other_session())
    await life.conn.send(life.req("step", session=name, count=rng.choice([200, 1000, 2000]),
                                  dt=0.01), "step.abandoned")
    await asyncio.sleep(rng.choice([0, 0.01, 0.1, rng.uniform(0.2, 2)]))
    if rng.random() < 0.5:
        life.conn.stall()  # stop reading first: dynd's side backs up
        await asyncio.sleep(rng.uniform(0, 1))
    life.conn.abort()


async def client_closer(life, heavy=None):
    """Closes, gets and watches other clients' sessions; opens and closes its own quickly."""
    rng = life.rng
    for _ in range(rng.randint(1, 10)):
        op = rng.choice(["close", "close", "get", "watch", "list", "hello", "own"])
        if op in ("list", "hello"):
            await life.call(op)
        elif op == "own":
            name = life.session(rng.randrange(3))
            await life.call("open", "open.lock-screen", session=name, transition="lock-screen",
                            clock=rng.choice(["manual", "realtime"]))
            await life.call("close", session=name)
            if rng.random() < 0.3:
                await life.call("close", session=name)  # twice: unknown_session
        else:
            await life.call(op, session=life.other_session())
        await life.think(0, 0.2)


async def client_heavy(life, kind):
    """The heavy-but-valid reproducers (--heavy, --heavy-kinds)."""
    if kind in COSTLY_KINDS:
        return await client_costly(life, kind)
    rng, g = life.rng, life.g
    name = life.session(0)
    if kind == "overlap":
        n = 1000 if rng.random() < 0.5 else rng.randint(200, 999)
        side = rng.choice([10, 20, 40])
        cx, cy = 160, 284
        items = [{"id": f"o{k}", "center": [r3(cx + rng.uniform(-2, 2)), r3(cy + rng.uniform(-2, 2))],
                  "size": [side, side]} for k in range(n)]
        ids = [i["id"] for i in items]
        behaviors = [{"type": "collision", "id": "pile", "items": ids,
                      "mode": rng.choice(["items", "everything"]), "reference_bounds": True}]
        if rng.random() < 0.5:
            behaviors.append({"type": "gravity", "id": "g", "items": ids})
        manual = rng.random() < 0.5
        await life.call("open", "heavy.overlap", session=name,
                        clock="manual" if manual else "realtime",
                        scene={"bounds": [320, 568], "items": items, "behaviors": behaviors})
        if manual:
            for _ in range(rng.randint(1, 3)):
                await life.call("step", "heavy.overlap.step", session=name,
                                count=rng.choice([1, 5, 30]))
        else:
            await asyncio.sleep(rng.uniform(1, 4))
            await life.call("get", "heavy.overlap.get", session=name)
    elif kind == "polyline":
        w, h = 320, 568
        variant = rng.choice(["dense", "far", "zigzag", "many"])
        bounds = []
        budget = int(MAX_LINE * 0.8)
        size = 0
        k = 0
        while size < budget:
            if variant == "dense":
                path = g.polyline(1024, w, h, step=(1.01, 3))
            elif variant == "far":
                path = []
                for x, y in g.polyline(1024, 2e6, 2e6, step=(1000, 200000)):
                    p = [max(-1e6, min(1e6, x - 1e6)), max(-1e6, min(1e6, y - 1e6))]
                    if not path or math.hypot(p[0] - path[-1][0], p[1] - path[-1][1]) >= 1.01:
                        path.append(p)
            elif variant == "zigzag":
                x0, y0 = rng.uniform(0, w), rng.uniform(0, h)
                path = [[r3(x0 + (i % 2) * 1.01), r3(y0 + i * 0.001)] for i in range(1024)]
            else:
                path = g.polyline(rng.randint(2, 40), w, h)
            if len(path) < 2:
                continue
            b = {"id": f"p{k}", "path": path}
            k += 1
            size += len(dumps(b))
            if size >= budget or len(bounds) >= 256:
                break
            bounds.append(b)
        n = rng.randint(1, 50)
        items = [g.item(f"i{j}", w, h) for j in range(n)]
        ids = [i["id"] for i in items]
        behaviors = [{"type": "collision", "id": "walls", "items": ids, "mode": "everything",
                      "boundaries": bounds},
                     {"type": "gravity", "id": "g", "items": ids}]
        manual = rng.random() < 0.6
        await life.call("open", f"heavy.polyline.{variant}", session=name,
                        clock="manual" if manual else "realtime",
                        scene={"bounds": [w, h], "items": items, "behaviors": behaviors})
        if rng.random() < 0.3:
            await life.call("debug", session=name)
        if manual:
            await life.call("step", "heavy.polyline.step", session=name,
                            count=rng.choice([1, 60, 600]))
        else:
            await asyncio.sleep(rng.uniform(0.5, 3))
        if rng.random() < 0.5:
            await life.call("set_behavior", "heavy.polyline.set", session=name, behavior="walls",
                            boundaries=bounds[: max(1, len(bounds) // 2)])
    elif kind == "longstep":
        scene, items = g.perpetual_scene(rng.randint(1, 4))
        await life.call("open", "open.scene", session=name, clock="manual", scene=scene)
        for item in items:
            await life.call("add_velocity", session=name, item=item, velocity=g.vector(3000))
        count = rng.choice([10000, 36000, 60000, 100000])
        step = life.req("step", session=name, count=count,
                        dt=math.floor(min(1 / 60, 600 / count) * 1000) / 1000)
        if rng.random() < 0.7:
            await life.conn.request(step, "heavy.longstep")
        else:  # and leave in the middle
            await life.conn.send(step, "heavy.longstep.abandoned")
            await asyncio.sleep(rng.uniform(0, 3))
            life.conn.abort()
    else:  # bigrealtime
        n = rng.randint(300, 1000)
        cols = 40
        items = [{"id": f"g{k}", "center": [r3(10 + (k % cols) * 25), r3(10 + (k // cols) * 22)],
                  "size": [8, 8]} for k in range(n)]
        ids = [i["id"] for i in items]
        scene = {"bounds": [1010, 600], "items": items, "behaviors": [
            {"type": "gravity", "id": "g", "items": ids},
            {"type": "collision", "id": "c", "items": ids, "reference_bounds": True},
            {"type": "dynamic_item", "id": "d", "items": ids, "elasticity": 0.9}]}
        await life.call("open", "heavy.bigrealtime", session=name, clock="realtime", fps=240,
                        scene=scene)
        if rng.random() < 0.5:
            await life.call("debug", session=name)
        await asyncio.sleep(rng.uniform(1, 4))


def grid_items(n, side, cols=40, pitch=None, ident=lambda k: f"i{k}"):
    pitch = pitch or side * 2
    return [{"id": ident(k), "center": [10 + (k % cols) * pitch, 10 + (k // cols) * pitch],
             "size": [side, side]} for k in range(n)]


async def pipelined(life, lines, must_fail):
    """Writes request objects in one write and waits for every reply (in order, checked by Conn)."""
    futs = []
    raws = []
    for obj, kind in lines:
        raw = dumps(obj)
        raws.append(raw)
        futs.append(life.conn.queue(raw, obj.get("id", NOID), kind, must_fail))
    await life.conn.write(b"".join(raw + b"\n" for raw in raws))
    return await asyncio.gather(*futs)


async def many_behaviors(life, name, behaviors, ids):
    """A manual scene of `ids` (grid items) and `behaviors` gravity behaviors naming all of them,
    the behaviors added by pipelined add_behavior lines (a line each stays under 1 MiB)."""
    await life.call("open", "setup.open", session=name, clock="manual",
                    scene={"items": grid_items(len(ids), 5, ident=lambda k: ids[k])})
    await pipelined(life, [(life.req("add_behavior", session=name, behavior={
        "type": "gravity", "id": f"b{k}", "items": ids}), "setup.add_behavior")
        for k in range(behaviors)], False)


async def client_costly(life, kind):
    """Valid requests whose cost is far beyond their size (issue 25; --heavy-kinds)."""
    rng = life.rng
    name = life.session(0)
    # Sized so that a fair daemon finishes each within chaos's 30 s reply timeout on a debug
    # build (a frame's events come only when the frame is done).
    if kind == "bigdt":
        n = rng.randint(200, 600)
        items = grid_items(n, 6, pitch=9)
        ids = [i["id"] for i in items]
        scene = {"bounds": [400, 568], "items": items, "behaviors": [
            {"type": "gravity", "id": "g", "items": ids},
            {"type": "collision", "id": "c", "items": ids, "reference_bounds": True},
            {"type": "dynamic_item", "id": "d", "items": ids, "elasticity": 0.9}]}
        if rng.random() < 0.3:  # a realtime frame at fps 1 covers up to 4 s
            await life.call("open", "heavy.bigdt.fps1", session=name, clock="realtime", fps=1,
                            scene=scene)
            await asyncio.sleep(rng.uniform(1, 5))
            return
        await life.call("open", "setup.open", session=name, clock="manual", scene=scene)
        dt = rng.choice([2, 5, 10])
        step = life.req("step", session=name, dt=dt, count=rng.choice([1, 1, 2, 6]))
        if rng.random() < 0.6:
            await life.conn.request(step, "heavy.bigdt")
        else:  # and leave in the middle: the work must stop with its owner
            await life.conn.send(step, "heavy.bigdt.abandoned")
            await asyncio.sleep(rng.uniform(0, 2))
            life.conn.abort()
    elif kind == "rules":
        n = rng.randint(200, 500)
        items = grid_items(n, 4)
        ids = [i["id"] for i in items]
        modes = ["everything", "items"]
        rule = {"when": {"always": True}, "repeat": True,
                "then": [{"set": {"behavior": "c", "mode": modes[e % 2]}} for e in range(8)]}
        behaviors = [{"type": "gravity", "id": "g", "items": ids},
                     {"type": "collision", "id": "c", "items": ids, "reference_bounds": True}]
        behaviors += [{"type": "dynamic_item", "id": f"d{k}", "items": ids, "action": [rule] * 8}
                      for k in range(rng.choice([4, 8, 16]))]
        await life.call("open", "setup.open", session=name, clock="manual",
                        scene={"items": items, "behaviors": behaviors})
        step = life.req("step", session=name, dt=rng.choice([0.25, 0.5, 1]))
        if rng.random() < 0.5:
            await life.conn.request(step, "heavy.rules")
        else:
            await life.conn.send(step, "heavy.rules.abandoned")
            await asyncio.sleep(rng.uniform(0, 2))
            life.conn.abort()
    elif kind == "failures":
        variant = rng.choice(["add_group", "behaviors", "paths"])
        if variant == "paths":  # shapes beyond the 4 096 a session may hold: refused
            r = 20
            path = [[r3(r * math.cos(k * math.tau / 64)), r3(r * math.sin(k * math.tau / 64))]
                    for k in range(64)]
            items = [{"id": f"p{k}", "center": [25 + (k % 30) * 42, 25 + (k // 30) * 42],
                      "size": [2 * r, 2 * r], "shape": "path", "path": path} for k in range(700)]
            scene = {"bounds": [1300, 1000], "items": items,
                     "behaviors": [{"type": "collision", "items": [i["id"] for i in items]}]}
            for _ in range(rng.randint(1, 4)):
                opening = life.req("open", session=name, clock="manual", scene=scene)
                await life.conn.request(opening, "heavy.failures.paths", must_fail=True)
            return
        ids = [f"i{k}" for k in range(1000)]
        await many_behaviors(life, name, rng.choice([200, 500]), ids)
        if variant == "add_group":  # every item is held by a behavior: each one refused
            await pipelined(life, [(life.req("add_group", session=name, group={
                "id": f"g{k}", "items": [rng.choice(ids)]}), "heavy.failures.add_group")
                for k in range(rng.randint(50, 150))], True)
        else:  # a reply of up to 1.4-3.5 MB, beyond the 1 MiB a behaviors reply may be
            await pipelined(life, [(life.req("behaviors", session=name), "heavy.failures.behaviors")
                                   for _ in range(rng.randint(50, 300))], True)
    else:  # bigdebug: a reply of up to 25-60 MB (under chaos's 64 MiB line) or a refusal
        length = rng.choice([100, 250])
        ids = [f"i{k:0{length - 1}d}" for k in range(1000)]
        await many_behaviors(life, name, rng.choice([100, 200]), ids)
        await life.call("debug", "heavy.bigdebug", session=name)


CLIENTS = [(client_scene, 4), (client_transition, 3), (client_malformed, 2),
           (client_watcher, 1), (client_stalled, 1), (client_partial, 1),
           (client_disconnector, 1), (client_closer, 1)]


# ---------------------------------------------------------------------------------------------
# The probe: a healthy client in its own process, so that the chaos client's own load does not
# count in the round trips it measures.


def probe_main(path, interval, stop, results, frozen):
    rtts = []  # (monotonic time sent, seconds)
    problem = None
    try:
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.connect(path)
        s.settimeout(30)
        buf = b""
        n = 0
        next_at = time.monotonic()
        while not stop.is_set():
            n += 1
            op = "hello" if n % 2 else "list"
            t0 = time.monotonic()
            s.sendall(b'{"op":"%s","id":%d}\n' % (op.encode(), n))
            while b"\n" not in buf:
                try:
                    chunk = s.recv(1 << 20)
                except socket.timeout:
                    problem = f"no reply to the probe's {op} within 30 s (dynd is frozen)"
                    rtts.append((t0, time.monotonic() - t0))
                    frozen.set()
                    break
                if not chunk:
                    problem = f"dynd closed the probe's connection (waiting for {op})"
                    break
                buf += chunk
            if problem:
                break
            rtt = time.monotonic() - t0
            line, buf = buf.split(b"\n", 1)
            try:
                msg = parse_strict(line)
                if msg.get("id") != n or msg.get("ok") is not True:
                    problem = f"the probe got a wrong reply: {excerpt(line)}"
            except ValueError as e:
                problem = f"the probe got a line that is not strict JSON ({e}): {excerpt(line)}"
            if problem:
                break
            rtts.append((t0, rtt))
            next_at += interval
            delay = next_at - time.monotonic()
            if delay > 0:
                time.sleep(delay)
            else:
                next_at = time.monotonic()
        s.close()
    except OSError as e:
        problem = f"the probe's connection failed: {e}"
    results.put({"rtts": rtts, "problem": problem})


# ---------------------------------------------------------------------------------------------
# The run


class Run:
    def __init__(self, args, socket_path, proc):
        self.args = args
        self.seed = args.seed
        self.socket_path = socket_path
        self.proc = proc
        master = random.Random(f"{self.seed}/slots")
        self.slots = args.connections or master.randint(12, 24)
        self.conns = set()
        self.failures = []
        self.failure_count = 0
        self.stats = collections.Counter()
        self.replies = collections.Counter()
        self.events = collections.Counter()
        self.kinds = collections.Counter()
        self.notes = collections.Counter()
        self.history = collections.deque(maxlen=50000)  # (time, conn, kind, size, excerpt, cost)
        self.recent = collections.deque(maxlen=12)       # (time, conn, kind, full line)
        self.deadline = 0
        self.stopping_daemon = False
        self.stuck = False
        self.frozen_seen = False
        self.daemon_died = None
        self.heavy_kinds = args.heavy_kinds

    def sent(self, conn, kind, raw):
        now = time.monotonic()
        self.stats["requests"] += 1
        self.kinds[kind] += 1
        cost = 0
        if kind.startswith("bad."):
            pass
        elif kind.startswith("heavy."):
            cost = 1e9
        elif b'"op":"step"' in raw:
            m = re.search(rb'"count":(\d+)', raw)
            cost = int(m.group(1)) if m else 1
        self.history.append((now, conn.label, kind, len(raw), excerpt(raw, 100), cost))
        self.recent.append((now, conn.label, kind, bytes(raw)))

    def fail(self, what, conn, line, request=None):
        self.failure_count += 1
        where = f"{conn.label} ({conn.persona})" if conn is not None else "-"
        entry = {"what": what, "conn": where, "line": excerpt(line) if line is not None else None,
                 "request": excerpt(request) if request is not None else None,
                 "t": time.monotonic()}
        if len(self.failures) < 50:
            self.failures.append(entry)
        if self.failure_count <= 10:
            msg = f"FAIL [seed {self.seed}] {where}: {what}"
            if line is not None:
                msg += f"\n    line: {entry['line']}"
            if request is not None:
                msg += f"\n    request: {entry['request']}"
            print(msg, file=sys.stderr, flush=True)

    async def slot(self, slot):
        number = 0
        while time.monotonic() < self.deadline and self.daemon_died is None:
            life = Life(self, slot, number)
            number += 1
            rng = life.rng
            if self.heavy_kinds and rng.random() < self.args.heavy:
                kind = rng.choice(self.heavy_kinds)
                persona, body = f"heavy-{kind}", (lambda lf, k=kind: client_heavy(lf, k))
            else:
                fn = rng.choices([c for c, _ in CLIENTS], [w for _, w in CLIENTS])[0]
                persona, body = fn.__name__[len("client_"):], fn
            conn = Conn(self, f"w{slot}.{number - 1}", persona)
            life.conn = conn
            self.stats[f"life.{persona}"] += 1
            try:
                await conn.open()
            except OSError as e:
                if self.daemon_died is None and time.monotonic() < self.deadline:
                    self.fail(f"could not connect: {e}", conn, None)
                await asyncio.sleep(0.5)
                continue
            try:
                await body(life)
            except (ConnectionError, OSError, asyncio.TimeoutError):
                pass
            except Exception as e:  # noqa: BLE001 - a bug in this script, not in dynd
                import traceback
                traceback.print_exc()
                self.fail(f"the chaos client itself failed: {e!r}", conn, None)
            if conn.alive:
                if rng.random() < 0.2 and not conn.pending:
                    conn.abort()
                else:
                    await conn.close()
            await asyncio.sleep(rng.uniform(0, 0.2))

    async def watchdog(self):
        timeout = self.args.reply_timeout
        while True:
            await asyncio.sleep(0.5)
            now = time.monotonic()
            for conn in list(self.conns):
                if conn.pending and conn.alive and not conn.stalled:
                    quiet = now - max(conn.last_rx, conn.pending[0].sent)
                    if quiet > timeout:
                        p = conn.pending[0]
                        self.fail(f"no reply to {p.kind} and no output for {quiet:.0f} s "
                                  f"({len(conn.pending)} requests pending)", conn, p.raw)
                        conn.abort()
            if self.probe_frozen.is_set() and not self.frozen_seen:
                # Conclusive: end the run now rather than wait on a daemon that is stuck.
                self.frozen_seen = True
                self.fail("dynd is frozen: the probe got no reply to hello/list for 30 s; "
                          "ending the run", None, None)
                self.deadline = time.monotonic()
                for conn in list(self.conns):
                    conn.abort()
            if self.daemon_died is None and self.proc.poll() is not None:
                self.daemon_died = self.proc.returncode
                self.fail(f"dynd died: {describe_status(self.proc.returncode)}", None, None)
                for conn in list(self.conns):
                    conn.abort()

    async def monitor(self):
        start = time.monotonic()
        peak = 0
        next_report = start + self.args.progress
        while True:
            await asyncio.sleep(1)
            rss = read_rss(self.proc.pid)
            peak = max(peak, rss.get("VmRSS", 0))
            self.stats["rss_peak_kb"] = peak
            if self.args.progress and time.monotonic() >= next_report:
                next_report += self.args.progress
                print(f"  t={time.monotonic() - start:4.0f}s  connections {len(self.conns):3d}  "
                      f"requests {self.stats['requests']}  lines read {self.stats['lines_read']}  "
                      f"RSS {rss.get('VmRSS', 0) // 1024} MiB  failures {self.failure_count}",
                      flush=True)

    async def main(self):
        self.deadline = time.monotonic() + self.args.seconds
        dog = asyncio.create_task(self.watchdog())
        mon = asyncio.create_task(self.monitor())
        slots = [asyncio.create_task(self.slot(k)) for k in range(self.slots)]
        # A life still running at the deadline gets a grace period, then its connection is dropped.
        _, late = await asyncio.wait(slots, timeout=self.args.seconds + self.args.grace)
        for conn in list(self.conns):
            conn.abort()
        for task in late:
            task.cancel()
        await asyncio.gather(*late, return_exceptions=True)
        self.stats["lives_cut_at_the_deadline"] = len(late)
        # The probe stops before dynd does.
        self.probe_stop.set()
        loop = asyncio.get_running_loop()
        try:
            self.probe_result = await loop.run_in_executor(None, self.probe_results.get, True, 60)
        except Exception:  # noqa: BLE001 - queue.Empty
            self.probe_result = {"rtts": [], "problem": "the probe process did not report"}
        alive = None
        if self.daemon_died is None:
            alive = await self.final_check()
        dog.cancel()
        mon.cancel()
        return alive

    async def final_check(self):
        """dynd answers a fresh client; then SIGTERM: shutdown event, exit 0, socket removed."""
        conn = Conn(self, "final", "final")
        try:
            await asyncio.wait_for(conn.open(), 10)
            reply = await asyncio.wait_for(conn.request({"op": "hello", "id": "final"}, "hello"),
                                           10 if self.frozen_seen else 30)
        except (OSError, asyncio.TimeoutError) as e:
            self.fail(f"dynd does not answer at the end of the run ({e!r})", conn, None)
            conn.abort()
            self.stuck = True
            return False
        if not reply or reply.get("ok") is not True:
            self.fail("dynd's final hello failed", conn, dumps(reply) if reply else None)
            return False
        self.stats["rss_end_kb"] = read_rss(self.proc.pid).get("VmRSS", 0)
        self.stopping_daemon = True
        self.proc.send_signal(signal.SIGTERM)
        try:
            await asyncio.wait_for(conn.ended.wait(), 10)
        except asyncio.TimeoutError:
            pass
        if not conn.shutdown_seen:
            self.fail("no shutdown event after SIGTERM", conn, None)
        return True


def read_rss(pid):
    out = {}
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith(("VmRSS:", "VmHWM:")):
                    key, value = line.split(":", 1)
                    out[key] = int(value.split()[0])
    except OSError:
        pass
    return out


def cpu_seconds(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return None


def diagnose_stuck(pid):
    """Says whether an unresponsive dynd is busy or blocked and, with gdb, where it is."""
    a = cpu_seconds(pid)
    time.sleep(2)
    b = cpu_seconds(pid)
    if a is not None and b is not None:
        print(f"  dynd does not answer and uses {(b - a) / 2 * 100:.0f}% of a core "
              f"({'busy: a loop that does not return to the event loop' if b - a > 1 else 'blocked'})")
    if shutil.which("gdb"):
        try:
            out = subprocess.run(["gdb", "-p", str(pid), "-batch", "-ex", "bt 40"],
                                 capture_output=True, text=True, timeout=60).stdout
        except subprocess.TimeoutExpired:
            return
        frames = [ln for ln in out.splitlines() if ln.startswith("#") and " at /" in ln]
        if frames:
            print("  where it is (gdb, frames with source):")
            for ln in frames[:10]:
                fn = ln.split(" in ", 1)[-1]
                name, _, where = fn.partition(" at ")
                print(f"    {name.split(' (')[0][:90]}  at {where}")


def describe_status(code):
    if code is None:
        return "still running"
    if code < 0:
        try:
            return f"killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    return f"exit status {code}"


def percentile(sorted_values, p):
    if not sorted_values:
        return 0.0
    k = min(len(sorted_values) - 1, max(0, math.ceil(p / 100 * len(sorted_values)) - 1))
    return sorted_values[k]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("bin_dir", help="directory holding the dynd binary")
    ap.add_argument("--seconds", type=float, default=60, help="length of the run (default 60)")
    ap.add_argument("--seed", type=int, help="the schedule's seed (default: random, printed)")
    ap.add_argument("--max-rtt-ms", type=float, default=250,
                    help="fail when the probe's worst round trip exceeds this (default 250)")
    ap.add_argument("--heavy", type=float, default=0.08,
                    help="share of client lives that are heavy reproducers (default 0.08)")
    ap.add_argument("--heavy-kinds", default=",".join(HEAVY_KINDS),
                    help=f"which heavy reproducers to play (default {','.join(HEAVY_KINDS)}; "
                         f"also {','.join(COSTLY_KINDS)}; `all` for every one; "
                         "empty for none)")
    ap.add_argument("--connections", type=int, help="concurrent client slots (default 12-24 "
                                                      "from the seed)")
    ap.add_argument("--reply-timeout", type=float, default=30,
                    help="seconds a reading client may wait for an owed reply with no output")
    ap.add_argument("--grace", type=float, default=30,
                    help="seconds a client still busy at the end may finish before it is dropped")
    ap.add_argument("--probe-interval-ms", type=float, default=20)
    ap.add_argument("--progress", type=float, default=30,
                    help="print progress every N seconds (0: never)")
    ap.add_argument("--keep", action="store_true", help="keep the temporary directory")
    args = ap.parse_args()
    args.heavy_kinds = [k for k in args.heavy_kinds.split(",") if k]
    if args.heavy_kinds == ["all"]:
        args.heavy_kinds = HEAVY_KINDS + COSTLY_KINDS
    for k in args.heavy_kinds:
        if k not in HEAVY_KINDS + COSTLY_KINDS:
            ap.error(f"unknown heavy kind {k!r} (known: {', '.join(HEAVY_KINDS + COSTLY_KINDS)})")
    if args.seed is None:
        args.seed = random.SystemRandom().randrange(1, 1 << 31)
    dynd = os.path.join(args.bin_dir, "dynd")
    if not os.access(dynd, os.X_OK):
        print(f"chaos: no dynd binary at {dynd}", file=sys.stderr)
        return 2

    tmp = tempfile.mkdtemp(prefix="dynd-chaos-")
    path = os.path.join(tmp, "dynd.sock")
    log_path = os.path.join(tmp, "dynd.log")
    log = open(log_path, "wb")
    proc = subprocess.Popen([dynd, "--socket", path, "--log-level", "warning"],
                            stdout=log, stderr=subprocess.STDOUT)
    started = time.monotonic()
    while True:
        try:
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            s.connect(path)
            s.close()
            break
        except OSError:
            if proc.poll() is not None or time.monotonic() - started > 15:
                print(f"chaos: dynd did not start ({describe_status(proc.poll())}); log:\n"
                      + open(log_path, errors="replace").read(), file=sys.stderr)
                proc.kill()
                return 2
            time.sleep(0.05)

    run = Run(args, path, proc)
    print(f"chaos: seed {args.seed}, {args.seconds:g} s, {run.slots} client slots, heavy share "
          f"{args.heavy:g} ({','.join(args.heavy_kinds) or 'none'}), dynd pid {proc.pid}, "
          f"socket {path}", flush=True)
    ctx = multiprocessing.get_context("spawn")
    stop = ctx.Event()
    results = ctx.Queue()
    frozen = ctx.Event()
    probe = ctx.Process(target=probe_main,
                        args=(path, args.probe_interval_ms / 1000, stop, results, frozen),
                        daemon=True)
    probe.start()
    t0 = time.monotonic()
    run.probe_stop, run.probe_results, run.probe_frozen = stop, results, frozen
    asyncio.run(run.main())
    probe_result = run.probe_result
    probe.join(5)
    elapsed = time.monotonic() - t0

    if run.stuck:
        diagnose_stuck(proc.pid)

    # The daemon's end.
    if run.daemon_died is None:
        if not run.stopping_daemon:
            proc.send_signal(signal.SIGTERM)
        try:
            code = proc.wait(15)
            if code != 0:
                run.fail(f"dynd did not exit 0 after SIGTERM: {describe_status(code)}", None, None)
        except subprocess.TimeoutExpired:
            run.fail("dynd did not exit within 15 s of SIGTERM (killed)", None, None)
            proc.kill()
            proc.wait()
        if os.path.exists(path):
            run.fail("dynd left its socket behind after SIGTERM", None, None)
    log.close()

    # The report.
    problem = probe_result.get("problem")
    if problem and run.daemon_died is None and not run.frozen_seen:
        run.fail(problem, None, None)
    rtts = probe_result.get("rtts", [])
    values = sorted(r for _, r in rtts)
    worst = max(rtts, key=lambda x: x[1]) if rtts else None
    print(f"\nchaos report (seed {args.seed}, {elapsed:.0f} s, {run.slots} slots)")
    s = run.stats
    print(f"  requests sent {s['requests']}, lines read {s['lines_read']} "
          f"({s['bytes_read'] / 1e6:.1f} MB), connections {s['connections']} "
          f"({s['aborted']} dropped by the client, {s['closed_gracefully']} closed with EOF), "
          f"requests left unanswered on dropped connections {s['unanswered']}")
    lives = sorted((k[5:], v) for k, v in s.items() if k.startswith("life."))
    print("  clients: " + ", ".join(f"{k} {v}" for k, v in lives))
    print("  events: " + ", ".join(f"{k} {v}" for k, v in sorted(run.events.items()))
          + f" (frames with dropped: {s['frames_with_dropped']})")
    codes = collections.Counter()
    for (kind, code), n in run.replies.items():
        codes[code] += n
    print("  replies: " + ", ".join(f"{c} {n}" for c, n in codes.most_common()))
    valid_errors = collections.Counter()
    for (kind, code), n in run.replies.items():
        if code != "ok" and not kind.startswith("bad."):
            valid_errors[f"{kind}→{code}"] += n
    if valid_errors:
        print("  errors to well-formed requests (other clients closed the session, and such): "
              + ", ".join(f"{k} {n}" for k, n in valid_errors.most_common(12)))
    for note, n in sorted(run.notes.items()):
        print(f"  note: {note} ({n}×)")
    heavy = {k: n for k, n in run.kinds.items() if k.startswith("heavy.")}
    if heavy:
        print("  heavy requests: " + ", ".join(f"{k} {n}" for k, n in sorted(heavy.items())))
    if not values:
        print("  probe round trip: no reply at all")
    else:
        print(f"  probe round trip ({len(values)} hello/list, every {args.probe_interval_ms:g} ms):"
              f" p50 {percentile(values, 50) * 1e3:.2f} ms, p99 {percentile(values, 99) * 1e3:.2f}"
              f" ms, max {values[-1] * 1e3:.1f} ms; over 50 ms: "
              f"{sum(v > 0.05 for v in values)}, over {args.max_rtt_ms:g} ms: "
              f"{sum(v > args.max_rtt_ms / 1e3 for v in values)}")
    if worst and worst[1] * 1e3 > args.max_rtt_ms:
        t_sent, rtt = worst
        near = [h for h in run.history if t_sent - 2 <= h[0] <= t_sent + rtt]
        costly = sorted(near, key=lambda h: -h[5])[:8]
        run.fail(f"the probe's worst round trip is {rtt * 1e3:.0f} ms (limit "
                 f"{args.max_rtt_ms:g} ms)", None, None)
        print(f"  the costliest of the {len(near)} requests sent in the 2 s before the worst "
              f"round trip and during it (heavy ones, then steps by count):")
        for t, label, kind, size, ex, _ in sorted(costly):
            print(f"    {t - t_sent:+.3f}s {label} {kind} ({size} bytes): {ex}")
    print(f"  dynd RSS: peak {s['rss_peak_kb'] / 1024:.0f} MiB sampled, at the end "
          f"{s['rss_end_kb'] / 1024:.0f} MiB" if s["rss_end_kb"] else
          f"  dynd RSS: peak {s['rss_peak_kb'] / 1024:.0f} MiB sampled")
    if run.daemon_died is not None:
        print(f"  dynd died ({describe_status(run.daemon_died)}); the last requests sent:")
        for t, label, kind, raw in run.recent:
            print(f"    {label} {kind}: {excerpt(raw, 200)}")
        dump = os.path.join(tmp, "last-requests.jsonl")
        with open(dump, "wb") as f:
            for _, _, _, raw in run.recent:
                f.write(raw + b"\n")
        print(f"  full lines: {dump}")
        tail = open(log_path, errors="replace").read()[-3000:]
        print("  dynd's log (tail):\n    " + tail.replace("\n", "\n    "))
    if run.failure_count:
        print(f"\nFAILED: {run.failure_count} problems (seed {args.seed}; rerun with "
              f"--seed {args.seed}). The first ones:")
        # The daemon's own failures (frozen, died, slow) first: per-connection timeouts follow
        # from them.
        for f in sorted(run.failures, key=lambda f: f["conn"] != "-")[:15]:
            print(f"  - {f['conn']}: {f['what']}")
            if f["line"] is not None:
                print(f"      line: {f['line']}")
            if f["request"] is not None:
                print(f"      request: {f['request']}")
        print(f"  dynd's log and files: {tmp}")
        return 1
    if not args.keep:
        shutil.rmtree(tmp, ignore_errors=True)
    print("PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
