#!/bin/sh
# Writes what make install copies besides the binaries, from the built binaries themselves:
#   OUT/man/{dynd,dynctl,dynd-inspect}.1     packaging/man_pages.py (argument-parser definitions)
#   OUT/completions/NAME.bash, _NAME, NAME.fish   NAME --generate-completion-script bash|zsh|fish
# Usage: packaging/generate.sh BIN_DIR GENERATE_MANUAL OUT   (places from the Makefile's
# environment: USERUNITDIR, DOCDIR, DATADIR, as the man pages' FILES name them)
set -eu

if [ $# -ne 3 ]; then
  echo "usage: $0 BIN_DIR GENERATE_MANUAL OUT" >&2
  exit 64
fi
bin=$1 generator=$2 out=$3
: "${USERUNITDIR:?}" "${DOCDIR:?}" "${DATADIR:?}"

# The pages' date: the last commit's (reproducible), or SOURCE_DATE_EPOCH's when set.
if [ -n "${SOURCE_DATE_EPOCH:-}" ]; then
  date=$(date -u -d "@$SOURCE_DATE_EPOCH" +%Y-%m-%d)
else
  date=$(git log -1 --format=%cs 2>/dev/null || date -u +%Y-%m-%d)
fi

mkdir -p "$out/man" "$out/completions"
python3 packaging/man_pages.py "$bin" "$out/man" --generator "$generator" --date "$date" \
  --unit-dir "$USERUNITDIR" --doc-dir "$DOCDIR" --data-dir "$DATADIR"
for command in dynd dynctl dynd-inspect; do
  # Sourced, not run: no #! line (lintian bash-completion-with-hashbang).
  "$bin/$command" --generate-completion-script bash | sed "1{/^#!/d}" \
    >"$out/completions/$command.bash"
  "$bin/$command" --generate-completion-script zsh >"$out/completions/_$command"
  "$bin/$command" --generate-completion-script fish >"$out/completions/$command.fish"
done
echo "generate.sh: man pages and completions of dynd, dynctl and dynd-inspect in $out"
