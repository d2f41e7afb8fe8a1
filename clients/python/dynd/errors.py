"""The exceptions of the dynd client.

Every error reply of the daemon (protocol/PROTOCOL.md, section 8) is one `DyndError`, whatever
its code; the codes are the string constants below. The other exceptions are about reaching the
daemon: `InvalidSocketPath` (a path no Unix socket can have), `UntrustedSocket` (nothing was
sent), `DaemonNotRunning` (no daemon at the path), `DyndTimeout` (a reply or an awaited event did
not come in time) and `ConnectionClosed`.

A line that breaks the protocol is a `BadReply` (a `DyndError` whose code is ``bad_reply``), one
subclass per fault: `InvalidUTF8`, `NotJSON`, `NonFiniteNumber`, `TooDeep`, `LineTooLong`,
`ReplyMismatch`, `TooManyEvents`; the base class itself for the rest (not an object, neither
``ok`` nor ``ev``, fields of the wrong form). The client closes the connection before raising one:
after a broken line nothing that follows can be trusted to answer the right request.
"""

from __future__ import annotations

from typing import Any, Dict, FrozenSet, Optional

__all__ = [
    "DyndError",
    "InvalidSocketPath",
    "UntrustedSocket",
    "DaemonNotRunning",
    "DyndTimeout",
    "ConnectionClosed",
    "BadReply",
    "InvalidUTF8",
    "NotJSON",
    "NonFiniteNumber",
    "TooDeep",
    "LineTooLong",
    "ReplyMismatch",
    "TooManyEvents",
    "BAD_REPLY",
    "ERROR_CODES",
    "BAD_JSON",
    "NOT_AN_OBJECT",
    "MISSING_FIELD",
    "UNKNOWN_FIELD",
    "WRONG_TYPE",
    "INVALID_NUMBER",
    "OUT_OF_RANGE",
    "UNKNOWN_OP",
    "UNKNOWN_TRANSITION",
    "UNKNOWN_SESSION",
    "SESSION_EXISTS",
    "UNKNOWN_ITEM",
    "UNKNOWN_BEHAVIOR",
    "INVALID_SCENE",
    "LINE_TOO_LONG",
    "LINE_TIMEOUT",
    "CONFLICTING_FIELDS",
    "EVICTED",
    "BUSY",
]

#: The line is not JSON (syntax, bad UTF-8, nesting deeper than 64, a blank line).
BAD_JSON = "bad_json"
#: Valid JSON that is not an object.
NOT_AN_OBJECT = "not_an_object"
#: A required field is absent.
MISSING_FIELD = "missing_field"
#: A field the op or object does not define (a misspelling is never ignored).
UNKNOWN_FIELD = "unknown_field"
#: A field of the wrong JSON type.
WRONG_TYPE = "wrong_type"
#: NaN, Infinity or a number that overflows a double.
INVALID_NUMBER = "invalid_number"
#: A number outside its range, a word not in its set, a bad name.
OUT_OF_RANGE = "out_of_range"
#: `op` names no operation.
UNKNOWN_OP = "unknown_op"
#: `open` names a transition the daemon does not host.
UNKNOWN_TRANSITION = "unknown_transition"
#: The `session` is not open.
UNKNOWN_SESSION = "unknown_session"
#: `open` asks for a session name in use.
SESSION_EXISTS = "session_exists"
#: An item id the session does not have.
UNKNOWN_ITEM = "unknown_item"
#: A behavior id the session does not have.
UNKNOWN_BEHAVIOR = "unknown_behavior"
#: A scene that cannot be built, or an op that does not apply to the session's kind.
INVALID_SCENE = "invalid_scene"
#: The line exceeds the daemon's limit; the connection closes after the reply.
LINE_TOO_LONG = "line_too_long"
#: A started line was not finished within 10 s; the connection closes after the reply.
LINE_TIMEOUT = "line_timeout"
#: `params` of two ways to give one thing (a spring's two parameter sets, two decay models).
CONFLICTING_FIELDS = "conflicting_fields"
#: Every connection slot was taken and this idle connection gave way to a new client; it is
#: closed after the reply (which has no id).
EVICTED = "evicted"
#: Too many sessions, or `step` on a realtime session.
BUSY = "busy"

#: Not the daemon's: the code of `BadReply`, a line of the daemon the client refuses.
BAD_REPLY = "bad_reply"

#: Every error code dynd uses (protocol/PROTOCOL.md, section 8).
ERROR_CODES: FrozenSet[str] = frozenset(
    {
        BAD_JSON,
        NOT_AN_OBJECT,
        MISSING_FIELD,
        UNKNOWN_FIELD,
        WRONG_TYPE,
        INVALID_NUMBER,
        OUT_OF_RANGE,
        UNKNOWN_OP,
        UNKNOWN_TRANSITION,
        UNKNOWN_SESSION,
        SESSION_EXISTS,
        UNKNOWN_ITEM,
        UNKNOWN_BEHAVIOR,
        INVALID_SCENE,
        LINE_TOO_LONG,
        LINE_TIMEOUT,
        CONFLICTING_FIELDS,
        EVICTED,
        BUSY,
    }
)


class DyndError(Exception):
    """An error reply of the daemon.

    `code` is the protocol's snake_case code (one of `ERROR_CODES`, e.g. ``"unknown_session"``),
    `message` the daemon's sentence, `reply` the whole reply as parsed JSON, and `request_id`
    the echoed `id` (None when the daemon could not read it).
    """

    def __init__(self, code: str, message: str, reply: Optional[Dict[str, Any]] = None) -> None:
        super().__init__("%s: %s" % (code, message))
        self.code = code
        self.message = message
        self.reply: Dict[str, Any] = reply if reply is not None else {}
        self.request_id: Any = self.reply.get("id")

    @classmethod
    def from_reply(cls, reply: Dict[str, Any]) -> DyndError:
        """The error of an ``{"ok": false, ...}`` reply."""
        error = reply.get("error")
        if not isinstance(error, dict):
            return BadReply("the daemon's error reply has no error object: %s" % quote(reply))
        return cls(str(error.get("code", "")), str(error.get("message", "")), reply)


class InvalidSocketPath(ValueError):
    """The socket path is one no Unix socket can have; nothing was tried.

    `code` is the daemon's word for the same fault (protocol/PROTOCOL.md, section 2):
    ``"invalid_path"`` for an empty path or one with a NUL byte, ``"path_too_long"`` for more
    than 107 bytes (``sun_path`` holds 108 with the NUL).
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


class UntrustedSocket(PermissionError):
    """The socket directory or the daemon failed the trust checks; nothing was sent.

    The message says what is wrong and what to do (protocol/PROTOCOL.md, section 2).
    """


class DaemonNotRunning(ConnectionError):
    """No daemon listens at `path`: the socket is missing or stale.

    The message names the path tried and how to start dynd.
    """

    def __init__(self, path: str, reason: str) -> None:
        super().__init__(
            "no dynd is listening on %s (%s); start one with `dynd` (or `dynd --socket %s`; in a "
            "dynd checkout `make run`), or point $DYND_SOCKET at the socket of a running one"
            % (path, reason, path)
        )
        self.path = path
        self.reason = reason


class DyndTimeout(TimeoutError):
    """A reply or an awaited event did not come in time; the message says what was awaited."""


class ConnectionClosed(ConnectionError):
    """The daemon closed the connection (it stopped, or refused a line); `reason` says which
    event announced it, if any."""


#: How much of an offending line an error message quotes, in bytes.
QUOTE_LIMIT = 200


def quote(line: Any) -> str:
    """At most `QUOTE_LIMIT` bytes of `line` (bytes, text, or a parsed message shown as
    ``repr`` shows it), marked ``…(cut: N bytes)`` when longer."""
    if not isinstance(line, (bytes, bytearray)):
        line = (line if isinstance(line, str) else repr(line)).encode("utf-8", "backslashreplace")
    if len(line) <= QUOTE_LIMIT:
        return repr(bytes(line))
    return "%r…(cut: %d bytes)" % (bytes(line[:QUOTE_LIMIT]), len(line))


class BadReply(DyndError):
    """The daemon wrote a line the protocol does not allow (code ``bad_reply``); the message
    says what is wrong and quotes at most `QUOTE_LIMIT` characters of the line. The client has
    closed the connection. The subclasses name the fault; this class itself covers the rest (a
    line that is not an object, has neither ``ok`` nor ``ev``, or lacks a field a message of its
    kind must have)."""

    def __init__(self, message: str, reply: Optional[Dict[str, Any]] = None) -> None:
        super().__init__(BAD_REPLY, message, reply)


class InvalidUTF8(BadReply):
    """A line that is not valid UTF-8."""


class NotJSON(BadReply):
    """A line that is not JSON (or a number JSON cannot hold, such as one of 5 000 digits)."""


class NonFiniteNumber(BadReply):
    """``NaN``, ``Infinity`` or a number that overflows a double (the protocol has none)."""


class TooDeep(BadReply):
    """Arrays and objects nested deeper than the client's limit (64 levels, the daemon's own
    limit)."""


class LineTooLong(BadReply):
    """A line longer than the client's `max_line` (64 MiB by default), refused as soon as that
    many bytes came without a newline. Not the daemon's ``line_too_long`` error reply (a
    `DyndError` about the client's line)."""


class ReplyMismatch(BadReply):
    """A reply that does not answer the request waiting for it: another ``id``, a successful
    reply without the ``id`` (only an error reply may lack it, when the daemon could not read
    the request), or a reply when no request was waiting."""


class TooManyEvents(BadReply):
    """More events came, unread, than the client holds (`max_events` events or
    `max_event_bytes` bytes of their lines): a request's events before its reply, with those
    kept for `next_event`."""
