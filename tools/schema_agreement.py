#!/usr/bin/env python3
"""The request schema against the daemon, value by value (part of `make schema-test`).

    python3 tools/schema_agreement.py BIN_DIR      (BIN_DIR holds the built dynd)

Every numeric field a request takes, each sent with 17 values from -1e7 to 1e7, to a private
dynd and through protocol/schema/request.json: the schema must accept exactly what the daemon
reads. The daemon reads a request before it looks its session up, so a request for a session
that does not exist is answered `unknown_session` when its fields are good and `out_of_range`,
`wrong_type` or `invalid_number` when one is not; `open` and `list` need no session, and what
`open` opens is closed again. `set_behavior` is the exception: it reads its fields for the type
of its behavior, so it is sent to the behaviors of a session opened for it. Before the schema's ranges were written from the code
(tools/generate.py), 53 of 510 such requests got different answers (issue 36).

Prints a line per disagreement and a last line `N passed, M failed`; exit status 1 on any.
"""

import json
import os
import socket
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import schema_check  # noqa: E402  (the checker tools/schema_check.py is)

VALUES = [-1e7, -1e6, -1000, -1, -1e-4, 0, 1e-6, 1e-4, 0.5, 1, 10, 240, 1000, 1e4, 1e5, 1e6, 1e7]
REFUSED = {"out_of_range", "wrong_type", "invalid_number"}


def behavior(body):
    return {"op": "add_behavior", "session": "nowhere", "behavior": body}


def spring(**fields):
    return behavior(dict({"type": "spring", "items": ["a"], "target": [0, 0]}, **fields))


# (name, request of value V): each request is valid but for the value under test.
PROBES = [
    ("elasticity", lambda v: behavior({"type": "dynamic_item", "items": ["a"], "elasticity": v})),
    ("friction", lambda v: behavior({"type": "dynamic_item", "items": ["a"], "friction": v})),
    ("density", lambda v: behavior({"type": "dynamic_item", "items": ["a"], "density": v})),
    ("resistance", lambda v: behavior({"type": "dynamic_item", "items": ["a"], "resistance": v})),
    ("charge", lambda v: behavior({"type": "dynamic_item", "items": ["a"], "charge": v})),
    ("gravity magnitude", lambda v: behavior({"type": "gravity", "items": ["a"], "magnitude": v})),
    ("gravity direction", lambda v: behavior({"type": "gravity", "items": ["a"],
                                              "direction": [v, 0]})),
    ("push magnitude", lambda v: behavior({"type": "push", "items": ["a"],
                                           "mode": "continuous", "magnitude": v})),
    ("push direction", lambda v: behavior({"type": "push", "items": ["a"],
                                           "mode": "continuous", "direction": [0, v]})),
    ("attachment frequency", lambda v: behavior({"type": "attachment", "item": "a",
                                                 "anchor": [0, 0], "frequency": v})),
    ("attachment damping", lambda v: behavior({"type": "attachment", "item": "a",
                                               "anchor": [0, 0], "damping": v})),
    ("attachment length", lambda v: behavior({"type": "attachment", "item": "a",
                                              "anchor": [0, 0], "length": v})),
    ("snap damping", lambda v: behavior({"type": "snap", "item": "a", "point": [0, 0],
                                         "damping": v})),
    ("snap point", lambda v: behavior({"type": "snap", "item": "a", "point": [v, 0]})),
    ("field strength", lambda v: behavior({"type": "field", "kind": "noise", "strength": v})),
    ("field falloff", lambda v: behavior({"type": "field", "kind": "noise", "falloff": v})),
    ("field minimum_radius", lambda v: behavior({"type": "field", "kind": "noise",
                                                 "minimum_radius": v})),
    ("field smoothness", lambda v: behavior({"type": "field", "kind": "noise",
                                             "smoothness": v})),
    ("field animation_speed", lambda v: behavior({"type": "field", "kind": "noise",
                                                  "animation_speed": v})),
    ("field direction", lambda v: behavior({"type": "field", "kind": "linear_gravity",
                                            "direction": [v, 0]})),
    ("region radius", lambda v: behavior({"type": "field", "kind": "noise",
                                          "region": {"radius": v}})),
    ("spring response", lambda v: spring(response=v, damping_ratio=1)),
    ("spring damping_ratio", lambda v: spring(response=0.5, damping_ratio=v)),
    ("spring bounce", lambda v: spring(duration=0.5, bounce=v)),
    ("spring stiffness", lambda v: spring(stiffness=v, damping=10)),
    ("spring mass", lambda v: spring(stiffness=100, damping=10, mass=v)),
    ("spring tension", lambda v: spring(tension=v, friction=10)),
    ("spring friction", lambda v: spring(tension=40, friction=v)),
    ("spring initial_velocity", lambda v: spring(response=0.5, damping_ratio=1,
                                                 initial_velocity=[v, 0])),
    ("decay deceleration_rate", lambda v: behavior({"type": "decay", "items": ["a"],
                                                    "deceleration_rate": v})),
    ("decay friction", lambda v: behavior({"type": "decay", "items": ["a"], "friction": v})),
    ("decay drag", lambda v: behavior({"type": "decay", "items": ["a"], "drag": v})),
    # set_behavior reads its fields once it knows the behavior's type: one request per type that
    # has a `friction`, to SET_SESSION's behaviors; the schema, which cannot know the type, must
    # accept what one of them reads.
    ("set_behavior friction", lambda v: [
        {"op": "set_behavior", "session": SET_SESSION, "behavior": "props", "friction": v},
        {"op": "set_behavior", "session": SET_SESSION, "behavior": "origami", "tension": 40,
         "friction": v},
        {"op": "set_behavior", "session": SET_SESSION, "behavior": "coast", "friction": v}]),
    ("item size", lambda v: {"op": "add_item", "session": "nowhere",
                             "item": {"id": "a", "center": [0, 0], "size": [v, 10]}}),
    ("item center", lambda v: {"op": "add_item", "session": "nowhere",
                               "item": {"id": "a", "size": [10, 10], "center": [v, 0]}}),
    ("item angle", lambda v: {"op": "add_item", "session": "nowhere",
                              "item": {"id": "a", "center": [0, 0], "size": [10, 10],
                                       "angle": v}}),
    ("gesture x", lambda v: {"op": "gesture", "session": "nowhere", "phase": "began",
                             "x": v, "y": 0}),
    ("gesture t", lambda v: {"op": "gesture", "session": "nowhere", "phase": "began",
                             "x": 0, "y": 0, "t": v}),
    ("gesture vx", lambda v: {"op": "gesture", "session": "nowhere", "phase": "ended",
                              "x": 0, "y": 0, "vx": v, "vy": 0}),
    ("step dt", lambda v: {"op": "step", "session": "nowhere", "dt": v}),
    ("add_velocity angular", lambda v: {"op": "add_velocity", "session": "nowhere", "item": "a",
                                        "angular": v}),
    ("items_in_rect w", lambda v: {"op": "items_in_rect", "session": "nowhere",
                                   "rect": [0, 0, v, 1]}),
    ("open fps", lambda v: {"op": "open", "session": "probe", "transition": "snap",
                            "clock": "manual", "fps": v}),
    ("open bounds", lambda v: {"op": "open", "session": "probe", "transition": "snap",
                               "clock": "manual", "bounds": [v, 500]}),
]


SET_SESSION = "set-probe"
SET_SCENE = {"items": [{"id": "a", "center": [0, 0], "size": [10, 10]}], "behaviors": [
    {"type": "dynamic_item", "id": "props", "items": ["a"]},
    {"type": "spring", "id": "origami", "items": ["a"], "target": [0, 0], "tension": 40,
     "friction": 10},
    {"type": "decay", "id": "coast", "items": ["a"], "friction": 1}]}


class Daemon:
    def __init__(self, bin_dir):
        self.folder = tempfile.mkdtemp(prefix="dynd-schema-agreement.")
        self.path = os.path.join(self.folder, "dynd.sock")
        self.process = subprocess.Popen(
            [os.path.join(bin_dir, "dynd"), "--socket", self.path, "--log-level", "error"])
        deadline = time.monotonic() + 30
        while not os.path.exists(self.path):
            if time.monotonic() > deadline or self.process.poll() is not None:
                raise RuntimeError("dynd did not start")
            time.sleep(0.02)
        self.socket = socket.socket(socket.AF_UNIX)
        self.socket.connect(self.path)
        self.reader = self.socket.makefile("rb")

    def ask(self, request):
        """The error code of the reply to `request`, or None for an ok reply."""
        self.socket.sendall(json.dumps(request).encode() + b"\n")
        while True:
            message = json.loads(self.reader.readline())
            if "ok" in message:
                return None if message["ok"] else message["error"]["code"]

    def close(self):
        self.socket.close()
        self.process.terminate()
        self.process.wait(10)


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    validator = schema_check.load_validators()["request"]
    daemon = Daemon(sys.argv[1])
    passed = failed = 0
    try:
        opened = daemon.ask({"op": "open", "session": SET_SESSION, "clock": "manual",
                             "scene": SET_SCENE})
        if opened is not None:
            raise RuntimeError("the set_behavior probes' scene was refused: %s" % opened)
        for name, make in PROBES:
            for value in VALUES:
                made = make(value)
                requests = made if isinstance(made, list) else [made]
                schema_accepts = any(not list(validator.iter_errors(r)) for r in requests)
                codes = [daemon.ask(r) for r in requests]
                for request, code in zip(requests, codes):
                    if request["op"] == "open" and code is None:
                        daemon.ask({"op": "close", "session": "probe"})
                daemon_accepts = any(code not in REFUSED for code in codes)
                code = next((c for c in codes if c not in REFUSED), codes[0])
                if schema_accepts == daemon_accepts:
                    passed += 1
                    continue
                failed += 1
                print("%s = %r: the schema %s it, dynd %s" % (
                    name, value, "accepts" if schema_accepts else "refuses",
                    "reads it (%s)" % (code or "ok") if daemon_accepts else "refuses it (%s)" % code))
    finally:
        daemon.close()
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
