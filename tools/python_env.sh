#!/bin/sh
# Prints the path of a Python that holds only what `tools/deps.sh KIND...` installs: a venv of
# python3 that sees none of the system's site-packages, into which tools/deps.sh installs the
# Python modules of the kinds named. A check that builds or installs Python packages runs with
# it, so a module it needs and its kinds do not install fails here on every machine, not only on
# a freshly started one (a wheel build once passed only where `make deb` had installed `wheel`).
# The venv is kept in .build-python/, named by the kinds and a hash of tools/deps.sh, and made
# again when either changes.
# Usage: PYTHON=$(tools/python_env.sh test) && "$PYTHON" -m pytest ...
set -eu

if [ $# -eq 0 ]; then
  echo "usage: $0 KIND...  (the kinds of tools/deps.sh whose Python modules the venv holds)" >&2
  exit 64
fi
top=$(cd "$(dirname "$0")/.." && pwd)
kinds=$(echo "$*" | tr ' ' '-')
hash=$(sha256sum "$top/tools/deps.sh" | cut -c1-12)
venv="$top/.build-python/$kinds-$hash"

if [ ! -x "$venv/bin/python" ] || [ ! -f "$venv/.complete" ]; then
  rm -rf "$top/.build-python/$kinds"-*
  python3 -m venv "$venv" >&2
  PYTHON="$venv/bin/python" "$top/tools/deps.sh" "$@" >&2
  touch "$venv/.complete"
fi
echo "$venv/bin/python"
