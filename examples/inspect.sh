#!/bin/sh
# `make inspect`: a private dynd on a temporary socket with a few sessions to look at and touch
# (three transitions on the realtime clock, a scene with behaviors to edit), and the browser
# inspector (dynd-inspect) in the foreground; it prints the address to open. Ctrl-C stops both.
# Usage: examples/inspect.sh BIN_DIR DYND_INSPECT [PORT]   (BIN_DIR holds dynd and dynctl;
# DYND_INSPECT is the dynd-inspect binary, built by the inspector's own package, inspector/; PORT 0,
# the default, lets the system choose one)
set -eu

bin=${1:?usage: examples/inspect.sh BIN_DIR DYND_INSPECT [PORT]}
inspect=${2:?usage: examples/inspect.sh BIN_DIR DYND_INSPECT [PORT]}
port=${3:-0}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/private-dynd.sh"
start_private_dynd dynd-inspect

# Kept sessions (dynctl open keeps them) for the page to list and watch.
"$bin/dynctl" open lock-screen --session lock >/dev/null
"$bin/dynctl" open wave-pop --session wave >/dev/null
"$bin/dynctl" open sidebar-menu --session menu >/dev/null
"$bin/dynctl" open --scene "$here/scenes/inspect-playground.json" --session playground >/dev/null
echo "inspect: dynd on $DYND_SOCKET with sessions lock, wave, menu (transitions: drag them)" \
  "and playground (a scene: edit its behaviors)"
"$inspect" --port "$port"
