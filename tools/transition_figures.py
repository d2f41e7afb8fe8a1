#!/usr/bin/env python3
"""Measures each transition's outcome through a running dynd (manual clock, dynctl play -j).

    python3 tools/transition_figures.py DYNCTL [--socket PATH]

For each scripted gesture: the outcome, the settle time (animator time of the `pause` before
`done`, or of the frame `done` came with when the outcome is not a rest: opened, tossed), the bounce count (contacts that began), the handoff error
(|gesture velocity − item velocity|, pt/s) and the rest position error (distance of the named
item from where the transition says it ends, pt). Prints a Markdown table.
"""

import json
import math
import subprocess
import sys

# (transition, gesture arguments, item, expected resting center or None)
CASES = [
    ("lock-screen", "--pan 160,500:160,470 --duration 0.1", "screen", (160, 285)),
    ("lock-screen", "--pan 160,500:160,380 --duration 0.2 --release-velocity 0,-1400", "screen", None),
    ("lock-screen", "--tap 300,550", "screen", (160, 285)),
    ("wave-pop", "--pan 5,289:200,289 --duration 0.4 --release-velocity 800,0", "from-4", (500, 289)),
    ("wave-pop", "--pan 5,289:200,289 --duration 0.4 --release-velocity -300,0", "from-4", (160, 289)),
    ("sidebar-menu", "--swipe right", "menu", (75, 279.5)),
    ("sidebar-menu", "--pan 10,300:100,300 --duration 0.2 --release-velocity 600,0", "menu", (75, 279.5)),
    ("sidebar-menu", "--pan 10,300:100,300 --duration 0.2 --release-velocity -300,0", "menu", (-75, 279.5)),
    ("snap", "--tap 80,420", "label", (80, 420)),
    ("heavy", "--tap 10,10", "label", (160, 17)),
    ("drag", "--pan 200,408:250,300 --duration 0.3 --release-velocity 300,-200", "brick", None),
    ("snake", "--pan 160,410:300,200 --duration 0.5 --release-velocity 200,-100 --max-seconds 60", "orange", None),
    # The last `changed` sample of an 18-sample pan is at 200 + 100 × 17/18: row 3 rests at
    # 64 + 3.5 × 44 + 94.444.
    ("springy-list", "--pan 160,200:160,300 --duration 0.3 --release-velocity 0,300", "row-3",
     (160, 312.444)),
    ("toss", "--pan 160,284:260,200 --duration 0.2 --release-velocity 1500,-500", "photo", None),
    ("toss", "--pan 200,300:220,300 --duration 0.2 --release-velocity 200,0", "photo", (160, 284)),
    ("notification-center", "--pan 160,5:160,300 --duration 0.3 --release-velocity 0,400", "sheet", (160, 285)),
    ("notification-center", "--pan 160,5:160,300 --duration 0.3 --release-velocity 0,2500", "sheet", (160, 285)),
    ("notification-center", "--pan 160,5:160,200 --duration 0.3 --release-velocity 0,-800", "sheet", None),
    ("pip-corners", "--pan 212,495:160,284 --duration 0.3 --release-velocity -280,-1170", "window", (108, 73)),
    ("pip-corners", "--pan 212,495:150,300 --duration 0.3 --release-velocity 0,0", "window", (108, 495)),
]


def measure(dynctl, socket, transition, gesture, item, expected):
    command = [dynctl, "-j", "play", transition, "--frames"] + gesture.split()
    if socket:
        command += ["--socket", socket]
    lines = subprocess.run(command, capture_output=True, text=True).stdout.splitlines()
    messages = [json.loads(line) for line in lines]
    outcome, settle, bounces, handoff_error, last, t = None, None, 0, None, None, None
    for m in messages:
        ev = m.get("ev")
        if ev == "frame":
            last = {i["id"]: i for i in m["items"]}
            t = m["t"]
        elif ev == "contact" and m["phase"] == "began":
            bounces += 1
        elif ev == "pause" and outcome is None:
            settle = m["t"]
        elif ev == "handoff":
            g, v = m["gesture_velocity"], m["item_velocity"]
            handoff_error = math.hypot(g[0] - v[0], g[1] - v[1])
        elif ev == "done" and outcome is None:
            outcome = m["outcome"]
            if settle is None:
                settle = t  # done before any pause: the time of its frame
    rest = None
    if expected and last and item in last:
        c = last[item]["center"]
        rest = math.hypot(c[0] - expected[0], c[1] - expected[1])
    return outcome, settle, bounces, handoff_error, rest


def main():
    dynctl = sys.argv[1]
    socket = sys.argv[sys.argv.index("--socket") + 1] if "--socket" in sys.argv else None
    print("| transition | gesture | outcome | settle s | contacts began | handoff error pt/s | rest error pt |")
    print("|---|---|---|---:|---:|---:|---:|")
    for transition, gesture, item, expected in CASES:
        o, s, b, h, r = measure(dynctl, socket, transition, gesture, item, expected)
        fmt = lambda x: "—" if x is None else ("%.3f" % x if isinstance(x, float) else str(x))
        print("| %s | `%s` | %s | %s | %d | %s | %s |" % (
            transition, gesture, o, fmt(s), b, fmt(h), fmt(r)))


if __name__ == "__main__":
    main()
