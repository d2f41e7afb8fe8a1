#!/bin/bash
# Instructions per 60 Hz frame of each `dynbench motion-cost` behavior (BENCHMARKS.md, "What a
# spring or a decay costs per frame"), counted by callgrind: deterministic, unlike times.
#
#   tools/motion_instructions.sh [DYNBENCH] [COUNTS] [HZ]
#
# DYNBENCH defaults to the release build's (.build-rel/release/dynbench); COUNTS to "10 100 400";
# HZ, the display rate, to 60 (another is passed as `--hz`, which builds before issue 40 lack):
# frames of 1/HZ, the total for `--seconds 1` less that for one frame over the HZ − 1 between.
# For each behavior K and count N: callgrind's total for `--seconds 1` less that for one frame
# (`--seconds 1/60`), over the 59 frames between, less the baselines the run times too
# (`--behaviors` always adds gravity, and a spring per item's baseline, gravity per item).
# Valgrind cannot read the debug information Swift writes, so it runs a stripped copy.
set -euo pipefail
source=${1:-.build-rel/release/dynbench}
counts=${2:-10 100 400}
hz=${3:-60}
rate=()
[ "$hz" = 60 ] || rate=(--hz "$hz")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
strip --strip-debug -o "$work/dynbench" "$source"

# total KIND N SECONDS: instructions of one run.
total() {
  valgrind --tool=callgrind --callgrind-out-file="$work/cg.out" "$work/dynbench" motion-cost \
    --runs 1 --items "$2" --seconds "$3" --behaviors "$1" "${rate[@]}" 2>&1 >/dev/null |
    awk '/Collected/ {print $4}'
}
# frames KIND N: instructions per frame of the run's behaviors together.
frames() {
  local one
  one=$(python3 -c "print(1 / $hz)")
  python3 -c "print(round(($(total "$1" "$2" 1) - $(total "$1" "$2" "$one")) / ($hz - 1)))"
}

echo "| items | behavior | instructions per frame | × baseline's |"
echo "|---:|---|---:|---:|"
for n in $counts; do
  gravity=$(frames gravity "$n")
  per_gravity=$(( $(frames "gravity per item" "$n") - gravity ))
  for kind in gravity spring decay "spring to one point" "gravity per item" "spring per item"; do
    base=gravity; base_value=$gravity
    case $kind in
      gravity) value=$gravity ;;
      "gravity per item") value=$per_gravity ;;
      "spring per item")
        value=$(( $(frames "$kind" "$n") - gravity - per_gravity ))
        base="gravity per item"; base_value=$per_gravity ;;
      *) value=$(( $(frames "$kind" "$n") - gravity )) ;;
    esac
    ratio=$(python3 -c "print(round($value / $base_value, 2))")
    echo "| $n | $kind | $value | $ratio ($base) |"
  done
done
