#!/usr/bin/env python3
"""What a stream of mistyped session names costs the other clients.

    python3 tools/suggestion_bench.py BIN_DIR [--sessions N] [--requests M]

Starts a private dynd (BIN_DIR/dynd), opens N manual scene sessions whose names are 63 bytes
that differ only at the end (the worst case for the did-you-mean search: every name has the
length of the typo, and shares its prefix), then pipelines M `get` requests naming sessions
that are not open (each a one-byte slip of an open one) while a second connection sends
`hello` every 5 ms. Prints the cost of one mistyped request and the second client's round
trips (BENCHMARKS.md, "Suggestions").
"""

import argparse
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

SCENE = '{"items":[{"id":"a","center":[10,10],"size":[5,5]}]}'


def connect(path):
    s = socket.socket(socket.AF_UNIX)
    s.connect(path)
    return s, s.makefile("rb")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("bin_dir")
    parser.add_argument("--sessions", type=int, default=100)
    parser.add_argument("--requests", type=int, default=5000)
    arguments = parser.parse_args()
    directory = tempfile.mkdtemp(prefix="dynd-suggest.")
    path = os.path.join(directory, "dynd.sock")
    daemon = subprocess.Popen([os.path.join(arguments.bin_dir, "dynd"), "--socket", path,
                               "--log-level", "warning"])
    try:
        deadline = time.monotonic() + 10
        while not os.path.exists(path):
            if daemon.poll() is not None or time.monotonic() > deadline:
                sys.exit("suggestion_bench: dynd did not start")
            time.sleep(0.02)
        client, replies = connect(path)
        base = "x" * 59
        n = arguments.sessions
        client.sendall("".join(
            '{"op":"open","clock":"manual","session":"%s%04d","scene":%s}\n' % (base, i, SCENE)
            for i in range(n)).encode())
        for _ in range(n):
            replies.readline()
        round_trips = []
        stop = threading.Event()

        def probe():
            other, other_replies = connect(path)
            while not stop.is_set():
                started = time.perf_counter()
                other.sendall(b'{"op":"hello"}\n')
                other_replies.readline()
                round_trips.append(time.perf_counter() - started)
                time.sleep(0.005)

        prober = threading.Thread(target=probe)
        prober.start()
        m = arguments.requests
        started = time.perf_counter()
        client.sendall("".join('{"op":"get","session":"%s%04dq"}\n' % (base, i % n)
                               for i in range(m)).encode())
        suggested = 0
        for _ in range(m):
            suggested += b"did you mean" in replies.readline()
        elapsed = time.perf_counter() - started
        stop.set()
        prober.join()
        round_trips.sort()
        print("%d sessions, %d mistyped requests: %.1f us each, %d with a suggestion; "
              "another client's hello: p50 %.2f ms, worst %.2f ms (%d round trips)" % (
                  n, m, elapsed / m * 1e6, suggested, round_trips[len(round_trips) // 2] * 1e3,
                  round_trips[-1] * 1e3, len(round_trips)))
    finally:
        daemon.send_signal(signal.SIGTERM)
        daemon.wait(timeout=10)


if __name__ == "__main__":
    main()
