#!/bin/sh
# make dist: the Python client as an sdist and a wheel, dist/dynd-<version>.tar.gz and
# dist/dynd-<version>-py3-none-any.whl. Built from a copy of clients/python with its links
# followed (dynd/VERSION links to the checkout's VERSION), by `python3 -m build`: the sdist first,
# then the wheel from the sdist, which shows the sdist is complete. No build isolation: the
# build backend is the hatchling of the venv of `tools/python_env.sh package`, which holds only
# what `tools/deps.sh package` installs (build and hatchling), as on a freshly started machine.
# Usage: packaging/build_dist.sh OUT_DIR
set -eu

if [ $# -ne 1 ]; then
  echo "usage: $0 OUT_DIR" >&2
  exit 64
fi
out=$1
version=$(cat VERSION)
work=$(mktemp -d "${TMPDIR:-/tmp}/dynd-dist.XXXXXX")
trap 'rm -rf "$work"' EXIT

cp -rL clients/python "$work/dynd"
rm -rf "$work/dynd/build" "$work/dynd"/*.egg-info "$work/dynd/.mypy_cache" \
  "$work/dynd/.pytest_cache"
find "$work/dynd" -name __pycache__ -prune -exec rm -rf {} +
mkdir -p "$out"
rm -f "$out/dynd-$version.tar.gz" "$out/dynd-$version-py3-none-any.whl"
python=$(tools/python_env.sh package)
"$python" -m build --no-isolation --outdir "$work/out" "$work/dynd" >"$work/build.log" 2>&1 || {
  cat "$work/build.log" >&2
  exit 1
}
for artifact in "dynd-$version.tar.gz" "dynd-$version-py3-none-any.whl"; do
  if [ ! -f "$work/out/$artifact" ]; then
    echo "build_dist.sh: python -m build did not write $artifact (wrote: $(ls "$work/out"))" >&2
    exit 1
  fi
  cp "$work/out/$artifact" "$out/"
  echo "build_dist.sh: $out/$artifact"
done
