# Sourced by demo.sh and inspect.sh: start_private_dynd NAME starts "$bin/dynd" on a socket in a
# fresh temporary directory (/tmp/NAME.XXXXXX), exports DYND_SOCKET, waits for the socket, and
# arranges that dynd is stopped and the directory removed when the script exits.
# Needs $bin (the directory holding dynd). Sets $dir and $pid.

start_private_dynd() {
  dir=$(mktemp -d "/tmp/$1.XXXXXX")
  DYND_SOCKET=$dir/dynd.sock
  export DYND_SOCKET
  pid=""
  trap stop_private_dynd EXIT INT TERM
  "$bin/dynd" --log-level warning &
  pid=$!
  tries=0
  until [ -S "$DYND_SOCKET" ]; do
    tries=$((tries + 1))
    if [ "$tries" -gt 100 ] || ! kill -0 "$pid" 2>/dev/null; then
      echo "$1: dynd did not start" >&2
      exit 1
    fi
    sleep 0.05
  done
}

stop_private_dynd() {
  if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then kill -TERM "$pid"; wait "$pid" || true; fi
  rm -rf "$dir"
}
