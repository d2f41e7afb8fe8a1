#!/usr/bin/env python3
"""Drives dynd's lock screen like a finger would, and prints each frame.

    python3 examples/clients/python/lock_screen.py [--socket PATH] [--release-velocity VY]

Opens a `lock-screen` session on the manual clock, drags the screen up from y = 500 to 380 over
0.2 s (a sample and a one-frame step every 1/60 s), releases it with the given vertical velocity
(default -1400 pt/s: a flick up), prints the handoff, then steps until the transition reports its
outcome, printing every frame: time, the screen's center y and vertical velocity. Exits 77 if the
socket is not to be trusted (dynd.UntrustedSocket: another user's directory or daemon), 1 on any
other failure (no daemon: the message names the socket tried).

It uses the `dynd` package of clients/python: installed (`pip install ./clients/python`), or else
found in the checkout, relative to this script.
"""

import argparse
import os
import sys

try:
    import dynd  # noqa: F401  (installed)
except ImportError:
    sys.path.insert(0, os.path.join(
        os.path.dirname(os.path.realpath(__file__)), "..", "..", "..", "clients", "python"))

from dynd import Client, DyndError, UntrustedSocket  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--socket", help="dynd's socket (default: $DYND_SOCKET, …)")
    parser.add_argument("--release-velocity", type=float, default=-1400.0, metavar="VY")
    args = parser.parse_args()

    with Client(args.socket) as dynd:
        dynd.request("open", session="lock", transition="lock-screen", clock="manual")
        outcome = None
        samples, duration = 12, 0.2
        for i in range(samples + 1):
            t = duration * i / samples
            y = 500 + (380 - 500) * i / samples
            phase = "began" if i == 0 else "ended" if i == samples else "changed"
            extra = {"vx": 0, "vy": args.release_velocity} if phase == "ended" else {}
            if i > 0:
                outcome = show(dynd.exchange("step", session="lock", dt=duration / samples)[1])
            outcome = show(dynd.exchange(
                "gesture", session="lock", phase=phase, x=160, y=y, t=t, **extra)[1]) or outcome
        while outcome is None:
            reply, events = dynd.exchange("step", session="lock", count=30)
            outcome = show(events)
            if outcome is None and not reply["running"]:
                sys.exit("lock_screen.py: the screen came to rest without an outcome")
        print("outcome:", outcome)


def show(events):
    """Prints frames and handoffs; returns the outcome of a `done` event, if any."""
    outcome = None
    for event in events:
        if event["ev"] == "frame":
            screen = event["items"][0]
            print("t %6.3f  y %9.3f  vy %10.3f" % (
                event["t"], screen["center"][1], screen["velocity"][1]))
        elif event["ev"] == "handoff":
            print("handoff %s: gesture velocity %s, item velocity %s" % (
                event["item"], event["gesture_velocity"], event["item_velocity"]))
        elif event["ev"] == "done":
            outcome = event["outcome"]
    return outcome


if __name__ == "__main__":
    try:
        main()
    except UntrustedSocket as error:
        print("lock_screen.py: %s" % error, file=sys.stderr)
        sys.exit(77)
    except (DyndError, OSError) as error:
        sys.exit("lock_screen.py: %s" % error)
