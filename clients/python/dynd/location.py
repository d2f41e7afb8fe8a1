"""Where the daemon's socket is, and whether to trust it (protocol/PROTOCOL.md, section 2).

The lookup is dynctl's, first match wins: the path the caller gives, ``$DYND_SOCKET`` (if not
empty), ``$XDG_RUNTIME_DIR/dynd/dynd.sock`` (an absolute ``$XDG_RUNTIME_DIR`` only), else
``/tmp/dynd-$UID/dynd.sock``; a path that is empty, holds a NUL byte or is longer than 107 bytes
raises `InvalidSocketPath`. Tests/Shared/socket-location-cases.json holds the cases every copy of
the rule passes. Before anything is sent, a directory the client chose itself must be a real
directory owned by the user with no group or other permission bits, and the daemon must run as
the user or root (``SO_PEERCRED``); otherwise `UntrustedSocket` is raised, with the same
sentences dynctl prints.
"""

from __future__ import annotations

import os
import socket
import stat
import struct
from typing import Mapping, Optional, Tuple

from .errors import InvalidSocketPath, UntrustedSocket

__all__ = [
    "MAX_SOCKET_PATH",
    "socket_location",
    "default_socket_location",
    "default_socket_path",
    "check_socket_path",
    "check_socket_directory",
    "check_peer",
]

#: The longest socket path, in bytes: ``sockaddr_un.sun_path`` holds 108 with the NUL.
MAX_SOCKET_PATH = 107


def socket_location(
    path: Optional[str] = None, environ: Mapping[str, str] = os.environ, uid: Optional[int] = None
) -> Tuple[str, Optional[str]]:
    """Returns ``(path, directory)``: `path` as given, else ``$DYND_SOCKET``, else
    ``$XDG_RUNTIME_DIR/dynd/dynd.sock``, else ``/tmp/dynd-$UID/dynd.sock``. `directory` is the
    per-user directory the client must check (the last two rules), None for a path the user
    chose. `uid` defaults to this process's. Raises `InvalidSocketPath` for a path no socket can
    have (`check_socket_path`), without falling through to the next rule."""
    if path is None:
        path = environ.get("DYND_SOCKET") or None
    if path is not None:
        check_socket_path(path)
        return path, None
    runtime = environ.get("XDG_RUNTIME_DIR", "")
    if runtime.startswith("/"):
        directory = os.path.join(runtime, "dynd")
    else:
        directory = "/tmp/dynd-%d" % (os.getuid() if uid is None else uid)
    path = os.path.join(directory, "dynd.sock")
    check_socket_path(path)
    return path, directory


def default_socket_location(
    environ: Mapping[str, str] = os.environ, uid: Optional[int] = None
) -> Tuple[str, Optional[str]]:
    """`socket_location` when the caller gives no path: ``(path, directory)``."""
    return socket_location(None, environ, uid)


def default_socket_path(environ: Mapping[str, str] = os.environ) -> str:
    """``$DYND_SOCKET``, else ``$XDG_RUNTIME_DIR/dynd/dynd.sock``, else
    ``/tmp/dynd-$UID/dynd.sock``."""
    return socket_location(None, environ)[0]


def check_socket_path(path: str) -> None:
    """Raises `InvalidSocketPath` unless `path` is a path a Unix socket can have: not empty, no
    NUL byte, at most `MAX_SOCKET_PATH` bytes once encoded as the system encodes file names.
    The daemon refuses the same paths with the same codes."""
    if not path:
        raise InvalidSocketPath("invalid_path", "the socket path is empty")
    if "\0" in path:
        raise InvalidSocketPath("invalid_path", "the socket path contains a NUL byte")
    length = len(os.fsencode(path))
    if length > MAX_SOCKET_PATH:
        raise InvalidSocketPath(
            "path_too_long",
            "the socket path is %d bytes long; a Unix socket path can have at most %d bytes: %s"
            % (length, MAX_SOCKET_PATH, path),
        )


def check_socket_directory(directory: str, uid: Optional[int] = None) -> None:
    """Raises `UntrustedSocket` unless `directory` (``lstat``) is a real directory, not a
    symbolic link, owned by `uid` (default: this process's), with no group or other permission
    bits: dynd's own rule. A missing directory passes (connecting will find no daemon)."""
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
            % (refusing, elsewhere)
        )
    if not stat.S_ISDIR(info.st_mode):
        raise UntrustedSocket(
            "%s it is not a directory; nothing was sent. Remove it, %s" % (refusing, elsewhere)
        )
    if info.st_uid != uid:
        raise UntrustedSocket(
            "%s it is owned by uid %d, not by you (uid %d); another user may have created it to "
            "receive your requests, so nothing was sent. Have it removed (dynd creates it again), "
            "%s" % (refusing, info.st_uid, uid, elsewhere)
        )
    mode = stat.S_IMODE(info.st_mode)
    if mode & 0o077:
        raise UntrustedSocket(
            "%s its mode is %04o, which lets other users replace the socket; nothing was sent. "
            "Make it private (chmod 700 %s), %s" % (refusing, mode, directory, elsewhere)
        )


def peer_uid(sock: socket.socket) -> int:
    """The uid the daemon on the connected Unix socket `sock` runs as (``SO_PEERCRED``)."""
    size = struct.calcsize("iII")
    _, uid, _ = struct.unpack("iII", sock.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, size))
    return int(uid)


def check_peer(sock: socket.socket, path: str, uid: Optional[int] = None) -> None:
    """Raises `UntrustedSocket` unless the daemon on the connected `sock` runs as `uid`
    (default: this process's) or root, by its ``SO_PEERCRED``."""
    uid = os.getuid() if uid is None else uid
    theirs = peer_uid(sock)
    if theirs not in (uid, 0):
        raise UntrustedSocket(
            "refusing the daemon at %s: it runs as uid %d, not as you (uid %d) or root, so it may "
            "be another user's program posing as dynd; nothing was sent. See who owns the socket "
            "(ls -ln %s), then start your own dynd or choose another socket with $DYND_SOCKET"
            % (path, theirs, uid, path)
        )


def resolve(path: Optional[str]) -> str:
    """The socket to connect to (`socket_location`): `path` as given (its directory unchecked),
    or the default location, whose per-user directory is checked (`check_socket_directory`)."""
    chosen, directory = socket_location(path)
    if directory is not None:
        check_socket_directory(directory)
    return chosen
