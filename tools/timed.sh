#!/bin/sh
# make test's clock: where the time goes.
#   tools/timed.sh NAME COMMAND...   runs COMMAND after a line "make test: NAME started" and ends
#                                    with "make test: NAME passed (N s)" or "... FAILED (N s)"
#                                    (its exit status is COMMAND's); with $TIMINGS set, appends
#                                    "N NAME" to that file
#   tools/timed.sh --summary         prints $TIMINGS as a table, with the wall time since the
#                                    first entry started (the lanes overlap, so the rows add up to
#                                    more than it)
set -u

if [ "${1:-}" = "--summary" ]; then
  [ -n "${TIMINGS:-}" ] && [ -f "$TIMINGS" ] || exit 0
  first=$(head -n 1 "$TIMINGS" | cut -d' ' -f1)
  echo "make test: where the time went (seconds; the two lanes run side by side)"
  cut -d' ' -f2- "$TIMINGS" | awk '{ printf "  %6d  %s\n", $1, substr($0, length($1) + 2) }'
  echo "make test: $(($(date +%s) - first)) s in all"
  exit 0
fi
if [ $# -lt 2 ]; then
  echo "usage: $0 NAME COMMAND... | --summary" >&2
  exit 64
fi
name=$1
shift
echo "make test: $name started"
started=$(date +%s)
"$@"
status=$?
seconds=$(($(date +%s) - started))
[ -n "${TIMINGS:-}" ] && echo "$started $seconds $name" >>"$TIMINGS"
if [ $status -eq 0 ]; then
  echo "make test: $name passed ($seconds s)"
else
  echo "make test: $name FAILED ($seconds s)"
fi
exit $status
