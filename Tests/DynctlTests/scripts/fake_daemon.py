#!/usr/bin/env python3
"""A stand-in for dynd in the client tests: listens on a Unix socket and records what it gets.

    fake_daemon.py SOCKET LOG [--reply LINE]... [--script FILE] [--seconds N]

Binds SOCKET with mode 0777 (so a client of any uid can connect) and appends to LOG, one line
each: `listening` once ready; `connection` when a client connects; `closed BYTES` when it hangs
up, with the number of bytes it sent. With --reply, every line received is answered with the
given lines, in order; with --script, the Nth line received is answered with the Nth group of
FILE's JSON lines, a group being the event lines (with "ev") up to and including the next reply
(a recorded conversation, replayed, perhaps altered); without either, nothing is ever
answered. The tests end it with SIGKILL; it
exits by itself after --seconds (default 30), so a test that forgets it leaves nothing behind.

The tests start it as another user (`setpriv --reuid=…`) to play another user's daemon: the
kernel then reports that uid to the client (SO_PEERCRED, taken at listen time).
"""

import argparse
import json
import os
import socket
import sys
import threading


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("socket")
    parser.add_argument("log")
    parser.add_argument("--reply", action="append", default=[])
    parser.add_argument("--script")
    parser.add_argument("--seconds", type=float, default=30)
    args = parser.parse_args()

    lock = threading.Lock()
    groups = []
    if args.script:
        with open(args.script, encoding="utf-8") as f:
            group = []
            for line in f.read().splitlines():
                group.append(line)
                if "ev" not in json.loads(line):
                    groups.append(group)
                    group = []

    def log(text):
        with lock, open(args.log, "a") as f:
            f.write(text + "\n")

    if os.path.lexists(args.socket):
        os.unlink(args.socket)
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(args.socket)
    os.chmod(args.socket, 0o777)
    server.listen(16)
    threading.Timer(args.seconds, lambda: os._exit(0)).start()
    log("listening")

    def serve(connection):
        received = 0
        pending = b""
        with connection:
            while True:
                try:
                    chunk = connection.recv(65536)
                except OSError:
                    break
                if not chunk:
                    break
                received += len(chunk)
                pending += chunk
                while b"\n" in pending and (args.reply or groups):
                    _, pending = pending.split(b"\n", 1)
                    for line in args.reply or (groups.pop(0) if groups else []):
                        connection.sendall(line.encode("utf-8") + b"\n")
        log("closed %d" % received)

    while True:
        connection, _ = server.accept()
        log("connection")
        threading.Thread(target=serve, args=(connection,), daemon=True).start()


if __name__ == "__main__":
    sys.exit(main())
