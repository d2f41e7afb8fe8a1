#!/usr/bin/env python3
"""End-to-end test of `dynctl record` and `dynctl render` (part of `make test`).

    python3 tools/test_render.py BIN_DIR      (the directory holding dynd and dynctl)

Starts a private dynd, records the lock screen and wave-pop, renders HTML and SVG, and checks:
the trace round-trips (the data embedded in the page equals the trace); the SVG is well-formed
XML with a trajectory for every item; the page opens in headless Chromium (Debian's package)
with no script error; and a screenshot at a known time shows each item's colour where the trace
puts the item at that time.
"""

import json
import os
import re
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import time
import unittest
import xml.dom.minidom
import zlib

BIN = None
COLORS = [(0xE8, 0x59, 0x0C), (0x1C, 0x7E, 0xD6), (0x2F, 0x9E, 0x44), (0xAE, 0x3E, 0xC9),
          (0xF0, 0x8C, 0x00), (0x0C, 0x85, 0x99)]
BACKGROUND = (0xF8, 0xF9, 0xFA)


def read_png(path):
    """(width, height, rows of (r, g, b)) of an 8-bit RGB or RGBA PNG."""
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, width = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, color = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and color in (2, 6), "unsupported PNG %d/%d" % (depth, color)
            channels = 3 if color == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * channels
    rows, previous = [], bytearray(stride)
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - channels] if i >= channels else 0
            b = previous[i]
            c = previous[i - channels] if i >= channels else 0
            if kind == 1: line[i] = (line[i] + a) & 255
            elif kind == 2: line[i] = (line[i] + b) & 255
            elif kind == 3: line[i] = (line[i] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append([tuple(line[x * channels:x * channels + 3]) for x in range(width)])
        previous = line
    return width, height, rows


def chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        if shutil.which(name):
            return shutil.which(name)
    return None


class Render(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.mkdtemp(prefix="dynd-render-")
        cls.socket = os.path.join(cls.dir, "d.sock")
        cls.daemon = subprocess.Popen([os.path.join(BIN, "dynd"), "--socket", cls.socket,
                                       "--log-level", "error"])
        try:
            cls.prepare()
        except BaseException:
            cls.tearDownClass()
            raise

    @classmethod
    def prepare(cls):
        for _ in range(200):
            if os.path.exists(cls.socket):
                break
            time.sleep(0.05)
        cls.traces = {
            "lock": ["lock-screen", "--pan", "160,500:160,470", "--duration", "0.1"],
            "wave": ["wave-pop", "--pan", "5,289:200,289", "--duration", "0.4",
                     "--release-velocity", "800,0"],
        }
        for name, args in cls.traces.items():
            cls.dynctl(["record"] + args + ["-o", cls.path(name + ".jsonl")])
        cls.dynctl(["render", cls.path("lock.jsonl"), cls.path("wave.jsonl"),
                    "--html", cls.path("page.html")])
        cls.dynctl(["render", cls.path("wave.jsonl"), "--svg", cls.path("wave.svg")])

    @classmethod
    def tearDownClass(cls):
        cls.daemon.send_signal(signal.SIGTERM)
        cls.daemon.wait(10)
        shutil.rmtree(cls.dir)

    @classmethod
    def path(cls, name):
        return os.path.join(cls.dir, name)

    @classmethod
    def dynctl(cls, args):
        env = dict(os.environ, DYND_SOCKET=cls.socket)
        result = subprocess.run([os.path.join(BIN, "dynctl")] + args, capture_output=True,
                                text=True, timeout=60, env=env)
        if result.returncode != 0:
            raise RuntimeError("dynctl %s: exit %d: %s" % (" ".join(args), result.returncode,
                                                          result.stderr.strip()))

    def trace(self, name):
        return [json.loads(line) for line in open(self.path(name + ".jsonl"))]

    def test_trace_round_trips_through_the_page(self):
        page = open(self.path("page.html")).read()
        embedded = re.search(r'<script type="application/json" id="dynd-traces">(.*?)</script>',
                             page, re.S).group(1).replace("<\\/", "</")
        data = json.loads(embedded)
        self.assertEqual([t["name"] for t in data], ["lock.jsonl", "wave.jsonl"])
        self.assertEqual(data[0]["lines"], self.trace("lock"))
        self.assertEqual(data[1]["lines"], self.trace("wave"))
        self.assertNotIn("http", re.sub(r'xmlns="[^"]*"', "", page.split("<script")[0]))
        self.assertNotIn("<script src", page)

    def test_trace_holds_frames_debug_and_the_gesture(self):
        lines = self.trace("lock")
        self.assertEqual(lines[0]["trace"], 1)
        frames = [l for l in lines if l.get("ev") == "frame"]
        debugs = [l for l in lines if l.get("ev") == "debug"]
        self.assertGreater(len(frames), 20)
        self.assertEqual([f["seq"] for f in frames], [d["seq"] for d in debugs])
        self.assertTrue(any(l.get("sent", {}).get("op") == "gesture" for l in lines))
        self.assertTrue(any(l.get("ev") == "handoff" for l in lines))
        self.assertTrue(any(l.get("ev") == "done" for l in lines))

    def test_svg_is_well_formed_and_draws_every_item(self):
        doc = xml.dom.minidom.parse(self.path("wave.svg"))
        groups = [g for g in doc.getElementsByTagName("g") if g.getAttribute("class") == "item"]
        items = [i["id"] for i in next(l for l in self.trace("wave") if l.get("ok") and l.get("items"))["items"]]
        self.assertEqual([g.getAttribute("data-item") for g in groups], items)
        for g in groups:
            self.assertEqual(len(g.getElementsByTagName("polyline")), 1)
        keys = [g for g in doc.getElementsByTagName("g") if g.getAttribute("class") == "key-frame"]
        self.assertEqual(len(keys), 6)

    @unittest.skipUnless(chromium(), "no Chromium (make deps installs Debian's chromium)")
    def test_page_in_headless_chromium(self):
        when = 0.3
        url = "file://%s#t=%s" % (self.path("page.html"), when)
        common = [chromium(), "--headless", "--no-sandbox", "--disable-gpu",
                  "--force-device-scale-factor=1", "--window-size=900,2400",
                  "--virtual-time-budget=2000"]
        dom = subprocess.run(common + ["--dump-dom", url], capture_output=True, text=True,
                             timeout=120)
        body = re.search(r"<body([^>]*)>", dom.stdout).group(1)
        self.assertIn('data-ready="true"', body, "the player did not start")
        self.assertIn('data-errors="0"', body, "the page raised script errors")
        self.assertNotIn("Uncaught", dom.stderr)
        stages = [list(map(float, s.split(","))) for s in
                  re.search(r'data-stages="([^"]*)"', body).group(1).split(";")]
        shot = self.path("shot.png")
        subprocess.run(common + ["--screenshot=" + shot, url], capture_output=True, timeout=120)
        width, height, rows = read_png(shot)
        for (name, stage) in zip(["lock", "wave"], stages):
            lines = self.trace(name)
            sizes = next(l for l in lines if l.get("ok") and l.get("items"))["items"]
            frame = [l for l in lines if l.get("ev") == "frame" and l["t"] <= when + 1e-9][-1]
            left, top, scale = stage
            for index, size in enumerate(sizes):
                item = next(i for i in frame["items"] if i["id"] == size["id"])
                x, y = item["center"]
                # A point inside the item, off its center (overlay lines pass through centers).
                px = int(round(left + 40 + (x + size["size"][0] * 0.2) * scale))
                py = int(round(top + 40 + (y + size["size"][1] * 0.2) * scale))
                if not (left + 40 <= px < left + 40 + 320 * scale and 0 <= py < height):
                    continue  # off the stage (a to-cell waiting off-screen)
                color = COLORS[index % len(COLORS)]
                expected = [0.85 * c + 0.15 * b for c, b in zip(color, BACKGROUND)]
                got = rows[py][px]
                self.assertTrue(all(abs(g - e) <= 20 for g, e in zip(got, expected)),
                                "%s %s at (%d, %d): %s, expected about %s" %
                                (name, size["id"], px, py, got, [round(e) for e in expected]))


if __name__ == "__main__":
    BIN = sys.argv.pop(1)
    unittest.main()
