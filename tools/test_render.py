#!/usr/bin/env python3
"""End-to-end test of `dynctl record` and `dynctl render` (part of `make test`).

    python3 tools/test_render.py BIN_DIR      (the directory holding dynd and dynctl)

Starts a private dynd and records: the lock screen (a slow pull that closes, and a throw that
opens with gravity 4 and with 8), wave-pop, sidebar-menu, a scene (--scene) and a session
someone else drives (--session). Renders HTML (one player per trace, and --overlay for the
two gravities) and SVG, and checks: the trace round-trips (the data embedded in the page equals
the trace); the SVG is well-formed, sized to its content (no empty band) and shows wave-pop's
wave (rows half-way later and later with their distance from the dragged one); the page opens
in headless Chromium (Debian's package, one browser for the run driven by Playwright, a new page
for each look) with no script or console error, draws its stages and plots as
soon as it is opened without "#t=", and has a header giving each trace's
outcome, handoff numbers and parameters; screenshots show each item's colour where the trace
puts it (translucent, large items fainter, the dragged one on top) and the bounds' colour where
it is not, item names on the items, and in the overlay both traces in their own colours on one
stage and one set of axes; and StageScript's source works in a page of its own (one global,
points to pixels and back, a legend). Fields, regions and groups (debug's `fields` and `groups`,
from the hand-made trace of tools/fixtures/fields_trace.py, as dynd does not emit them yet): the
page draws each field's arrows in its colour at its samples, tints its region (each combinator)
and nothing where the region excludes, outlines the group and lists each field in the legend,
with checkboxes; in a page of its own the stage's region membership follows UIRegion, each
layer switches off completely, and a legend made before the fields are drawn lists them after.
Traces without them draw exactly as before: the same pixels as with the stage of
tools/fixtures/stage-before-fields.js. Where a release lands (issue 38, point 2): a sheet and
a fling recorded, their header giving the projection, the landing, the spring's or decay's
constants and the spring in every platform's terms (as dynd reports them); the stage naming
the sheet's detents and, from the release on, marking the projection and the landing; the
position plot with the closed form (the page's dyndMotion) behind frames it agrees with to
0.01 pt; the sheet's rail drawn and listed as a rail. The layout (point 7): stage and plot side
by side at 1400×900 and 1920×1080, stacked on a phone, one time display, the screenshots of
each kept. DYND_RENDER_KEEP=DIR copies the pages and screenshots to DIR.
"""

import base64
import html
import itertools
import json
import math
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

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "fixtures"))
import fields_trace  # noqa: E402  (a hand-made trace with fields, regions and a group)

BIN = None
COLORS = [(0xE8, 0x59, 0x0C), (0x1C, 0x7E, 0xD6), (0x2F, 0x9E, 0x44), (0xAE, 0x3E, 0xC9),
          (0xF0, 0x8C, 0x00), (0x0C, 0x85, 0x99)]
BACKGROUND = (0xF8, 0xF9, 0xFA)
# StageScript's makeDyndStage.FIELD_COLORS (fields, in the order met) and COLORS.group.
FIELD_COLORS = [(0xD6, 0x33, 0x6C), (0x66, 0xA8, 0x0F), (0x3B, 0x5B, 0xDB), (0x9C, 0x66, 0x44),
                (0x15, 0xAA, 0xBF)]
GROUP_COLOR = (0x08, 0x7F, 0x5B)
TINT_ALPHA = 0.14
BOUNDS = (0, 0, 320, 568)
WHEN = 0.3
# A scene that comes to rest: a box and a ball dropped on the floor.
SCENE = {"bounds": [320, 568],
         "items": [{"id": "box", "center": [160, 100], "size": [80, 80]},
                   {"id": "ball", "center": [100, 50], "size": [30, 30], "shape": "ellipse"}],
         "behaviors": [{"type": "gravity", "items": ["box", "ball"]},
                       {"type": "collision", "items": ["box", "ball"], "reference_bounds": True}]}


def read_png(path):
    """(width, height, rows of (r, g, b)) of an 8-bit RGB or RGBA PNG."""
    with open(path, "rb") as f:
        data = f.read()
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
    # Up (2), the filter of every row of a screenshot taken for speed (`screenshot`), adds the
    # row above byte by byte: done on whole rows as integers, each byte's carry kept out of the
    # next (bit 7 of each sum put back by XOR).
    low7 = int.from_bytes(b"\x7f" * stride, "big")
    rows, previous = [], bytearray(stride)
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        if kind == 2:
            a, b = int.from_bytes(line, "big"), int.from_bytes(previous, "big")
            line = (((a & low7) + (b & low7)) ^ ((a ^ b) & ~low7)).to_bytes(stride, "big")
            line = bytearray(line)
        elif kind != 0:
            for i in range(stride):
                a = line[i - channels] if i >= channels else 0
                b = previous[i]
                c = previous[i - channels] if i >= channels else 0
                if kind == 1: line[i] = (line[i] + a) & 255
                elif kind == 3: line[i] = (line[i] + (a + b) // 2) & 255
                elif kind == 4:
                    p = a + b - c
                    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                    nearest = a if pa <= pb and pa <= pc else b if pb <= pc else c
                    line[i] = (line[i] + nearest) & 255
        rows.append(list(zip(line[0::channels], line[1::channels], line[2::channels])))
        previous = line
    return width, height, rows


def screenshot(page, path):
    """The viewport of a Playwright page as a PNG at `path`, encoded for speed (Chromium's
    optimizeForSpeed: every row filtered Up, which read_png decodes fastest; the pixels are
    the same as Playwright's own screenshot's)."""
    cdp = page.context.new_cdp_session(page)
    try:
        shot = cdp.send("Page.captureScreenshot", {"format": "png", "optimizeForSpeed": True})
    finally:
        cdp.detach()
    with open(path, "wb") as f:
        f.write(base64.b64decode(shot["data"]))


def chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        if shutil.which(name):
            return shutil.which(name)
    return None


def has_playwright():
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return False
    return True


HAS_BROWSER = bool(chromium()) and has_playwright()
HOSTILE_NAMES = ["<!--<script>", "</script>", "<script>", "<!--", "<b>bold</b> & more"]
HOSTILE = HOSTILE_NAMES[0]


def hostile_trace():
    """A joined session's trace (`record --session`) whose session and items have the names
    of HOSTILE_NAMES."""
    items = [{"id": name, "center": [60 + 50 * k, 200], "angle": 0, "velocity": [0, 0],
              "angular_velocity": 0, "size": [40, 40]} for k, name in enumerate(HOSTILE_NAMES)]
    return [{"trace": 1, "source": "session", "session": HOSTILE_NAMES[0]},
            {"ok": True, "t": 0, "session": HOSTILE_NAMES[0], "items": items},
            {"ev": "frame", "session": HOSTILE_NAMES[0], "seq": 1, "t": 0.1, "items": items}]
BROWSER_SKIP = "no Chromium or no Playwright (make test-deps installs Debian's and Playwright)"


def blend(color, under, alpha):
    return tuple(alpha * c + (1 - alpha) * u for c, u in zip(color, under))


def fill_alpha(size):
    """The stage's fill opacity of an item (StageScript's makeDyndStage.fillAlpha)."""
    return 0.2 if size[0] * size[1] >= 0.5 * BOUNDS[2] * BOUNDS[3] else 0.4


def close(got, expected, tolerance):
    return all(abs(g - e) <= tolerance for g, e in zip(got, expected))


class Render(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.mkdtemp(prefix="dynd-render-")
        cls.socket = os.path.join(cls.dir, "d.sock")
        cls.daemon = subprocess.Popen([os.path.join(BIN, "dynd"), "--socket", cls.socket,
                                       "--log-level", "error"])
        cls.manager = cls.browser = None
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
        throw = ["--pan", "160,500:160,380", "--duration", "0.2", "--release-velocity", "0,-1400"]
        cls.traces = {
            "lock": ["lock-screen", "--pan", "160,500:160,470", "--duration", "0.1"],
            "wave": ["wave-pop", "--pan", "5,289:200,289", "--duration", "0.4",
                     "--release-velocity", "800,0"],
            "side": ["sidebar-menu", "--pan", "10,300:100,300", "--duration", "0.2",
                     "--release-velocity", "600,0"],
            "lock4": ["lock-screen", "--param", "gravity=4"] + throw,
            "lock8": ["lock-screen", "--param", "gravity=8"] + throw,
            "sheet": ["sheet", "--pan", "160,500:160,400", "--duration", "0.2",
                      "--release-velocity", "0,-2000"],
            "fling": ["fling", "--param", "friction=2", "--pan", "170,264:170,264",
                      "--duration", "0.1", "--release-velocity", "600,-1200"],
        }
        for name, args in cls.traces.items():
            cls.dynctl(["record"] + args + ["-o", cls.path(name + ".jsonl")])
        with open(cls.path("rest.json"), "w") as f:
            json.dump(SCENE, f)
        cls.dynctl(["record", "--scene", cls.path("rest.json"), "-o", cls.path("scene.jsonl")])
        cls.record_joined()
        render = lambda *args: cls.dynctl(["render"] + [a if a.startswith("--") else cls.path(a)
                                                         for a in args])
        render("lock.jsonl", "wave.jsonl", "side.jsonl", "--html", "page.html")
        for name in ("lock4", "wave", "side"):
            render(name + ".jsonl", "--html", name + ".html")
        render("lock4.jsonl", "lock8.jsonl", "--overlay", "--html", "overlay.html")
        render("scene.jsonl", "joined.jsonl", "--html", "sources.html")
        render("wave.jsonl", "--svg", "wave.svg")
        with open(cls.path("fields.jsonl"), "w") as f:
            for line in fields_trace.trace():
                f.write(json.dumps(line, separators=(",", ":")) + "\n")
        render("fields.jsonl", "--html", "fields.html")
        render("lock4.jsonl", "--svg", "lock4.svg")
        render("sheet.jsonl", "fling.jsonl", "--html", "landing.html")
        # Names that are HTML, script and comment openers (issue 39, point 6), in the trace's
        # file name, session and items, beside an ordinary trace.
        with open(cls.path(HOSTILE + ".jsonl"), "w") as f:
            for line in hostile_trace():
                f.write(json.dumps(line, separators=(",", ":"), ensure_ascii=False) + "\n")
        render(HOSTILE + ".jsonl", "lock.jsonl", "--html", "hostile.html")

    @classmethod
    def record_joined(cls):
        """A session opened and driven by other dynctl processes, recorded with --session."""
        cls.dynctl(["open", "lock-screen", "--session", "joined", "--clock", "manual", "--param",
                    "gravity=8"])
        recorder = subprocess.Popen(
            [os.path.join(BIN, "dynctl"), "record", "--session", "joined", "--max-seconds", "20",
             "-o", cls.path("joined.jsonl")], env=dict(os.environ, DYND_SOCKET=cls.socket),
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        # Its first line says it records: it got the session, listed it, turned the debug
        # stream on.
        recorder.stdout.readline()
        cls.dynctl(["gesture", "joined", "--from", "160,500", "--to", "160,380", "--duration",
                    "0.2", "--release-velocity", "0,-1400"])
        cls.dynctl(["step", "joined", "--count", "120"])
        out, err = recorder.communicate(timeout=60)
        if recorder.returncode != 0:
            raise RuntimeError("record --session: exit %d: %s" % (recorder.returncode, err))

    @classmethod
    def tearDownClass(cls):
        if cls.browser:
            cls.browser.close()
            cls.manager.stop()
        cls.daemon.send_signal(signal.SIGTERM)
        cls.daemon.wait(10)
        keep = os.environ.get("DYND_RENDER_KEEP")
        if keep:
            os.makedirs(keep, exist_ok=True)
            for name in os.listdir(cls.dir):
                if name.endswith((".png", ".html", ".svg", ".jsonl")):
                    shutil.copy(os.path.join(cls.dir, name), keep)
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
        return result

    def trace(self, name):
        with open(self.path(name + ".jsonl")) as f:
            return [json.loads(line) for line in f]

    def sizes(self, name):
        return next(l for l in self.trace(name) if l.get("ok") and l.get("items"))["items"]

    def frame_at(self, name, when):
        """The frame the player shows at `when` seconds (the open reply's state before any)."""
        lines = self.trace(name)
        frames = [l for l in lines if l.get("ev") == "frame" and l["t"] <= when + 1e-9]
        return frames[-1] if frames else {"items": self.sizes(name)}

    # The traces.

    def test_trace_round_trips_through_the_page(self):
        with open(self.path("page.html")) as f:
            page = f.read()
        embedded = re.search(r'<script type="application/json" id="dynd-traces">(.*?)</script>',
                             page, re.S).group(1)
        data = json.loads(embedded)
        self.assertEqual([t["name"] for t in data], ["lock.jsonl", "wave.jsonl", "side.jsonl"])
        self.assertEqual(data[0]["lines"], self.trace("lock"))
        self.assertEqual(data[1]["lines"], self.trace("wave"))
        self.assertNotIn("http", re.sub(r'xmlns="[^"]*"', "", page.split("<script")[0]))
        self.assertNotIn("<script src", page)

    def test_trace_holds_frames_debug_and_the_gesture(self):
        lines = self.trace("lock")
        self.assertEqual(lines[0]["trace"], 1)
        self.assertEqual(lines[0]["source"], "transition")
        frames = [l for l in lines if l.get("ev") == "frame"]
        debugs = [l for l in lines if l.get("ev") == "debug"]
        self.assertGreater(len(frames), 20)
        self.assertEqual([f["seq"] for f in frames], [d["seq"] for d in debugs])
        self.assertTrue(any(l.get("sent", {}).get("op") == "gesture" for l in lines))
        self.assertTrue(any(l.get("ev") == "handoff" for l in lines))
        self.assertTrue(any(l.get("ev") == "done" for l in lines))
        opened = next(l["sent"] for l in self.trace("lock8") if l.get("sent", {}).get("op") == "open")
        self.assertEqual(opened["params"], {"gravity": 8})

    def test_scene_recording_runs_until_rest(self):
        lines = self.trace("scene")
        self.assertEqual((lines[0]["source"], lines[0]["transition"]), ("scene", None))
        self.assertEqual(lines[0]["bounds"], [0, 0, 320, 568])
        opened = next(l["sent"] for l in lines if l.get("sent", {}).get("op") == "open")
        self.assertEqual(opened["scene"]["items"][1]["shape"], "ellipse")
        self.assertFalse(any(l.get("sent", {}).get("op") in ("gesture", "tap", "swipe") for l in lines))
        frames = [l for l in lines if l.get("ev") == "frame"]
        self.assertGreater(len(frames), 10)
        self.assertEqual(lines[-2].get("ev"), "pause", "the recording ends when the scene rests")
        self.assertEqual([f["seq"] for f in frames],
                         [l["seq"] for l in lines if l.get("ev") == "debug"])

    def test_joined_recording_sends_nothing_but_watches(self):
        lines = self.trace("joined")
        self.assertEqual(lines[0]["source"], "session")
        self.assertEqual(lines[0]["transition"], "lock-screen")
        self.assertEqual(lines[0]["session"], "joined")
        self.assertEqual([l["sent"]["op"] for l in lines if "sent" in l],
                         ["get", "list", "hello", "debug"])
        self.assertTrue(self.sizes("joined")[0]["size"], [320, 568])
        frames = [l for l in lines if l.get("ev") == "frame"]
        self.assertGreater(len(frames), 10)
        handoff = next(l for l in lines if l.get("ev") == "handoff")
        self.assertEqual(handoff["gesture_velocity"], [0, -1400])
        self.assertEqual(lines[-1], {"ev": "done", "session": "joined", "outcome": "opened"})
        # The get reply reports the parameters it was opened with; the SVG's header shows the
        # one away from its default.
        self.assertEqual(next(l for l in lines if l.get("ok") and "items" in l)["params"]["gravity"], 8)
        self.dynctl(["render", self.path("joined.jsonl"), "--svg", self.path("joined.svg")])
        with open(self.path("joined.svg")) as svg:
            self.assertIn("parameters: gravity = 8 × 1000 pt/s² (default 4); the others at "
                          "their defaults", svg.read())

    # The SVG.

    def test_svg_is_well_formed_and_draws_every_moving_item(self):
        doc = xml.dom.minidom.parse(self.path("wave.svg"))
        groups = [g for g in doc.getElementsByTagName("g") if g.getAttribute("class") == "item"]
        items = [i["id"] for i in self.sizes("wave")]
        self.assertEqual([g.getAttribute("data-item") for g in groups], items)
        for g in groups:
            self.assertEqual(len(g.getElementsByTagName("polyline")), 1)
        keys = [g for g in doc.getElementsByTagName("svg") if g.getAttribute("class") == "key-frame"]
        self.assertEqual(len(keys), 6)
        text = doc.documentElement.toxml()
        self.assertIn("wave-pop — popped at", text)
        self.assertIn("gesture_velocity (800, 0) pt/s → item_velocity (800, 0) pt/s", text)
        lock = xml.dom.minidom.parse(self.path("lock4.svg")).documentElement.toxml()
        self.assertIn("parameters: gravity = 4 × 1000 pt/s² (default 4); the others at their defaults", lock)

    @unittest.skipUnless(HAS_BROWSER, BROWSER_SKIP)
    def test_svg_fits_its_content(self):
        """Chromium lays the SVG out at its size; the union of its elements' boxes (all but the
        white background) must reach within 24 px of every side and not beyond it."""
        for name in ("wave.svg", "lock4.svg"):
            with open(self.path(name)) as f:
                svg = f.read()
            root = xml.dom.minidom.parseString(svg).documentElement
            box = [float(v) for v in root.getAttribute("viewBox").split()]
            self.assertEqual(box[:2], [0, 0], name)
            self.assertEqual((float(root.getAttribute("width")), float(root.getAttribute("height"))),
                             (box[2], box[3]), name)
            page = self.path(name + ".html")
            with open(page, "w") as f:
                f.write('<!DOCTYPE html><html><body style="margin:0">%s<script>'
                        'let u=null;const walk=e=>{for(const c of e.children){'
                        'if(["title","defs","clipPath"].includes(c.tagName)||c.getAttribute("width")==="100%%")continue;'
                        'if(c.tagName==="g"){walk(c);continue;}'
                        'const a=n=>Number(c.getAttribute(n));const r=c.tagName==="svg"?{left:a("x"),'
                        'top:a("y"),right:a("x")+a("width"),bottom:a("y")+a("height"),width:1}'
                        ':c.getBoundingClientRect();if(!r.width&&!r.height)continue;'
                        'u=u?[Math.min(u[0],r.left),Math.min(u[1],r.top),Math.max(u[2],r.right),Math.max(u[3],r.bottom)]'
                        ':[r.left,r.top,r.right,r.bottom];}};walk(document.querySelector("svg"));'
                        'document.body.dataset.extent=u.join(",");'
                        '</script></body></html>' % svg.split("?>", 1)[1])
            dom = self.load(name + ".html", 1400, 1600)[0]
            x0, y0, x1, y1 = map(float, re.search(r'data-extent="([^"]*)"', dom).group(1).split(","))
            self.assertLessEqual(max(x0, y0), 24, "%s: content starts at %s, %s" % (name, x0, y0))
            self.assertGreaterEqual(x1, box[2] - 24, "%s: content ends at x %s of %s" % (name, x1, box[2]))
            self.assertGreaterEqual(y1, box[3] - 24, "%s: content ends at y %s of %s" % (name, y1, box[3]))
            self.assertLessEqual(x1, box[2] + 1, "%s: content overflows to x %s" % (name, x1))
            self.assertLessEqual(y1, box[3] + 1, "%s: content overflows to y %s" % (name, y1))

    def test_svg_shows_the_wave(self):
        """The pan selects row 4 (y 289); the other rows get half-way later with their distance
        from it: the half-way dots, read from the SVG, slope away from row 4 on both sides."""
        doc = xml.dom.minidom.parse(self.path("wave.svg"))
        half = {}
        for g in doc.getElementsByTagName("g"):
            if g.getAttribute("class") == "item":
                dots = g.getElementsByTagName("circle")
                if dots:
                    half[g.getAttribute("data-item")] = float(dots[0].getAttribute("cx"))
        rows = [half["from-%d" % i] for i in range(10)]
        self.assertEqual(min(rows), rows[4], rows)
        for i in range(4):
            self.assertLessEqual(rows[i + 1], rows[i] + 0.5, rows)
        for i in range(5, 10):
            self.assertGreaterEqual(rows[i], rows[i - 1] - 0.5, rows)
        self.assertGreater(rows[9] - rows[4], 8, "the wave must be visible: %s" % rows)
        lines = [l for l in doc.getElementsByTagName("line") if l.getAttribute("class") == "wave"]
        self.assertGreaterEqual(len(lines), 9)

    # The pages in a browser.

    def load(self, name, width, height, fragment=""):
        """The <body> of the file `name` (with `fragment`, e.g. "#t=0.3") as HTML, without its
        scripts (a page's traces are a megabyte of JSON), once loaded in a new page of width ×
        height CSS pixels of the run's one headless Chromium (Debian's, driven by Playwright,
        started at first use), and that page, open until the test ends. Every page draws from
        its inline scripts, so "loaded" is drawn. Fails on script and console errors."""
        if self.browser is None:
            from playwright.sync_api import sync_playwright
            type(self).manager = sync_playwright().start()
            # --no-sandbox: Chromium's sandbox refuses to run as root, as CI does.
            type(self).browser = self.manager.chromium.launch(
                executable_path=chromium(), args=["--no-sandbox", "--disable-gpu"])
        page = self.browser.new_page(viewport={"width": width, "height": height},
                                     device_scale_factor=1)
        self.addCleanup(page.close)
        errors = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.on("console", lambda message: message.type == "error"
                and errors.append("console: " + message.text))
        page.goto("file://" + self.path(name) + fragment)
        self.assertEqual(errors, [], "%s: script or console errors" % name)
        body = page.evaluate("(() => { const body = document.body.cloneNode(true);"
                             " body.querySelectorAll('script').forEach(s => s.remove());"
                             " return body.outerHTML; })()")
        return body, page

    def browse(self, page, height, when=WHEN, picture=True):
        """The page at `when` (None: opened as a person opens it, no "#t="): its DOM, its
        stages' and plots' places, and a screenshot (width, height, rows); with `picture`
        "encoded" the screenshot's PNG bytes instead, with False none (None)."""
        dom, opened = self.load(page, 1100, height, "" if when is None else "#t=%s" % when)
        body = re.search(r"<body([^>]*)>", dom).group(1)
        self.assertIn('data-ready="true"', body, "%s: the player did not start" % page)
        self.assertIn('data-errors="0"', body, "%s: the page raised script errors" % page)
        shot = self.path(page.replace(".html", ".png"))
        if picture:
            screenshot(opened, shot)
        stages = [list(map(float, s.split(","))) for s in
                  re.search(r'data-stages="([^"]*)"', body).group(1).split(";")]
        plots = [list(map(float, s.split(","))) for s in
                 re.search(r'data-plots="([^"]*)"', body).group(1).split(";")]
        if picture == "encoded":
            with open(shot, "rb") as f:
                return dom, stages, plots, f.read()
        return dom, stages, plots, read_png(shot) if picture else None

    @staticmethod
    def pixel(stage, x, y):
        left, top, x0, y0, scale = stage
        return int(round(left + (x - x0) * scale)), int(round(top + (y - y0) * scale))

    def cell(self, dom, field, trace=0, player=0):
        """The header cell of `field` for a trace of a player (an overlay has one player)."""
        section = re.search(r'<section id="trace-%d".*?</section>' % player, dom, re.S)
        self.assertIsNotNone(section, "no player %d" % player)
        found = re.search(r'<td data-field="%s" data-trace="%d"[^>]*>([^<]*)</td>' % (field, trace),
                          section.group(0))
        self.assertIsNotNone(found, "no %s cell for trace %d" % (field, trace))
        return found.group(1).replace("&gt;", ">")

    @unittest.skipUnless(HAS_BROWSER, BROWSER_SKIP)
    def test_stage_script_stands_alone(self):
        """StageScript's source, as the page includes it, in a page of its own (as a live
        inspector would use it): it adds one global, makeDyndStage; maps points to canvas
        pixels and back, also from a pointer event on a canvas scaled by CSS; draws a frame;
        and gives a legend, as entries and as DOM with overlay checkboxes."""
        with open(self.path("page.html")) as f:
            scripts = re.findall(r"<script>(.*?)</script>", f.read(), re.S)
        stage_source = next(s for s in scripts if "function makeDyndStage(" in s)
        lines = self.trace("lock4")
        frame = [l for l in lines if l.get("ev") == "frame"][10]
        debug = next(l for l in lines if l.get("ev") == "debug" and l["seq"] == frame["seq"])
        sizes = [{"id": i["id"], "w": i["size"][0], "h": i["size"][1]} for i in self.sizes("lock4")]
        page = self.path("stage.html")
        with open(page, "w") as f:
            f.write("""<!DOCTYPE html><html><body><canvas id="c"></canvas>
<script>window.dyndBefore = Object.keys(window);</script>
<script>%s</script>
<script>
const out = {};
out.globals = Object.keys(window).filter(k => !window.dyndBefore.includes(k) && k !== "dyndBefore");
const canvas = document.getElementById("c");
const stage = makeDyndStage(canvas, {bounds: [0, 0, 320, 568], sizes: %s});
stage.draw(%s, %s, {dragged: "screen", finger: [160, 400]});
const p = stage.toScreen(123, 456);
out.roundTrip = stage.toReference(p[0], p[1]);
out.scale = stage.scale; out.size = [canvas.width, canvas.height]; out.view = stage.view;
canvas.style.width = (canvas.width * 2) + "px"; canvas.style.height = (canvas.height * 2) + "px";
const r = canvas.getBoundingClientRect();
out.fromEvent = stage.fromEvent({clientX: r.left + 2 * p[0], clientY: r.top + 2 * p[1]});
out.legend = stage.legend({kinds: makeDyndStage.kindsIn([%s])}).map(e => e.key);
const list = stage.legendElement({kinds: makeDyndStage.kindsIn([%s]), toggles: {}});
out.items = list.querySelectorAll("li").length; out.boxes = list.querySelectorAll("input").length;
const pixel = stage.canvas.getContext("2d").getImageData(...stage.toScreen(60, 200), 1, 1).data;
out.pixel = Array.from(pixel).slice(0, 3);
document.body.dataset.out = JSON.stringify(out);
</script></body></html>""" % (stage_source, json.dumps(sizes), json.dumps(frame), json.dumps(debug),
                              json.dumps(debug), json.dumps(debug)))
        dom = self.load("stage.html", 800, 600)[0]
        out = json.loads(re.search(r'data-out="([^"]*)"', dom).group(1).replace("&quot;", '"'))
        self.assertEqual(out["globals"], ["makeDyndStage"])
        for got, want in zip(out["roundTrip"] + out["fromEvent"], [123, 456, 123, 456]):
            self.assertAlmostEqual(got, want, places=6)
        # Framed to the bounds, 28 px of margin on each side.
        self.assertEqual(out["view"], [0, 0, 320, 568])
        self.assertEqual(out["size"], [math.ceil(320 * out["scale"] + 56), math.ceil(568 * out["scale"] + 56)])
        # The grip is rigid; the screen's rail (a sliding attachment) is a rail, not a rod.
        self.assertEqual(out["legend"], ["item", "dragged", "finger", "bounds", "boundary", "rigid", "rail",
                                         "gravity"])
        self.assertEqual((out["items"], out["boxes"]), (8, 3))
        y = frame["items"][0]["center"][1]
        expected = blend(COLORS[0], BACKGROUND, 0.2) if y - 284 < 200 < y + 284 else BACKGROUND
        self.assertTrue(close(out["pixel"], expected, 3), (out["pixel"], expected))

    @unittest.skipUnless(HAS_BROWSER, BROWSER_SKIP)
    def test_headers_give_outcome_handoff_and_parameters(self):
        dom = self.browse("page.html", 400, picture=False)[0]
        for index, name in enumerate(["lock", "wave", "side"]):
            lines = self.trace(name)
            done = next(l for l in lines if l.get("ev") == "done")
            handoff = next(l for l in lines if l.get("ev") == "handoff")
            self.assertTrue(self.cell(dom, "outcome", player=index).startswith(done["outcome"] + " at "))
            text = self.cell(dom, "handoff", player=index)
            vector = lambda v: "(%s)" % ", ".join("%g" % c for c in v)
            self.assertIn("gesture_velocity %s pt/s" % vector(handoff["gesture_velocity"]), text)
            self.assertIn("item_velocity %s pt/s" % vector(handoff["item_velocity"]), text)
            error = float(re.search(r"velocity_error ([0-9.e-]+) pt/s", text).group(1))
            self.assertEqual(error, handoff["velocity_error"])
        # The defaults come from the hello reply the trace keeps.
        self.assertEqual(self.trace("lock")[1], {"sent": {"op": "hello", "id": 1}})
        self.assertIn("all at their defaults: gravity 4 × 1000 pt/s², elasticity 0.4, open_speed 500 pt/s",
                      self.cell(dom, "params"))
        dom = self.browse("sources.html", 400, picture=False)[0]
        pause = next(l for l in self.trace("scene") if l.get("ev") == "pause")
        self.assertEqual(self.cell(dom, "outcome"),
                         "none (a scene has none); at rest at %g s" % round(pause["t"], 3))
        self.assertIn("scene: 2 items (box, ball)", self.cell(dom, "params"))
        self.assertTrue(self.cell(dom, "outcome", player=1).startswith("opened at "))
        self.assertIn("joined at animator time", self.cell(dom, "recording", player=1))
        # The joined session's parameters, from its get reply: gravity set, the others default.
        self.assertIn("gravity = 8 × 1000 pt/s² (default 4); the others at their defaults: "
                      "elasticity 0.4", self.cell(dom, "params", player=1))

    @unittest.skipUnless(HAS_BROWSER, BROWSER_SKIP)
    def test_header_explains_a_zero_estimate_and_a_rail(self):
        """The handoff row gives HandoffWords' sentences, as dynctl and the inspector do: the
        estimator's reason beside a zero gesture velocity, the rail's projection (issue 27,
        points 2 and 6). The lock trace's handoff, edited as dynd writes such ones."""
        edits = {"still": dict(gesture_velocity=[0, 0], item_velocity=[0, 0], estimate={
                     "reason": "pointer_stopped", "samples": 7, "still_ms": 55}),
                 "rail": dict(gesture_velocity=[30, -300], item_velocity=[0, -300],
                              constraints=[{"kind": "rail", "axis": [0, 1]}])}
        for name, edit in edits.items():
            with open(self.path(name + ".jsonl"), "w") as f:
                for line in self.trace("lock"):
                    if line.get("ev") == "handoff":
                        line.update(edit)
                    f.write(json.dumps(line) + "\n")
        self.dynctl(["render", self.path("still.jsonl"), self.path("rail.jsonl"), "--html",
                     self.path("explained.html")])
        dom = self.browse("explained.html", 400, picture=False)[0]
        self.assertIn("gesture_velocity (0, 0) pt/s (0 pt/s: the pointer was still for 55 ms "
                      "before lift-off (Android's and Flutter's 40 ms rule)) → item_velocity",
                      self.cell(dom, "handoff", player=0))
        self.assertIn("; the item runs on a rail along (0, 1): (30, -300) projected onto it is "
                      "(0, -300) pt/s; at ", self.cell(dom, "handoff", player=1))

    def check_items(self, name, stage, rows):
        """Each item's fill where the trace puts it at WHEN, on the bounds: translucent, the
        items under a point composited in the player's order (large ones first, the dragged
        one last); each name's dark text where the player writes it."""
        sizes = self.sizes(name)
        frame = self.frame_at(name, WHEN)
        at = {i["id"]: i for i in frame["items"]}
        handoff = next((l["item"] for l in self.trace(name) if l.get("ev") == "handoff"), None)
        order = sorted(range(len(sizes)), key=lambda i: (sizes[i]["id"] == handoff,
                                                         -sizes[i]["size"][0] * sizes[i]["size"][1]))

        def inside(i, px, py, inset=0):
            (x, y), (w, h) = at[sizes[i]["id"]]["center"], sizes[i]["size"]
            return abs(px - x) < w / 2 - inset and abs(py - y) < h / 2 - inset

        checked = 0
        for index, size in enumerate(sizes):
            (x, y), (w, h) = at[size["id"]]["center"], size["size"]
            # Points inside the item, off its center (overlay lines pass through centers).
            for fx, fy in ((0.3, 0.3), (-0.3, 0.3)):
                px, py = x + w * fx, y + h * fy
                if not (BOUNDS[0] + 4 < px < BOUNDS[2] - 4 and BOUNDS[1] + 4 < py < BOUNDS[3] - 4):
                    continue  # off the bounds (faded): a to-cell waiting off screen
                if any(inside(i, px, py) and not inside(i, px, py, 4) for i in range(len(sizes))):
                    continue  # on an outline
                color = BACKGROUND
                for i in order:
                    if inside(i, px, py):
                        color = blend(COLORS[i % len(COLORS)], color, fill_alpha(sizes[i]["size"]))
                sx, sy = self.pixel(stage, px, py)
                self.assertTrue(close(rows[sy][sx], color, 6), "%s %s at (%g, %g): %s, expected about %s"
                                % (name, size["id"], px, py, rows[sy][sx], [round(c) for c in color]))
                checked += 1
            # The name: dark text at the middle of the part on the bounds.
            x0, x1 = max(x - w / 2, BOUNDS[0]), min(x + w / 2, BOUNDS[2])
            y0, y1 = max(y - h / 2, BOUNDS[1]), min(y + h / 2, BOUNDS[3])
            if x1 - x0 < 40 or y1 - y0 < 12:
                continue
            cx = x if x0 <= x <= x1 else (x0 + x1) / 2
            cy = y if y0 <= y <= y1 else (y0 + y1) / 2
            px, py = self.pixel(stage, cx, cy)
            dark = sum(1 for row in rows[py - 6:py + 7] for p in row[px - 20:px + 21] if max(p) < 90)
            self.assertGreater(dark, 12, "%s: no name written on %s at (%d, %d)" % (name, size["id"], px, py))
        self.assertGreater(checked, 0)

    @unittest.skipUnless(HAS_BROWSER, BROWSER_SKIP)
    def test_a_page_opened_without_a_time_draws_its_stages_and_plots(self):
        """Opened as a person opens it (no "#t="), every player draws at once: its stage shows
        the items and its plot the curves, before Play or the scrubber is touched."""
        def coloured(rows, left, top, width, height, enough):
            """How many pixels of the box are coloured, counted up to `enough`."""
            found = (p for row in rows[int(top):int(top + height)]
                     for p in row[int(left):int(left + width)] if max(p) - min(p) > 60)
            return sum(1 for _ in itertools.islice(found, enough))
        for page, count, tall in (("page.html", 3, 4200), ("overlay.html", 1, 1500)):
            dom, stages, plots, (width, height, rows) = self.browse(page, tall, when=None)
            self.assertEqual((len(stages), len(plots)), (count, count))
            for index, (stage, plot) in enumerate(zip(stages, plots)):
                canvas = re.findall(r'<canvas class="stage"[^>]*>', dom)[index]
                size = [int(re.search(r' %s="(\d+)"' % k, canvas).group(1))
                        for k in ("width", "height")]
                drawn = coloured(rows, stage[0], stage[1], *size, enough=501)
                self.assertGreater(drawn, 500, "%s: player %d's stage is blank" % (page, index))
                drawn = coloured(rows, *plot, enough=201)
                self.assertGreater(drawn, 200, "%s: player %d's plot is blank" % (page, index))

    @unittest.skipUnless(HAS_BROWSER, BROWSER_SKIP)
    def test_hostile_names_leave_the_page_whole(self):
        """A trace whose file, session and items are named with HTML, `<script>`, `</script>`,
        `<!--` and `<!--<script>` (which once put the parser in its script-escape mode: no player
        drawn) and an ordinary one: both players are drawn, every script runs, and each name is
        shown as the text it is."""
        dom, stages, plots, _ = self.browse("hostile.html", 2400, when=None, picture=False)
        self.assertEqual((len(stages), len(plots)), (2, 2))
        headings = [html.unescape(h) for h in re.findall(r"<h2>([^<]*)</h2>", dom)]
        self.assertTrue(headings[0].startswith(HOSTILE + ".jsonl — session " + HOSTILE_NAMES[0]),
                        headings)
        self.assertTrue(headings[1].startswith("lock.jsonl"), headings)

    @unittest.skipUnless(HAS_BROWSER, BROWSER_SKIP)
    def test_plot_labels_are_apart_and_off_the_data(self):
        """Every plot's mark labels (issue 27, point 3): no two boxes overlap, all above the
        data, and the handoff's label gives the velocity handed over, dotted on the line."""
        for page, count in (("page.html", 3), ("overlay.html", 1)):
            dom = self.browse(page, 1400, when=None, picture=False)[0]
            canvases = re.findall(r'<canvas class="plot"[^>]*>', dom)
            self.assertEqual(len(canvases), count)
            for canvas in canvases:
                attribute = lambda name: json.loads(html.unescape(
                    re.search(r' data-%s="([^"]*)"' % name, canvas).group(1)))
                labels, panels = attribute("labels"), attribute("panels")
                texts = [label["text"] for label in labels]
                self.assertTrue(any(re.match(r"handoff \(-?[0-9.]+, -?[0-9.]+\) pt/s", t)
                                    for t in texts), texts)
                for i, a in enumerate(labels):
                    self.assertLessEqual(a["box"][1] + a["box"][3], panels[0][1], a)
                    for b in labels[i + 1:]:
                        (ax, ay, aw, ah), (bx, by, bw, bh) = a["box"], b["box"]
                        self.assertTrue(ax + aw <= bx or bx + bw <= ax or ay + ah <= by
                                        or by + bh <= ay, "%s: %s overlaps %s" % (page, a, b))

    @unittest.skipUnless(HAS_BROWSER, BROWSER_SKIP)
    def test_lock_screen_is_translucent_and_leaves_the_bounds_where_it_is_not(self):
        dom, stages, plots, (width, height, rows) = self.browse("lock4.html", 1400)
        stage = stages[0]
        self.check_items("lock4", stage, rows)
        y = self.frame_at("lock4", WHEN)["items"][0]["center"][1]
        self.assertLess(y + 284, 500, "the screen must have moved up by %g s" % WHEN)
        # Below the screen's bottom edge, inside the bounds: the bounds' colour, nothing else.
        for py in range(int(y + 284 + 12), 560, 40):
            for px in (40, 280):
                got = rows[self.pixel(stage, px, py)[1]][self.pixel(stage, px, py)[0]]
                self.assertTrue(close(got, BACKGROUND, 3), "(%d, %d): %s" % (px, py, got))
        # Outside the bounds, beyond the margin's reach of anything: faded white.
        left, top = self.pixel(stage, -20, 560)
        self.assertTrue(close(rows[top][left], (255, 255, 255), 3), rows[top][left])

    @unittest.skipUnless(HAS_BROWSER, BROWSER_SKIP)
    def test_sidebar_menu_is_drawn_over_its_background(self):
        dom, stages, plots, (width, height, rows) = self.browse("side.html", 1400)
        self.check_items("side", stages[0], rows)

    @unittest.skipUnless(HAS_BROWSER, BROWSER_SKIP)
    def test_wave_pop_items_and_names(self):
        dom, stages, plots, (width, height, rows) = self.browse("wave.html", 1400)
        self.check_items("wave", stages[0], rows)

    @unittest.skipUnless(HAS_BROWSER, BROWSER_SKIP)
    def test_overlay_shares_one_stage_and_one_set_of_axes(self):
        dom, stages, plots, (width, height, rows) = self.browse("overlay.html", 1500)
        self.assertEqual(len(stages), 1)
        self.assertEqual(len(re.findall(r'<canvas class="plot"', dom)), 1)
        series = json.loads(re.search(r'data-series="([^"]*)"', dom).group(1).replace("&quot;", '"'))
        colors = {s["label"][-2:]: s["color"] for s in series}
        self.assertEqual(sorted(colors), ["·1", "·2"])
        self.assertNotEqual(colors["·1"], colors["·2"])
        ranges = json.loads(re.search(r'data-ranges="([^"]*)"', dom).group(1).replace("&quot;", '"'))
        last = lambda name: [l for l in self.trace(name) if l.get("ev") == "frame"][-1]["t"]
        self.assertGreaterEqual(ranges["time"][1], max(last("lock4"), last("lock8")))
        self.assertTrue(self.cell(dom, "params", 0).startswith(
            "gravity = 4 × 1000 pt/s² (default 4); the others at their defaults: elasticity 0.4,"))
        self.assertTrue(self.cell(dom, "params", 1).startswith("gravity = 8 × 1000 pt/s² (default 4); "))
        self.assertIn('class="differs"', re.search(r'<td data-field="params" data-trace="0"[^>]*>', dom).group(0))
        rgb = lambda c: tuple(int(c[i:i + 2], 16) for i in (1, 3, 5))
        # Both traces' curves in the one plot, each in its colour.
        left, top, w, h = map(int, plots[0])
        for label, color in colors.items():
            count = sum(1 for row in rows[top:top + h] for p in row[left:left + w] if close(p, rgb(color), 30))
            self.assertGreater(count, 100, "trace %s's colour %s in the plot: %d pixels" % (label, color, count))
        # Both screens on the one stage: each bottom edge (thick outline) in its trace's colour.
        for k, name in enumerate(["lock4", "lock8"]):
            bottom = self.frame_at(name, WHEN)["items"][0]["center"][1] + 284
            self.assertLess(bottom, 560)
            px, py = self.pixel(stages[0], 240, bottom)
            near = [rows[y][px] for y in range(py - 2, py + 3)]
            self.assertTrue(any(close(p, rgb(colors["·%d" % (k + 1)]), 40) for p in near),
                            "%s's screen edge at y %g: %s" % (name, bottom, near))


    # Where a release lands, and the layout (issue 38, points 2 and 7).

    def player_state(self, page, index=0):
        """What a player of an opened page shows: its model's landing rows and its canvases'
        data attributes."""
        return page.evaluate("""(i => { const p = window.dyndPlayers[i], c = p.stage.canvas;
          return {landing: JSON.parse(c.dataset.landing || 'null'),
                  legend: Array.from(document.querySelectorAll('#trace-' + i + ' .legend li')).map(li => li.dataset.key),
                  series: JSON.parse(p.plot.dataset.series).map(s => s.label)}; })(%d)""" % index)

    @unittest.skipUnless(HAS_BROWSER, BROWSER_SKIP)
    def test_the_release_is_shown_landing(self):
        """Point 2: the sheet's and the fling's landing, in the header, on the stage and on the
        plot, each number as dynd reported it or computed from it as dynd does."""
        sheet = next(l for l in self.trace("sheet") if l.get("ev") == "handoff")
        fling = next(l for l in self.trace("fling") if l.get("ev") == "handoff")
        self.assertEqual((sheet["detent"], sheet["spring"]["stiffness"]), ("large", 157.91367))
        self.assertEqual(fling["decay"], {"friction": 2})
        # The sheet's rail is told as one in the debug stream.
        debug = next(l for l in self.trace("sheet") if l.get("ev") == "debug")
        self.assertEqual(debug["attachments"][0]["kind"], "sliding")
        self.assertEqual(debug["attachments"][0]["axis"], [0, 1])

        # Before the release: the detents only, named where the sheet's top edge rests at each.
        dom, page = self.load("landing.html", 1400, 900, "#t=0.1")
        state = self.player_state(page)
        self.assertEqual([d["name"] for d in state["landing"]["detents"]], ["collapsed", "medium", "large"])
        self.assertIsNone(state["landing"]["projection"])
        stage = [float(v) for v in page.evaluate("document.body.dataset.stages").split(";")[0].split(",")]
        for detent, height in (("collapsed", 88), ("medium", 284), ("large", 548)):
            y = next(d["at"][1] for d in state["landing"]["detents"] if d["name"] == detent)
            self.assertAlmostEqual(y, (568 - height - stage[3]) * float(page.evaluate(
                "window.dyndPlayers[0].stage.scale")), delta=1.01, msg=detent)
        self.assertIn("detent", state["legend"])
        self.assertIn("rail", state["legend"])

        # After it: the header, the projection and the landing, the closed form behind the frames.
        dom, page = self.load("landing.html", 1400, 900, "#t=0.6")
        self.assertIn("(160, -326.166): the center where the release would coast", self.cell(dom, "projection"))
        self.assertEqual(self.cell(dom, "landing"), "detent large (548 pt shown): center (160, 304)")
        self.assertIn("mass 1, stiffness 157.91367, damping 25.132741; damping ratio 1, response 0.5 s",
                      self.cell(dom, "motion"))
        lines = page.evaluate("Array.from(document.querySelectorAll('#trace-0 code')).map(c => [c.dataset.platform, c.textContent])")
        self.assertEqual(lines, [["SwiftUI", "Spring(duration: 0.5, bounce: 0)"],
                                 ["Android", "SpringForce().setStiffness(157.91367f).setDampingRatio(1f)"],
                                 ["Flutter", "SpringDescription(mass: 1, stiffness: 157.91367, damping: 25.132741)"],
                                 ["Origami", "tension 20.031401, friction 8.044247"]])
        state = self.player_state(page)
        self.assertEqual([d["name"] for d in state["landing"]["detents"] if d["chosen"]], ["large"])
        self.assertIsNotNone(state["landing"]["projection"])
        self.assertIsNotNone(state["landing"]["target"])
        self.assertIn("y closed form", state["series"])
        # The closed form from the release against every frame after it, as dynctl handoff
        # checks it (within its 0.005 pt, plus the wire's rounding; frame k after the release
        # is k/60 s after it: the wire writes times to 1 ms), and the fling's too.
        for index, name in ((0, "sheet"), (1, "fling")):
            worst, frames, rest = page.evaluate("""(i => { const m = window.dyndPlayers[i].models[0];
              let worst = 0, n = 0;
              for (const f of m.frames) if (f.rt > m.handoff.t + 1e-9) {
                const it = f.items.find(x => x.id === m.handoff.item);
                const at = m.landing.at(Math.round((f.rt - m.handoff.t) * 60) / 60);
                worst = Math.max(worst, Math.hypot(it.center[0] - at[0], it.center[1] - at[1])); n++; }
              return [worst, n, m.landing.target]; })(%d)""" % index)
            self.assertGreater(frames, 20, name)
            self.assertLess(worst, 0.01, name)
        self.assertEqual(rest, fling["projection"])
        self.assertEqual(self.cell(dom, "landing", player=1).split(", at rest")[0],
                         "center (%s, %s)" % tuple("%g" % v for v in fling["projection"]))
        self.assertIn("Android FlingAnimation friction 2: λ 8.4 /s, stops under 46.875 pt/s",
                      self.cell(dom, "motion", player=1))
        last = [l for l in self.trace("fling") if l.get("ev") == "frame"][-1]["items"][0]["center"]
        self.assertLess(math.hypot(last[0] - rest[0], last[1] - rest[1]), 0.0011)
        self.assertEqual(self.cell(dom, "platforms", player=1), "none")

    @unittest.skipUnless(HAS_BROWSER, BROWSER_SKIP)
    def test_stage_and_plot_side_by_side_with_one_time(self):
        """Point 7: at 1400×900 and 1920×1080 the first player's stage and plot stand side by
        side, both whole in the window, the plot reaching the right of it; on a phone they are
        stacked, nothing wider than the screen. One time display: the shown frame's."""
        keep = os.environ.get("DYND_RENDER_SHOTS", self.dir)
        os.makedirs(keep, exist_ok=True)
        frames = [l for l in self.trace("sheet") if l.get("ev") == "frame"]
        shown = max(f["t"] for f in frames if f["t"] <= 0.59 + 1e-9)  # the open reply's time is 0
        for width, height in ((1400, 900), (1920, 1080), (390, 844)):
            dom, page = self.load("landing.html", width, height, "#t=0.59")
            screenshot(page, os.path.join(keep, "replay-%dx%d.png" % (width, height)))
            boxes = page.evaluate("""(() => { const s = document.querySelector('#trace-0 canvas.stage'),
              p = document.querySelector('#trace-0 canvas.plot'), r = e => { const b = e.getBoundingClientRect();
              return [b.left, b.top, b.right, b.bottom]; };
              return {stage: r(s), plot: r(p), scroll: document.documentElement.scrollWidth}; })()""")
            stage, plot = boxes["stage"], boxes["plot"]
            self.assertLessEqual(boxes["scroll"], width, "wider than the window at %d" % width)
            self.assertLessEqual(stage[3], height, "the stage is cut off at %dx%d: %s" % (width, height, stage))
            if width >= 1400:
                self.assertGreaterEqual(plot[0], stage[2], "not side by side: %s" % boxes)
                self.assertLess(plot[1], stage[3])
                self.assertLessEqual(plot[3], height, "the plot is below the fold: %s" % boxes)
                self.assertGreater(plot[2], 0.85 * width, "the right of the window is empty: %s" % boxes)
            else:
                self.assertGreaterEqual(plot[1], stage[3] - 1, "not stacked: %s" % boxes)
                self.assertLessEqual(max(stage[2], plot[2]), width)
            times = page.evaluate(r"""(() => { const out = [], walk = n => {
              if (n.nodeType === 3 && /\d\.\d{3} s\b/.test(n.textContent)) out.push(n.textContent.trim());
              else if (n.nodeType === 1 && !n.matches('table, script')) n.childNodes.forEach(walk); };
              walk(document.getElementById('trace-0')); return out; })()""")
            self.assertEqual(times, ["%.3f s" % shown], times)
            self.assertNotIn(" at ", page.evaluate("document.querySelector('#trace-0 .caption').textContent"))

    # Fields, regions and groups (the hand-made trace of tools/fixtures/fields_trace.py).

    def fields_frame(self):
        """The fields trace's last frame and its debug event: what the player shows at WHEN."""
        lines = self.trace("fields")
        frame = [l for l in lines if l.get("ev") == "frame"][-1]
        self.assertLess(frame["t"], WHEN)
        debug = next(l for l in lines if l.get("ev") == "debug" and l["seq"] == frame["seq"])
        return frame, debug

    @staticmethod
    def leaves(region):
        """The circles ({radius}) and rectangles ({size}) of a region."""
        found = [region] if "radius" in region or "size" in region else []
        for key in ("inverse", "union", "intersection", "difference"):
            for child in ([region[key]] if key == "inverse" and key in region else region.get(key, [])):
                found += Render.leaves(child)
        return found

    @staticmethod
    def edge_distance(field, x, y):
        """How far (x, y) is from the nearest outline of the field's region."""
        dx, dy = x - field["position"][0], y - field["position"][1]
        best = math.inf
        for leaf in Render.leaves(field["region"]):
            if "radius" in leaf:
                best = min(best, abs(math.hypot(dx, dy) - leaf["radius"]))
            else:
                ox, oy = abs(dx) - leaf["size"][0] / 2, abs(dy) - leaf["size"][1] / 2
                best = min(best, math.hypot(max(ox, 0), max(oy, 0)) if ox > 0 or oy > 0 else min(-ox, -oy))
        return best

    def in_region(self, field, x, y):
        return fields_trace.contains(field["region"], x - field["position"][0], y - field["position"][1])

    def stage_page(self, name, body, **values):
        """Runs `body` in a page holding StageScript's source (as fields.html includes it) and
        `values` as constants; returns what it leaves in document.body.dataset.out."""
        with open(self.path("fields.html")) as f:
            scripts = re.findall(r"<script>(.*?)</script>", f.read(), re.S)
        source = next(s for s in scripts if "function makeDyndStage(" in s)
        constants = "".join("const %s = %s;\n" % (k, json.dumps(v)) for k, v in values.items())
        page = self.path(name)
        with open(page, "w") as f:
            f.write('<!DOCTYPE html><html><body><canvas id="c"></canvas><script>%s</script>\n'
                    '<script>"use strict";\n%s%s\ndocument.body.dataset.out = JSON.stringify(out);'
                    '</script></body></html>' % (source, constants, body))
        dom = self.load(name, 800, 600)[0]
        found = re.search(r'data-out="([^"]*)"', dom)
        self.assertIsNotNone(found, "%s did not finish" % name)
        return json.loads(found.group(1).replace("&quot;", '"').replace("&amp;", "&"))

    @unittest.skipUnless(HAS_BROWSER, BROWSER_SKIP)
    def test_stage_fields_regions_and_groups_on_their_own(self):
        """In a page of its own: the region membership of each combinator (the inverse of the
        infinite region is empty; malformed regions are refused), the legend keys, each layer
        switched off leaving the pixels of the frame without fields and groups and each alone
        drawing something, a legend made before the first draw listing the fields after it,
        the tint: at points away from every outline and item, each region's colour exactly where
        the region holds the point (the infinite region tints nothing), and malformed fields and
        groups drawing nothing (and throwing nothing)."""
        frame, debug = self.fields_frame()
        sizes = [{"id": i["id"], "w": i["size"][0], "h": i["size"][1]} for i in self.sizes("fields")]
        fields = debug["fields"]
        points = []
        for x in range(8, 313, 7):
            for y in range(8, 561, 7):
                if any(self.edge_distance(f, x, y) < 6 for f in fields if self.leaves(f["region"])):
                    continue
                if any(math.hypot(x - i["center"][0], y - i["center"][1]) < 36 for i in frame["items"]):
                    continue
                points.append([x, y])
        out = self.stage_page("fields-stage.html", r"""
const out = {};
const R = makeDyndStage.region;
const holds = (r, points) => points.map(p => R(r).contains(p[0], p[1]));
out.holds = {
  infinite: holds({infinite: true}, [[0, 0], [1e9, -1e9]]),
  emptyInverse: holds({inverse: {infinite: true}}, [[0, 0], [1e9, -1e9]]),
  radius: holds({radius: 10}, [[0, 0], [10, 0], [7, 7.2], [0, -10.5]]),
  size: holds({size: [20, 10]}, [[0, 0], [10, 5], [10.5, 0], [0, -5.5]]),
  inverse: holds({inverse: {radius: 10}}, [[0, 0], [0, 11]]),
  union: holds({union: [{size: [40, 4]}, {size: [4, 40]}]}, [[18, 0], [0, 18], [18, 18], [0, 0]]),
  intersection: holds({intersection: [{radius: 10}, {size: [40, 4]}]}, [[9, 0], [0, 9], [15, 0], [0, 0]]),
  difference: holds({difference: [{radius: 10}, {radius: 5}]}, [[0, 0], [7, 0], [12, 0]]),
};
let deep = {radius: 1};
for (let i = 0; i < 40; i++) deep = {inverse: deep};
out.malformed = [null, 3, [], {}, {radius: -1}, {radius: "2"}, {size: [1]}, {size: [1, NaN]},
  {union: [{radius: 1}]}, {difference: [{radius: 1}, {spiral: 2}]}, deep].map(x => R(x) === null);
out.kinds = Array.from(makeDyndStage.kindsIn([DEBUG])).sort();
out.fieldsIn = makeDyndStage.fieldsIn([DEBUG, DEBUG]);
const canvas = document.getElementById("c");
const stage = makeDyndStage(canvas, {bounds: [0, 0, 320, 568], sizes: SIZES});
const g = canvas.getContext("2d");
const pixels = () => Array.from(g.getImageData(0, 0, canvas.width, canvas.height).data);
const same = (a, b) => a.length === b.length && a.every((v, i) => v === b[i]);
const legend = stage.legendElement({toggles: {}});
const keys = () => Array.from(legend.querySelectorAll("li")).map(li => li.dataset.key);
out.legendBefore = keys();
const bare = Object.assign({}, DEBUG);
delete bare.fields; delete bare.groups;
// Twice: the first draw of a canvas strokes corners mitred, the next ones round (the names
// leave the line join round), with or without fields.
stage.draw(FRAME, bare, {});
stage.draw(FRAME, bare, {});
const without = pixels();
stage.draw(FRAME, DEBUG, {overlays: {fields: false, regions: false, groups: false}});
out.offIsWithout = same(pixels(), without);
out.legendAfter = keys();
out.boxes = Array.from(legend.querySelectorAll("input")).map(b => b.dataset.overlay);
out.labels = Array.from(legend.querySelectorAll("li")).map(li => li.textContent);
for (const layer of ["fields", "regions", "groups"]) {
  const only = {fields: false, regions: false, groups: false};
  only[layer] = true;
  stage.draw(FRAME, DEBUG, {overlays: only});
  out[layer + "Draw"] = !same(pixels(), without);
}
stage.draw(FRAME, DEBUG, {overlays: {fields: false, groups: false}});
out.tint = POINTS.map(p => Array.from(g.getImageData(
  ...stage.toScreen(p[0], p[1]).map(Math.floor), 1, 1).data).slice(0, 3));
out.colors = out.fieldsIn.map(f => stage.fieldColor(f.id));
// Malformed members draw nothing and throw nothing.
const broken = Object.assign({}, bare, {fields: [null, 3, {id: 7}, {id: "x", kind: 5, position: "here",
  region: {union: [{radius: 1}]}, samples: [[1, 2], [1, 2, "3", 4], null]}, {id: "y", samples: "no"}],
  groups: [null, {id: "g", center: [1, null], size: [10, 10]}, {id: "h", center: [50, 50], size: [-1, 5]}]});
stage.draw(FRAME, broken, {});
out.brokenIsWithout = same(pixels(), without);
""", DEBUG=debug, FRAME=frame, SIZES=sizes, POINTS=points)
        self.assertEqual(out["holds"], {
            "infinite": [True, True], "emptyInverse": [False, False],
            "radius": [True, True, False, False], "size": [True, True, False, False],
            "inverse": [False, True], "union": [True, True, False, True],
            "intersection": [True, False, False, True], "difference": [False, True, False]})
        self.assertEqual(out["malformed"], [True] * 11)
        self.assertEqual(out["kinds"], ["collision-bounds", "field", "group", "region"])
        self.assertEqual(out["fieldsIn"], [{"id": f["id"], "kind": f["kind"]} for f in fields])
        self.assertEqual(out["colors"], ["#%02x%02x%02x" % c for c in FIELD_COLORS])
        old_keys = ["item", "dragged", "finger", "bounds", "boundary", "collision-bounds", "rigid",
                    "spring", "rail", "snap", "push", "gravity", "contact"]
        self.assertEqual(out["legendBefore"], old_keys)
        self.assertEqual(out["legendAfter"], old_keys + ["field"] + ["field-" + f["id"] for f in fields]
                         + ["region", "group"])
        self.assertEqual(out["boxes"], ["boundaries", "attachments", "snaps", "pushes", "gravity",
                                        "contacts", "fields", "regions", "groups"])
        self.assertIn("field well: radial gravity", out["labels"])
        self.assertIn("field lens: vortex", out["labels"])
        self.assertTrue(out["offIsWithout"], "with the three layers off the stage must draw as without them")
        self.assertTrue(out["brokenIsWithout"], "malformed fields and groups must draw nothing")
        self.assertTrue(out["fieldsDraw"] and out["regionsDraw"] and out["groupsDraw"])
        inside = [0] * len(fields)
        outside = 0
        for (x, y), got in zip(points, out["tint"]):
            color, hit = BACKGROUND, False
            for k, f in enumerate(fields):
                if self.leaves(f["region"]) and self.in_region(f, x, y):
                    color, hit = blend(FIELD_COLORS[k], color, TINT_ALPHA), True
                    inside[k] += 1
            outside += not hit
            self.assertTrue(close(got, color, 3), "tint at (%d, %d): %s, expected about %s"
                            % (x, y, got, [round(c) for c in color]))
        # Every region with outlines was tested inside; the infinite one (mag) tints nothing.
        self.assertTrue(all(n >= 3 for n, f in zip(inside, fields) if self.leaves(f["region"])), inside)
        self.assertGreater(outside, 100)

    @unittest.skipUnless(HAS_BROWSER, BROWSER_SKIP)
    def test_page_draws_fields_regions_and_the_group(self):
        dom, stages, plots, (width, height, rows) = self.browse("fields.html", 1100)
        stage = stages[0]
        frame, debug = self.fields_frame()
        fields = {f["id"]: (k, f) for k, f in enumerate(debug["fields"])}
        for f in debug["fields"]:
            self.assertIn("<span>field %s: %s</span>" % (f["id"], f["kind"].replace("_", " ")), dom)
        self.assertEqual(re.findall(r'data-overlay="([a-z]+)"', dom),
                         ["boundaries", "fields", "regions", "groups"])

        def count(color, x, y, reach, tolerance):
            px, py = self.pixel(stage, x, y)
            return sum(1 for row in rows[py - reach:py + reach + 1]
                       for p in row[px - reach:px + reach + 1] if close(p, color, tolerance))

        # Arrows in each field's colour at samples with a force.
        for fid, x, y in (("well", 100, 130), ("wind", 110, 330), ("edge", 40, 4), ("lens", 300, 300)):
            k, f = fields[fid]
            sample = next(s for s in f["samples"] if s[:2] == [x, y])
            self.assertNotEqual(sample[2:], [0, 0])
            self.assertGreater(count(FIELD_COLORS[k], x, y, 8, 40), 8,
                               "no %s arrow at (%d, %d)" % (fid, x, y))
        # Where a region excludes (the ring's hole, the part of the lens's circle off its
        # rectangle, beside the plus): the bounds' colour only, no arrow and no tint.
        for fid, (x0, y0, x1, y1) in (("well", (152, 150, 168, 160)), ("lens", (232, 250, 248, 262)),
                                      ("wind", (106, 296, 114, 304))):
            field = fields[fid][1]
            outer = self.leaves(field["region"])[0]
            for x in range(x0, x1 + 1, 2):
                for y in range(y0, y1 + 1, 2):
                    self.assertFalse(self.in_region(field, x, y))
                    away = math.hypot(x - field["position"][0], y - field["position"][1])
                    self.assertTrue("size" in outer or away < outer["radius"],
                                    "(%d, %d) must be within %s's outer circle" % (x, y, fid))
                    px, py = self.pixel(stage, x, y)
                    self.assertTrue(close(rows[py][px], BACKGROUND, 3), "%s excludes (%d, %d) but it shows %s"
                                    % (fid, x, y, rows[py][px]))
        # The group: each side of its rotated rectangle, and the lines to its members.
        group = debug["groups"][0]
        (cx, cy), angle, (w, h) = group["center"], group["angle"], group["size"]
        c, s = math.cos(angle), math.sin(angle)
        for ox, oy in ((0, -h / 2), (0, h / 2), (-w / 2, 0), (w / 2, 0)):
            x, y = cx + ox * c - oy * s, cy + ox * s + oy * c
            self.assertGreater(count(GROUP_COLOR, x, y, 3, 50), 0, "the group's outline at (%g, %g)" % (x, y))
        for item in frame["items"]:
            if item["id"] in group["items"]:
                x, y = cx + (item["center"][0] - cx) * 0.6, cy + (item["center"][1] - cy) * 0.6
                self.assertGreater(count(GROUP_COLOR, x, y, 1, 60), 0, "the line to %s" % item["id"])

    @unittest.skipUnless(HAS_BROWSER, BROWSER_SKIP)
    def test_traces_without_fields_draw_as_before(self):
        """Each page, and the same page with the stage of tools/fixtures/stage-before-fields.js:
        the same pixels."""
        with open(os.path.join(HERE, "fixtures", "stage-before-fields.js")) as f:
            # The player asks the stage for the fields, which that one did not know.
            before = f.read() + "\nmakeDyndStage.fieldsIn = () => [];\n"
        for name, height in (("lock4.html", 1400), ("wave.html", 1400), ("sources.html", 2600)):
            with open(self.path(name)) as f:
                page = f.read()
            current = next(s for s in re.findall(r"<script>(.*?)</script>", page, re.S)
                           if "function makeDyndStage(" in s)
            with open(self.path("before-" + name), "w") as f:
                f.write(page.replace(current, before))
            # Headless Chromium's screenshot can be taken before a long page's last layout on
            # a loaded machine (seen once in four clean-clone runs: one page 59 rows longer); a real
            # difference shows on every attempt.
            for _ in range(3):
                # The same PNG bytes (one encoder, one setting) are the same pixels.
                if self.browse(name, height, picture="encoded")[3] == \
                        self.browse("before-" + name, height, picture="encoded")[3]:
                    differ = []
                    break
                now = read_png(self.path(name.replace(".html", ".png")))
                then = read_png(self.path("before-" + name.replace(".html", ".png")))
                self.assertEqual(now[:2], then[:2])
                differ = [(x, y) for y, (a, b) in enumerate(zip(now[2], then[2]))
                          for x, (p, q) in enumerate(zip(a, b)) if p != q]
                if not differ:
                    break
            self.assertEqual(differ[:5], [], "%s: %d pixels differ from the stage before fields"
                             % (name, len(differ)))

if __name__ == "__main__":
    BIN = sys.argv.pop(1)
    unittest.main()
