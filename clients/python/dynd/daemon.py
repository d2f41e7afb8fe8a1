"""A private dynd on a temporary socket, for tests and scripts.

    binary = find_dynd_binary()                  # $DYND_BINARY, PATH, a checkout's .build
    with DyndDaemon.start(binary) as daemon:     # answers hello before it returns
        with daemon.client() as client:
            print(client.hello().version)
    # stopped: SIGTERM, then SIGKILL if it has not exited within the timeout

The pytest plugin (`dynd.pytest_plugin`) wraps both in fixtures.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import tempfile
import time
from typing import IO, List, Mapping, Optional, Sequence, Tuple

from .client import Client
from .errors import DaemonNotRunning, DyndError, DyndTimeout

__all__ = ["DyndDaemon", "find_dynd_binary", "BinaryNotFound", "BinaryMissing", "DaemonFailed"]

#: The longest socket path a Unix socket address holds (``sun_path``, less its NUL).
SUN_PATH_MAX = 107


class BinaryNotFound(LookupError):
    """No dynd binary was found; `places` lists every place looked (the message too)."""

    def __init__(self, places: Sequence[str]) -> None:
        super().__init__(
            "no dynd binary found; looked at: %s. Build dynd (`swift build` in a dynd checkout) "
            "or give its path with --dynd-binary PATH or $DYND_BINARY" % "; ".join(places)
        )
        self.places = list(places)


class BinaryMissing(FileNotFoundError):
    """A dynd binary named explicitly (an option, ``$DYND_BINARY``) is not an executable file."""


class DaemonFailed(RuntimeError):
    """The daemon exited, or did not answer ``hello`` in time; the message has its log."""


def _executable(path: str) -> bool:
    return os.path.isfile(path) and os.access(path, os.X_OK)


def _checkouts(start: str) -> List[str]:
    """The dynd checkouts (a directory with Package.swift and Sources/dynd) at and above
    `start`, nearest first."""
    found = []
    directory = os.path.abspath(start)
    while True:
        if os.path.isfile(os.path.join(directory, "Package.swift")) and os.path.isdir(
            os.path.join(directory, "Sources", "dynd")
        ):
            found.append(directory)
        parent = os.path.dirname(directory)
        if parent == directory:
            return found
        directory = parent


def find_dynd_binary(
    option: Optional[str] = None,
    environ: Mapping[str, str] = os.environ,
    cwd: Optional[str] = None,
) -> str:
    """The dynd binary to run: `option` (e.g. pytest's ``--dynd-binary``), else
    ``$DYND_BINARY``, else ``dynd`` on ``$PATH``, else ``.build/debug/dynd`` then
    ``.build/release/dynd`` of the nearest dynd checkout at or above `cwd` (default: the
    current directory). Raises `BinaryMissing` when `option` or ``$DYND_BINARY`` names no
    executable file (an explicit choice is never replaced by a guess), `BinaryNotFound`
    naming every place looked when nothing is found."""
    for origin, chosen in (("--dynd-binary", option), ("$DYND_BINARY", environ.get("DYND_BINARY"))):
        if chosen:
            if not _executable(chosen):
                raise BinaryMissing(
                    "%s names %s, which is not an executable file; build dynd (`swift build`) "
                    "or fix the path" % (origin, chosen)
                )
            return os.path.abspath(chosen)
    places = ["--dynd-binary (not given)", "$DYND_BINARY (not set)"]
    on_path = shutil.which("dynd", path=environ.get("PATH"))
    if on_path:
        return on_path
    places.append("dynd on $PATH (%s)" % (environ.get("PATH") or "empty"))
    start = os.getcwd() if cwd is None else cwd
    checkouts = _checkouts(start)
    if not checkouts:
        places.append(
            "a dynd checkout (Package.swift and Sources/dynd) at or above %s (none)" % start
        )
    for checkout in checkouts:
        for build in ("debug", "release"):
            candidate = os.path.join(checkout, ".build", build, "dynd")
            if _executable(candidate):
                return candidate
            places.append(candidate)
    raise BinaryNotFound(places)


def _socket_directory() -> str:
    """A fresh private directory (0700) whose socket path fits ``sun_path``."""
    directory = tempfile.mkdtemp(prefix="dynd-test-")
    if len(os.path.join(directory, "dynd.sock")) > SUN_PATH_MAX:
        os.rmdir(directory)
        directory = tempfile.mkdtemp(prefix="dynd-test-", dir="/tmp")
    return directory


class DyndDaemon:
    """A dynd process serving `socket` in the private temporary `directory`; its standard
    error goes to `log_path`. Make one with `start`; `stop` ends it and removes the directory.
    """

    def __init__(
        self, binary: str, directory: str, process: "subprocess.Popen[bytes]", log: IO[bytes]
    ) -> None:
        """Wraps a started process; use `start`."""
        self.binary = binary
        self.directory = directory
        self.socket = os.path.join(directory, "dynd.sock")
        self.log_path = os.path.join(directory, "dynd.log")
        self.process = process
        self._log = log
        self.exit_status: Optional[int] = None

    @classmethod
    def start(
        cls,
        binary: str,
        arguments: Sequence[str] = ("--log-level", "error"),
        timeout: float = 10.0,
    ) -> DyndDaemon:
        """Starts `binary` with ``--socket`` in a fresh private directory and `arguments`, and
        waits until the socket answers ``hello`` (at most `timeout` seconds: else
        `DaemonFailed`, with the daemon's log, and the daemon stopped)."""
        directory = _socket_directory()
        environment = {
            k: v
            for k, v in os.environ.items()
            if k not in ("DYND_SOCKET", "LISTEN_PID", "LISTEN_FDS", "LISTEN_FDNAMES")
        }
        log = open(os.path.join(directory, "dynd.log"), "wb")
        try:
            process = subprocess.Popen(
                [binary, "--socket", os.path.join(directory, "dynd.sock"), *arguments],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=log,
                env=environment,
            )
        except BaseException:
            log.close()
            shutil.rmtree(directory, ignore_errors=True)
            raise
        daemon = cls(binary, directory, process, log)
        try:
            daemon._wait_until_ready(timeout)
        except BaseException:
            daemon.stop()
            raise
        return daemon

    def _wait_until_ready(self, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        last = "the socket did not appear"
        while True:
            status = self.process.poll()
            if status is not None:
                raise DaemonFailed(
                    "%s exited with status %d before answering hello on %s%s"
                    % (self.binary, status, self.socket, self._log_tail())
                )
            try:
                with Client(self.socket, timeout=max(0.1, deadline - time.monotonic())) as client:
                    client.hello()
                return
            except DaemonNotRunning as error:
                last = error.reason
            except (DyndError, DyndTimeout, OSError) as error:
                last = str(error)
            if time.monotonic() >= deadline:
                raise DaemonFailed(
                    "%s did not answer hello on %s within %g s (%s)%s"
                    % (self.binary, self.socket, timeout, last, self._log_tail())
                )
            time.sleep(0.01)

    def _log_tail(self, lines: int = 20) -> str:
        try:
            with open(self.log_path, "rb") as handle:
                text = handle.read().decode("utf-8", "replace")
        except OSError:
            return ""
        tail = text.strip().splitlines()[-lines:]
        return "; its log:\n" + "\n".join(tail) if tail else "; its log is empty"

    def log(self) -> str:
        """What the daemon wrote to standard error so far."""
        try:
            with open(self.log_path, "rb") as handle:
                return handle.read().decode("utf-8", "replace")
        except OSError:
            return ""

    @property
    def running(self) -> bool:
        """Whether the process has not exited."""
        return self.process.poll() is None

    def client(self, timeout: Optional[float] = 10.0) -> Client:
        """A new blocking client connected to this daemon."""
        return Client(self.socket, timeout=timeout)

    def stop(self, timeout: float = 5.0) -> Tuple[Optional[int], str]:
        """Stops the daemon: SIGTERM, a wait of at most `timeout` seconds, SIGKILL if it is
        still running; removes its directory. Returns its exit status (negative: the signal
        that ended it) and its log. Stopping twice is harmless."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.exit_status = self.process.returncode
        log = self.log()
        self._log.close()
        shutil.rmtree(self.directory, ignore_errors=True)
        return self.exit_status, log

    def __enter__(self) -> DyndDaemon:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
