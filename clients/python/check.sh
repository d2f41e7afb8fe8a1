#!/usr/bin/env bash
# Checks the Python client package of dynd, one line per stage:
#   1. mypy --strict on the package, for Python 3.9 (pytest from a small stub, as pytest 9 itself
#      needs Python >= 3.10) and for this Python (the real pytest);
#   2. the package's own tests (clients/python/tests) against BIN_DIR/dynd;
#   3. the install check: a wheel built from clients/python itself, as `pip install
#      ./clients/python` builds it, which must write nothing into clients/python (bytecode
#      writing on: PYTHONDONTWRITEBYTECODE unset); then installed with pytest into a fresh venv
#      that sees none of this Python's packages, and that venv's pytest (the plugin registered
#      by the wheel's entry point) on examples/test_lock_screen_handoff.py with --dynd-binary
#      BIN_DIR/dynd. The venv gets no pip of its own (this Python's pip installs into it with
#      --python), and the wheel is built without build isolation, by the hatchling of $PYTHON,
#      so only pytest is fetched;
#   4. a short run of the fake-server fuzz (tools/client_fuzz.py, 10 s, seed 1) of both Python
#      clients and BIN_DIR/dynctl.
# Usage: clients/python/check.sh BIN_DIR     (BIN_DIR: the directory with the built dynd)
# $PYTHON picks the interpreter. By default it is the venv of `tools/python_env.sh test`, which
# holds only what `tools/deps.sh test` installs (mypy < 2, as mypy 2 cannot target 3.9; pytest;
# hatchling for the wheel), so a module the stages need and deps.sh does not install fails here
# on every machine. Exits 1 if any stage fails (its output is shown).
set -u

if [ $# -ne 1 ] || [ ! -x "$1/dynd" ]; then
  echo "usage: $0 BIN_DIR  (BIN_DIR must hold an executable dynd; got '${1:-}')" >&2
  exit 64
fi
BIN_DIR=$(cd "$1" && pwd)
HERE=$(cd "$(dirname "$0")" && pwd)
PYTHON=${PYTHON:-$("$HERE/../../tools/python_env.sh" test)} || {
  echo "check.sh: tools/python_env.sh test failed" >&2
  exit 1
}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/dynd-python-check.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
failed=0

# stage NAME COMMAND...: runs COMMAND quietly, prints one line (with the last line of its
# output as the summary), and the whole output when it fails.
stage() {
  local name=$1
  shift
  local log="$WORK/stage.log" start end status
  start=$(date +%s.%N)
  "$@" >"$log" 2>&1
  status=$?
  end=$(date +%s.%N)
  local seconds summary
  seconds=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }')
  summary=$(grep -v '^[[:space:]]*$' "$log" | tail -n 1 | sed 's/^=* *//; s/ *=*$//')
  if [ $status -eq 0 ]; then
    echo "check.sh: $name: ok (${seconds} s) $summary"
  else
    echo "check.sh: $name: FAILED (exit $status, ${seconds} s)"
    sed 's/^/    /' "$log"
    failed=1
  fi
}

cd "$HERE" || exit 1
stage "mypy --strict --python-version 3.9" \
  env MYPYPATH="$HERE/typing_stubs" "$PYTHON" -m mypy --strict --python-version 3.9 \
  --cache-dir "$HERE/.mypy_cache/3.9" dynd examples/test_lock_screen_handoff.py
stage "mypy --strict (this Python, the real pytest)" \
  "$PYTHON" -m mypy --strict --cache-dir "$HERE/.mypy_cache/here" dynd examples tests

# Other installed pytest plugins only slow the runs down: load just the two needed.
stage "pytest clients/python/tests" \
  env PYTHONPATH="$HERE" PYTEST_DISABLE_PLUGIN_AUTOLOAD=1 "$PYTHON" -m pytest -q \
  -p no:cacheprovider -p dynd.pytest_plugin -p pytester "$HERE/tests" \
  --dynd-binary "$BIN_DIR/dynd"

# The wheel is built in the source tree, as pip builds it, and anything the build created or
# changed there fails the stage. The tests run outside the checkout, so that they import the
# installed package.
install_check() {
  local pip=("$PYTHON" -m pip --disable-pip-version-check) written
  touch "$WORK/before-build" &&
    env -u PYTHONDONTWRITEBYTECODE "${pip[@]}" wheel -q --no-deps --no-build-isolation \
      -w "$WORK/wheel" "$HERE" &&
    written=$(find "$HERE" -newer "$WORK/before-build") &&
    if [ -n "$written" ]; then
      echo "building the wheel wrote into the source tree $HERE:"
      echo "$written"
      return 1
    fi &&
    if "${pip[@]}" --help | grep -q -- '--python <python>'; then
      "$PYTHON" -m venv --without-pip "$WORK/venv" &&
        "${pip[@]}" --python "$WORK/venv/bin/python" install -q "$WORK/wheel"/*.whl pytest
    else
      "$PYTHON" -m venv "$WORK/venv" &&
        "$WORK/venv/bin/python" -m pip install -q --disable-pip-version-check \
          "$WORK/wheel"/*.whl pytest
    fi &&
    mkdir "$WORK/run" && cd "$WORK/run" &&
    "$WORK/venv/bin/python" -c 'import dynd, sys; sys.exit(not dynd.__file__.startswith(sys.prefix))' &&
    "$WORK/venv/bin/pytest" -q -p no:cacheprovider "$HERE/examples/test_lock_screen_handoff.py" \
      --dynd-binary "$BIN_DIR/dynd"
}
stage "venv: pip install (wheel of ./clients/python, nothing written there) pytest; pytest examples/test_lock_screen_handoff.py" \
  install_check

stage "tools/client_fuzz.py --seconds 10 --seed 1 (Client, AsyncClient, dynctl)" \
  "$PYTHON" "$HERE/../../tools/client_fuzz.py" --seconds 10 --seed 1 --dynctl "$BIN_DIR/dynctl"

exit $failed
