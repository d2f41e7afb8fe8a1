#!/bin/sh
# wave-pop through dynctl: a swipe from the left edge that pops (the list waves: the row under
# the finger leads), the exact handoff checked, and a pan released leftwards that cancels.
# Needs a running dynd (`make run`, or set DYND_SOCKET); dynctl on PATH or DYNCTL=path/to/dynctl.
set -eu
dynctl=${DYNCTL:-dynctl}

echo "# a pan along row 4 released rightwards at 800 pt/s: popped"
"$dynctl" handoff wave-pop --pan 5,289:200,289 --duration 0.4 --release-velocity 800,0
"$dynctl" play wave-pop --pan 5,289:200,289 --duration 0.4 --release-velocity 800,0

echo "# the same pan released leftwards: cancelled, both lists return"
"$dynctl" play wave-pop --pan 5,289:200,289 --duration 0.4 --release-velocity -300,0

echo "# the older rule: complete when the finger lifts beyond 70 % of the width"
"$dynctl" play wave-pop --param complete_rule=position --pan 5,289:260,289 --duration 0.5 \
  --release-velocity -100,0
