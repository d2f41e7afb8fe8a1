#!/bin/sh
# The iOS 7 lock screen through dynctl: a flick that opens it (with the exact handoff checked),
# a short pull that falls back and bounces, and a tap on the camera grabber.
# Needs a running dynd (`make run`, or set DYND_SOCKET); dynctl on PATH or DYNCTL=path/to/dynctl.
set -eu
dynctl=${DYNCTL:-dynctl}

echo "# a flick up at 1400 pt/s: the screen takes that velocity over and leaves the top"
"$dynctl" handoff lock-screen --pan 160,500:160,380 --duration 0.2 --release-velocity 0,-1400
"$dynctl" play lock-screen --pan 160,500:160,380 --duration 0.2 --release-velocity 0,-1400

echo "# a short, slow pull: not enough to open; it falls back onto the floor and bounces"
"$dynctl" play lock-screen --pan 160,500:160,470 --duration 0.1

echo "# a tap on the camera grabber (the 80×80 square at the bottom right): a hop"
"$dynctl" play lock-screen --tap 300,550
