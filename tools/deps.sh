#!/bin/sh
# Installs what a make target needs and is missing, and nothing else:
#   tools/deps.sh build     Debian packages the Swift build links against
#   tools/deps.sh test      the tools of make test: Python's (jsonschema, pytest, mypy < 2, and
#                           hatchling, which builds the Python client's wheel in make
#                           python-test) and Debian's eslint (make lint's page scripts)
#   tools/deps.sh browser   Debian's Chromium and Playwright for Python (which drives that
#                           Chromium; no browser download), for the browser checks of make test
#   tools/deps.sh package   what make deb, make dist and make package-test use: Debian's
#                           packaging tools (dpkg-dev, lintian), man-db, the shells whose
#                           completions are checked (zsh, fish), and Python's build and
#                           hatchling (the client's build backend: make dist builds without
#                           isolation)
# Several kinds may be given. Packages already installed are never upgraded (apt-get
# --no-upgrade); apt's and pip's output goes to a log, and one line says what is installed.
# Python's modules are looked for in, and installed into, $PYTHON (default python3):
# tools/python_env.sh makes a venv that holds only what the kinds it names install here.
set -eu

PYTHON=${PYTHON:-python3}

build_packages="libbox2d-dev libevent-dev libjson-c-dev pkg-config"
test_packages="eslint"
browser_packages="chromium"
python_modules="jsonschema pytest hatchling"
browser_modules="playwright"
package_packages="dpkg-dev lintian man-db groff-base zsh fish"
package_modules="build hatchling"

sudo=""
[ "$(id -u)" = 0 ] || sudo="sudo"
log="${TMPDIR:-/tmp}/dynd-deps.$$.log"

run_logged() {
  if ! "$@" >>"$log" 2>&1; then
    echo "deps: failed: $*" >&2
    tail -n 30 "$log" >&2
    echo "deps: the whole log is $log" >&2
    exit 1
  fi
}

apt_missing=""
pip_missing=""
for kind in "$@"; do
  case "$kind" in
    build) wanted="$build_packages" ;;
    browser)
      wanted="$browser_packages"
      for module in $browser_modules; do
        "$PYTHON" -c "import $module" 2>/dev/null || pip_missing="$pip_missing $module"
      done ;;
    package)
      wanted="$package_packages"
      for module in $package_modules; do
        "$PYTHON" -c "import $module" 2>/dev/null || pip_missing="$pip_missing $module"
      done ;;
    test)
      for module in $python_modules; do
        "$PYTHON" -c "import $module" 2>/dev/null || pip_missing="$pip_missing $module"
      done
      # mypy 2 cannot check for Python 3.9, the Python client's oldest.
      "$PYTHON" -c 'import sys, mypy.version as v; sys.exit(int(v.__version__.split(".")[0]) >= 2)' \
        2>/dev/null || pip_missing="$pip_missing mypy<2"
      wanted="$test_packages" ;;
    *) echo "deps: unknown kind '$kind' (build, test, browser, package)" >&2; exit 64 ;;
  esac
  for package in $wanted; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "ok installed" \
      || apt_missing="$apt_missing $package"
  done
done

if [ -n "$apt_missing" ]; then
  echo "deps: installing Debian packages:$apt_missing (log: $log)"
  run_logged $sudo apt-get update -qq
  run_logged $sudo env DEBIAN_FRONTEND=noninteractive \
    apt-get install -y -qq --no-upgrade $apt_missing
fi
if [ -n "$pip_missing" ]; then
  echo "deps: installing Python packages:$pip_missing (log: $log)"
  run_logged "$PYTHON" -m pip install -q --disable-pip-version-check $pip_missing
fi
rm -f "$log"
