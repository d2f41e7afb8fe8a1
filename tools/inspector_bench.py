#!/usr/bin/env python3
"""What the inspector's bridge costs (BENCHMARKS.md, "Inspector").

    python3 tools/inspector_bench.py BIN_DIR [--seconds 5] [--round-trips 300]

Starts a private dynd and dynd-inspect from BIN_DIR (the release build for the table), opens the
page in Debian's Chromium through Playwright, and measures, in the page:

- round trips of `get` from the page (page → WebSocket → dynd-inspect → dynd and back), against
  the same requests from a Python client on dynd's socket directly, and from a plain WebSocket
  client (this script's, no browser) through dynd-inspect: what the bridge adds, and what the
  browser adds to it;
- frames of a realtime session that never rests (a spring that does not damp, 60 fps) as the
  page receives them for --seconds: how many arrive against the session's own frame times, and
  the gaps between arrivals.

Prints one Markdown table. The figures depend on the machine's load: run it on an idle one.
"""

import argparse
import base64
import json
import os
import shutil
import signal
import socket
import statistics
import struct
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "clients", "python"))

from dynd import Client  # noqa: E402

SWINGING = {
    "bounds": [320, 568],
    "items": [{"id": "bob", "center": [160, 400], "size": [40, 40]}],
    "behaviors": [{"type": "attachment", "id": "spring", "item": "bob", "anchor": [160, 200],
                   "length": 100, "frequency": 1.5, "damping": 0}],
}


class PlainWebSocket:
    """The least WebSocket client (RFC 6455) that can talk to dynd-inspect: text messages only,
    each in one frame, the client's masked."""

    def __init__(self, url):
        host, rest = url.split("//", 1)[1].split("/", 1)
        name, port = host.split(":")
        self.sock = socket.create_connection((name, int(port)))
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        key = base64.b64encode(os.urandom(16)).decode()
        query = rest.split("?", 1)[1]
        self.sock.sendall(("GET /ws?%s HTTP/1.1\r\nHost: %s\r\nOrigin: http://%s\r\n"
                           "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: %s\r\n"
                           "Sec-WebSocket-Version: 13\r\n\r\n" % (query, host, host, key)).encode())
        self.buffer = b""
        while b"\r\n\r\n" not in self.buffer:
            self.buffer += self.sock.recv(4096)
        head, self.buffer = self.buffer.split(b"\r\n\r\n", 1)
        if b" 101 " not in head.split(b"\r\n")[0]:
            raise RuntimeError("the upgrade was refused: %r" % head[:200])

    def send(self, text):
        data, mask = text.encode(), os.urandom(4)
        length = len(data)
        header = struct.pack("!B", 0x81) + (struct.pack("!B", 0x80 | length) if length < 126
                                            else struct.pack("!BH", 0x80 | 126, length))
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(data))
        self.sock.sendall(header + mask + masked)

    def _take(self, count):
        while len(self.buffer) < count:
            self.buffer += self.sock.recv(65536)
        out, self.buffer = self.buffer[:count], self.buffer[count:]
        return out

    def receive(self):
        first, second = self._take(2)
        length = second & 0x7F
        if length == 126:
            length = struct.unpack("!H", self._take(2))[0]
        elif length == 127:
            length = struct.unpack("!Q", self._take(8))[0]
        payload = self._take(length)
        if first & 0x0F != 1:
            raise RuntimeError("not a text message (opcode %d)" % (first & 0x0F))
        return payload.decode()

    def close(self):
        self.sock.close()


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("bin_dir", help="the directory holding dynd")
    parser.add_argument("--inspect", help="the dynd-inspect binary (inspector/'s package builds "
                        "it; default: BIN_DIR/dynd-inspect)")
    parser.add_argument("--seconds", type=float, default=5)
    parser.add_argument("--round-trips", type=int, default=300)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    folder = tempfile.mkdtemp(prefix="dynd-inspector-bench.")
    socket_path = os.path.join(folder, "dynd.sock")
    dynd = subprocess.Popen([os.path.join(args.bin_dir, "dynd"), "--socket", socket_path,
                             "--log-level", "warning"])
    inspector = None
    try:
        while not os.path.exists(socket_path):
            time.sleep(0.02)
        inspector = subprocess.Popen([args.inspect or os.path.join(args.bin_dir, "dynd-inspect"), "--socket",
                                      socket_path], stdout=subprocess.PIPE, text=True)
        url = None
        while url is None:
            line = inspector.stdout.readline()
            if line.startswith("dynd-inspect: open "):
                url = line.split("open ", 1)[1].strip()
        client = Client(socket_path)
        client.open_scene(SWINGING, session="swing", keep=True)

        direct = []
        for _ in range(args.round_trips):
            start = time.perf_counter()
            client.request("get", session="swing")
            direct.append((time.perf_counter() - start) * 1000)
        plain = PlainWebSocket(url)
        bridge_only = []
        for number in range(args.round_trips):
            start = time.perf_counter()
            plain.send(json.dumps({"op": "get", "id": number, "session": "swing"}))
            while '"ok"' not in plain.receive():
                pass
            bridge_only.append((time.perf_counter() - start) * 1000)
        plain.close()

        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=shutil.which("chromium"),
                                                 args=["--no-sandbox"])
            page = browser.new_page()
            page.goto(url)
            while not page.evaluate("!!(window.dyndInspector && window.dyndInspector.hello)"):
                time.sleep(0.05)
            page.click("#sessions tr[data-session='swing']")
            while not page.evaluate("!!(window.dyndInspector.view && window.dyndInspector.view.stage)"):
                time.sleep(0.05)
            bridged = page.evaluate("""async (count) => {
                const view = window.dyndInspector.view, out = [];
                for (let i = 0; i < count; i++) {
                  const start = performance.now();
                  await view.link.request({ op: "get", session: "swing" });
                  out.push(performance.now() - start);
                }
                return out;
              }""", args.round_trips)
            frames = page.evaluate("""(seconds) => new Promise(resolve => {
                const view = window.dyndInspector.view, arrivals = [];
                const listener = (direction, line) => {
                  if (direction === "received" && line.ev === "frame") arrivals.push([performance.now(), line.t]);
                };
                view.link.listeners.add(listener);
                setTimeout(() => { view.link.listeners.delete(listener); resolve(arrivals); }, seconds * 1000);
              })""", args.seconds)
            browser.close()
        client.close()
    finally:
        for process in (inspector, dynd):
            if process:
                process.send_signal(signal.SIGTERM)
                process.wait(10)
        shutil.rmtree(folder, ignore_errors=True)

    gaps = [b[0] - a[0] for a, b in zip(frames, frames[1:])]
    span = frames[-1][1] - frames[0][1] if len(frames) > 1 else 0
    expected = round(span * 60) + 1
    print("| measure | p50 | p99 | max |")
    print("|---|---|---|---|")
    for label, values in (("`get` round trip, Python client on dynd's socket (ms)", direct),
                          ("`get` round trip, a WebSocket client through dynd-inspect (ms)",
                           bridge_only),
                          ("`get` round trip from the page through dynd-inspect (ms)", bridged),
                          ("gap between frames arriving in the page (ms)", gaps)):
        print("| %s | %.2f | %.2f | %.2f |" % (label, statistics.median(values),
                                                percentile(values, 99), max(values)))
    print()
    print("frames received in the page: %d of %d the session made in %.2f s of its time (%.1f %%)"
          % (len(frames), expected, span, 100.0 * len(frames) / max(1, expected)))


if __name__ == "__main__":
    main()
