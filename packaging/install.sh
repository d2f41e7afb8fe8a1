#!/bin/sh
# make install / make uninstall: one list of what goes where (installed_files), so that uninstall
# removes exactly what install wrote.
#   packaging/install.sh install     copies each file to $DESTDIR<its place>
#   packaging/install.sh uninstall   removes those files, then the directories left empty: every
#                                    one up to $DESTDIR when DESTDIR is set (a staging tree), only
#                                    dynd's own (share/doc/dynd, share/dynd) when it is not
#   packaging/install.sh list        prints the installed paths, one a line
# The Makefile passes the places (PREFIX, BINDIR, MANDIR, DOCDIR, DATADIR, BASHCOMPDIR,
# ZSHCOMPDIR, FISHCOMPDIR, USERUNITDIR), DESTDIR, BUILT (the static binaries) and GENERATED
# (the man pages and completions written from them by packaging/generate.sh).
set -eu

: "${DESTDIR=}" "${PREFIX:?}" "${BINDIR:?}" "${MANDIR:?}" "${DOCDIR:?}" "${DATADIR:?}"
: "${BASHCOMPDIR:?}" "${ZSHCOMPDIR:?}" "${FISHCOMPDIR:?}" "${USERUNITDIR:?}"
: "${BUILT:?}" "${GENERATED:?}"

commands="dynd dynctl dynd-inspect"

# Lines of "MODE SOURCE TARGET"; a SOURCE ending in .in has @BINDIR@ replaced.
installed_files() {
  for command in $commands; do
    echo "755 $BUILT/$command $BINDIR/$command"
    echo "644 $GENERATED/man/$command.1 $MANDIR/man1/$command.1"
    echo "644 $GENERATED/completions/$command.bash $BASHCOMPDIR/$command"
    echo "644 $GENERATED/completions/_$command $ZSHCOMPDIR/_$command"
    echo "644 $GENERATED/completions/$command.fish $FISHCOMPDIR/$command.fish"
  done
  echo "644 packaging/systemd/dynd.socket $USERUNITDIR/dynd.socket"
  echo "644 packaging/systemd/dynd.service.in $USERUNITDIR/dynd.service"
  echo "644 protocol/PROTOCOL.md $DOCDIR/PROTOCOL.md"
  for schema in protocol/schema/*.json; do
    echo "644 $schema $DATADIR/schema/${schema##*/}"
  done
}

install_all() {
  installed_files | while read -r mode source target; do
    mkdir -p "$DESTDIR${target%/*}"
    case "$source" in
      *.in)
        sed "s|@BINDIR@|$BINDIR|g" "$source" >"$DESTDIR$target"
        chmod "$mode" "$DESTDIR$target" ;;
      *) install -m "$mode" "$source" "$DESTDIR$target" ;;
    esac
    echo "installed $DESTDIR$target"
  done
}

# Removes DIRECTORY and its parents while they are empty, stopping at STOP (kept).
remove_empty_directories() {
  directory=$1 stop=$2
  while [ "$directory" != "$stop" ] && [ "${directory#"$stop"/}" != "$directory" ] &&
    rmdir "$directory" 2>/dev/null; do
    directory=${directory%/*}
  done
}

uninstall_all() {
  installed_files | while read -r mode source target; do
    if [ -e "$DESTDIR$target" ] || [ -L "$DESTDIR$target" ]; then
      rm -f "$DESTDIR$target"
      echo "removed $DESTDIR$target"
    fi
  done
  if [ -n "$DESTDIR" ]; then
    installed_files | while read -r mode source target; do
      remove_empty_directories "$DESTDIR${target%/*}" "$DESTDIR"
    done
  else
    for own in "$DATADIR/schema" "$DATADIR" "$DOCDIR"; do
      rmdir "$own" 2>/dev/null || true
    done
  fi
}

case "${1:-}" in
  install) install_all ;;
  uninstall) uninstall_all ;;
  list) installed_files | while read -r mode source target; do echo "$target"; done ;;
  *) echo "usage: $0 install|uninstall|list" >&2; exit 64 ;;
esac
