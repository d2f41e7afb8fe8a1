#!/bin/sh
# `make inspect`: a private dynd on a temporary socket with a few sessions to look at and touch
# (three transitions on the realtime clock, a scene with behaviors to edit), and the browser
# inspector (dynd-inspect) in the foreground; it prints the address to open. Ctrl-C stops both.
# Usage: examples/inspect.sh BIN_DIR [PORT]   (the directory holding dynd, dynctl, dynd-inspect;
# PORT 0, the default, lets the system choose one)
set -eu

bin=${1:?usage: examples/inspect.sh BIN_DIR [PORT]}
port=${2:-0}
here=$(cd "$(dirname "$0")" && pwd)
dir=$(mktemp -d /tmp/dynd-inspect.XXXXXX)
DYND_SOCKET=$dir/dynd.sock
export DYND_SOCKET
pid=""

cleanup() {
  if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then kill -TERM "$pid"; wait "$pid" || true; fi
  rm -rf "$dir"
}
trap cleanup EXIT INT TERM

"$bin/dynd" --log-level warning &
pid=$!
tries=0
until [ -S "$DYND_SOCKET" ]; do
  tries=$((tries + 1))
  if [ "$tries" -gt 100 ] || ! kill -0 "$pid" 2>/dev/null; then
    echo "inspect: dynd did not start" >&2
    exit 1
  fi
  sleep 0.05
done

# Kept sessions (dynctl open keeps them) for the page to list and watch.
"$bin/dynctl" open lock-screen --session lock >/dev/null
"$bin/dynctl" open wave-pop --session wave >/dev/null
"$bin/dynctl" open sidebar-menu --session menu >/dev/null
"$bin/dynctl" open --scene "$here/scenes/inspect-playground.json" --session playground >/dev/null
echo "inspect: dynd on $DYND_SOCKET with sessions lock, wave, menu (transitions: drag them)" \
  "and playground (a scene: edit its behaviors)"
"$bin/dynd-inspect" --port "$port"
