"""A dependency-free client for dynd (Python 3.8+, standard library only).

    from dynd import Client
    with Client() as c:                      # the socket: $DYND_SOCKET, then the runtime dir
        c.request("open", session="L", transition="lock-screen", clock="manual")
        reply, events = c.exchange("step", session="L", count=10)

Every request gets exactly one reply; the events a request causes (the frames of a `step`, a
`handoff`) arrive before it and are returned with it. Events of watched sessions that arrive
between requests are kept until `events()` reads them. An error reply raises `DyndError`.

Before it sends anything the client checks whom it talks to, as dynctl does: the socket
directory it chose itself ($XDG_RUNTIME_DIR/dynd, /tmp/dynd-$UID) must be a real directory owned
by the user with no group or other permission bits, and the daemon must run as the user or root
(SO_PEERCRED). Otherwise it raises `UntrustedSocket`: another local user may have put their socket
where the user's daemon should be. The protocol is in protocol/PROTOCOL.md (section 2).
"""

import json
import os
import socket
import stat
import struct

__all__ = [
    "Client", "DyndError", "UntrustedSocket", "default_socket_path", "default_socket_location",
    "check_socket_directory", "check_peer",
]


class DyndError(Exception):
    """An error reply: `code` (e.g. "unknown_session") and the daemon's message."""

    def __init__(self, code, message, reply):
        super().__init__("%s: %s" % (code, message))
        self.code = code
        self.message = message
        self.reply = reply


class UntrustedSocket(PermissionError):
    """The socket directory or the daemon failed the checks; nothing was sent. The message says
    what is wrong and what to do."""


def default_socket_location(environ=os.environ, uid=None):
    """(path, directory): $DYND_SOCKET, else $XDG_RUNTIME_DIR/dynd/dynd.sock, else
    /tmp/dynd-$UID/dynd.sock; `directory` is the per-user directory the client must check (the
    last two rules), None for a path the user chose."""
    if environ.get("DYND_SOCKET"):
        return environ["DYND_SOCKET"], None
    runtime = environ.get("XDG_RUNTIME_DIR", "")
    if runtime.startswith("/"):
        directory = os.path.join(runtime, "dynd")
    else:
        directory = "/tmp/dynd-%d" % (os.getuid() if uid is None else uid)
    return os.path.join(directory, "dynd.sock"), directory


def default_socket_path(environ=os.environ):
    """$DYND_SOCKET, else $XDG_RUNTIME_DIR/dynd/dynd.sock, else /tmp/dynd-$UID/dynd.sock."""
    return default_socket_location(environ)[0]


def check_socket_directory(directory, uid=None):
    """Raises UntrustedSocket unless `directory` (lstat) is a real directory, not a symbolic link,
    owned by `uid` (default: this process's), with no group or other permission bits: dynd's
    own rule. A missing directory passes (connecting will find no daemon)."""
    uid = os.getuid() if uid is None else uid
    try:
        info = os.lstat(directory)
    except OSError:
        return
    refusing = "refusing the socket directory %s:" % directory
    elsewhere = "or choose a socket with $DYND_SOCKET"
    if stat.S_ISLNK(info.st_mode):
        raise UntrustedSocket(
            "%s it is a symbolic link, which another user may have planted to receive your "
            "requests; nothing was sent. Remove it (dynd creates the directory again), %s"
            % (refusing, elsewhere))
    if not stat.S_ISDIR(info.st_mode):
        raise UntrustedSocket(
            "%s it is not a directory; nothing was sent. Remove it, %s" % (refusing, elsewhere))
    if info.st_uid != uid:
        raise UntrustedSocket(
            "%s it is owned by uid %d, not by you (uid %d); another user may have created it to "
            "receive your requests, so nothing was sent. Have it removed (dynd creates it again), "
            "%s" % (refusing, info.st_uid, uid, elsewhere))
    mode = stat.S_IMODE(info.st_mode)
    if mode & 0o077:
        raise UntrustedSocket(
            "%s its mode is %04o, which lets other users replace the socket; nothing was sent. "
            "Make it private (chmod 700 %s), %s" % (refusing, mode, directory, elsewhere))


def check_peer(sock, path, uid=None):
    """Raises UntrustedSocket unless the daemon on the connected `sock` runs as `uid` (default:
    this process's) or root, by its SO_PEERCRED."""
    uid = os.getuid() if uid is None else uid
    _, peer_uid, _ = struct.unpack(
        "iII", sock.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("iII")))
    if peer_uid not in (uid, 0):
        raise UntrustedSocket(
            "refusing the daemon at %s: it runs as uid %d, not as you (uid %d) or root, so it may "
            "be another user's program posing as dynd; nothing was sent. See who owns the socket "
            "(ls -ln %s), then start your own dynd or choose another socket with $DYND_SOCKET"
            % (path, peer_uid, uid, path))


class Client:
    """One connection to dynd. Not thread-safe; use one per thread.

    `path` is the socket (default: `default_socket_location()`, whose directory is checked).
    Raises UntrustedSocket, before sending anything, for an unsafe directory or a daemon of
    another user (`check_socket_directory`, `check_peer`)."""

    def __init__(self, path=None, timeout=10.0):
        if path is None:
            path, directory = default_socket_location()
            if directory is not None:
                check_socket_directory(directory)
        self.path = path
        self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            self._sock.settimeout(timeout)
            self._sock.connect(self.path)
            check_peer(self._sock, self.path)
        except BaseException:
            self._sock.close()
            raise
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
