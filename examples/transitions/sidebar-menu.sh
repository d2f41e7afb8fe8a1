#!/bin/sh
# sidebar-menu through dynctl: the seed's swipe toggle, and a drag from the left edge whose
# release velocity is handed over exactly and decides. Frames and done carry background_alpha.
# Needs a running dynd (`make run`, or set DYND_SOCKET); dynctl on PATH or DYNCTL=path/to/dynctl.
set -eu
dynctl=${DYNCTL:-dynctl}

echo "# swipe right: gravity, a push and the boundary at x = 150; it bounces and rests open"
"$dynctl" play sidebar-menu --swipe right

echo "# a drag from the left edge released at 600 pt/s: handed over exactly, opens"
"$dynctl" handoff sidebar-menu --pan 10,300:100,300 --duration 0.2 --release-velocity 600,0
"$dynctl" play sidebar-menu --pan 10,300:100,300 --duration 0.2 --release-velocity 600,0

echo "# the same drag released moving left: back to closed"
"$dynctl" play sidebar-menu --pan 10,300:100,300 --duration 0.2 --release-velocity -300,0
