"""A dependency-free client for dynd (Python 3.8+, standard library only).

    from dynd import Client
    with Client() as c:                      # the socket: $DYND_SOCKET, then the runtime dir
        c.request("open", session="L", transition="lock-screen", clock="manual")
        reply, events = c.exchange("step", session="L", count=10)

Every request gets exactly one reply; the events a request causes (the frames of a `step`, a
`handoff`) arrive before it and are returned with it. Events of watched sessions that arrive
between requests are kept until `events()` reads them. An error reply raises `DyndError`.
The protocol is in protocol/PROTOCOL.md.
"""

import json
import os
import socket

__all__ = ["Client", "DyndError", "default_socket_path"]


class DyndError(Exception):
    """An error reply: `code` (e.g. "unknown_session") and the daemon's message."""

    def __init__(self, code, message, reply):
        super().__init__("%s: %s" % (code, message))
        self.code = code
        self.message = message
        self.reply = reply


def default_socket_path(environ=os.environ):
    """$DYND_SOCKET, else $XDG_RUNTIME_DIR/dynd/dynd.sock, else /tmp/dynd-$UID/dynd.sock."""
    if environ.get("DYND_SOCKET"):
        return environ["DYND_SOCKET"]
    runtime = environ.get("XDG_RUNTIME_DIR", "")
    if runtime.startswith("/"):
        return os.path.join(runtime, "dynd", "dynd.sock")
    return "/tmp/dynd-%d/dynd.sock" % os.getuid()


class Client:
    """One connection to dynd. Not thread-safe; use one per thread."""

    def __init__(self, path=None, timeout=10.0):
        self.path = path or default_socket_path()
        self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self._sock.settimeout(timeout)
        self._sock.connect(self.path)
        self._buffer = b""
        self._pending = []

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self):
        self._sock.close()

    def exchange(self, op, **fields):
        """Sends one request; returns (reply, events it caused). Raises DyndError on an error."""
        line = json.dumps(dict(op=op, **fields), separators=(",", ":"), allow_nan=False)
        self._sock.sendall(line.encode("utf-8") + b"\n")
        events = []
        while True:
            message = self._read()
            if "ok" in message:
                if not message["ok"]:
                    error = message.get("error", {})
                    raise DyndError(error.get("code"), error.get("message"), message)
                return message, events
            events.append(message)

    def request(self, op, **fields):
        """Sends one request and returns its reply; the events it caused are kept for `events()`."""
        reply, events = self.exchange(op, **fields)
        self._pending.extend(events)
        return reply

    def events(self, until=None):
        """Yields events: those kept, then new ones as they arrive; stops after the first event
        whose `ev` equals `until` (if given), or when the daemon closes the connection."""
        while True:
            if self._pending:
                event = self._pending.pop(0)
            else:
                try:
                    event = self._read()
                except EOFError:
                    return
            yield event
            if until is not None and event.get("ev") == until:
                return

    def _read(self):
        while b"\n" not in self._buffer:
            chunk = self._sock.recv(65536)
            if not chunk:
                raise EOFError("dynd closed the connection")
            self._buffer += chunk
        line, self._buffer = self._buffer.split(b"\n", 1)
        return json.loads(line)
