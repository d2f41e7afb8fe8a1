#!/bin/sh
# The daemon demo (`make demo`): a private dynd on a temporary socket, driven by dynctl through
# the three required transitions, a realtime watcher and a scripted scene, then SIGTERM.
# Usage: examples/demo.sh BIN_DIR   (the directory holding dynd and dynctl)
set -eu

bin=${1:?usage: examples/demo.sh BIN_DIR}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/private-dynd.sh"

say() { printf '\n== %s\n' "$*"; }
dynctl() { echo "\$ dynctl $*"; "$bin/dynctl" "$@"; }

start_private_dynd dynd-demo

say "dynd on $DYND_SOCKET"
dynctl hello

say "lock-screen (manual clock): a flick up hands its velocity over exactly and opens"
dynctl play lock-screen --pan 160,500:160,380 --duration 0.2 --release-velocity 0,-1400

say "lock-screen: a short, slow pull is not enough; the screen falls back and bounces to rest"
dynctl play lock-screen --pan 100,500:100,470 --duration 0.1

say "lock-screen: a tap on the camera grabber (bottom right) makes the screen hop"
dynctl play lock-screen --tap 300,550

say "wave-pop: a pan along row 4 released rightwards; the row under the finger leads"
dynctl play wave-pop --pan 5,289:200,289 --duration 0.4 --release-velocity 800,0
dynctl play wave-pop --pan 5,289:200,289 --duration 0.4 --release-velocity -300,0

say "sidebar-menu: the seed's swipe toggle, then a drag whose release velocity decides"
dynctl play sidebar-menu --swipe right
dynctl play sidebar-menu --pan 10,300:100,300 --duration 0.2 --release-velocity 600,0

say "handoff checks: the item takes over the finger's release velocity (exit 1 if not)"
dynctl handoff lock-screen --pan 160,500:160,380 --duration 0.2 --release-velocity 0,-1400
dynctl handoff wave-pop --pan 5,289:200,289 --duration 0.4 --release-velocity 800,0
dynctl handoff sidebar-menu --pan 10,300:100,300 --duration 0.2 --release-velocity 600,0

say "Realtime clock: the daemon streams frames at 60 Hz while a watcher listens"
dynctl open lock-screen --session live >/dev/null
"$bin/dynctl" watch live --until done --no-frames --for 5 &
watcher=$!
sleep 0.2
dynctl gesture live --from 160,520 --to 160,300 --duration 0.25 --release-velocity 0,-1600
wait "$watcher"
dynctl list

say "A scripted scene: $(basename "$here")/scripts/drop-and-push.jsonl"
dynctl run "$here/scripts/drop-and-push.jsonl"

say "Errors are answered, not fatal: exit status 65 for an error reply"
status=0
dynctl close nosuch || status=$?
echo "exit status $status"

say "Recordings with the debug geometry, replayable in a browser: out/demo.html"
mkdir -p "$here/../out"
out=$(cd "$here/../out" && pwd)
dynctl record lock-screen --pan 160,500:160,470 --duration 0.1 -o "$out/lock-screen.trace.jsonl"
dynctl record wave-pop --pan 5,289:200,289 --duration 0.4 --release-velocity 800,0 \
  -o "$out/wave-pop.trace.jsonl"
dynctl record sidebar-menu --pan 10,300:100,300 --duration 0.2 --release-velocity 600,0 \
  -o "$out/sidebar-menu.trace.jsonl"
dynctl render "$out/lock-screen.trace.jsonl" "$out/wave-pop.trace.jsonl" \
  "$out/sidebar-menu.trace.jsonl" --html "$out/demo.html"
dynctl render "$out/wave-pop.trace.jsonl" --svg "$out/wave-pop.svg"
dynctl record lock-screen --param gravity=4 --pan 160,500:160,380 --duration 0.2 \
  --release-velocity 0,-1400 -o "$out/lock-screen-gravity4.trace.jsonl"
dynctl record lock-screen --param gravity=8 --pan 160,500:160,380 --duration 0.2 \
  --release-velocity 0,-1400 -o "$out/lock-screen-gravity8.trace.jsonl"
dynctl render "$out/lock-screen-gravity4.trace.jsonl" "$out/lock-screen-gravity8.trace.jsonl" \
  --overlay --html "$out/lock-screen-gravity.html"
echo "open $out/demo.html in a browser (no network needed); $out/wave-pop.svg is a still;"
echo "$out/lock-screen-gravity.html compares gravity 4 with 8 on one stage and one set of axes"

say "SIGTERM: dynd tells its clients, removes its socket and exits 0"
kill -TERM "$pid"
status=0
wait "$pid" || status=$?
pid=""
echo "dynd exit status $status; socket present: $([ -e "$DYND_SOCKET" ] && echo yes || echo no)"
[ "$status" -eq 0 ]

say "next: make inspect"
echo "make inspect starts a dynd with a few sessions and the browser inspector (dynd-inspect),"
echo "and prints the address to open: watch a session live, drag it with the mouse, tune its"
echo "parameters, edit a scene's behaviors, record what you see"
