#!/usr/bin/env python3
"""The live inspector in a real browser (part of `make test`).

    python3 tools/test_inspector.py BIN_DIR [DYND_INSPECT]
        (BIN_DIR holds dynd and dynctl; DYND_INSPECT is the dynd-inspect binary, from the
        inspector's own package, by default BIN_DIR/dynd-inspect)

Starts a private dynd and `dynd-inspect` on temporary addresses, opens the page in Debian's
Chromium driven by Playwright (its `executable_path` set to the system browser), and checks, as a
person would use it: the token and Host guard; the session list following sessions that another
client opens, runs and closes; the lock screen dragged up with the mouse at a known speed (mouse
events given their timestamps through the DevTools protocol, so the speed is exact whatever the
machine's load), seen by dynd (a second client watching the session gets the gesture's handoff,
whose velocity must match the drag) and by the page (its handoff numbers, `opened`), with a
screenshot mid-drag showing the screen's colour where the frame puts the screen and the
background where it has moved away; a tap; a parameter changed in the form re-opening the
session with it (dynd's `get` reports the session's parameters), and a session the page did not
open surviving the page's re-open (a new session beside it) and close; the plotted item kept
through wave-pop's handoff and changed only by picking another in its list; a scene's behavior
edited in the page (dynd's `behaviors` reads it back); and the recording downloaded as a trace that
`dynctl render` accepts. Issue 27's points as a person sees them, at 1400×900: a flick whose
pointer stood still 55 ms before lift-off is explained beside its 0 pt/s; the plot draws the
finger's velocity as dynd's estimator sees it (smooth, equal to the handoff's at lift-off), the
handoff's value at the release, labels that never overlap (pip-corners' release and done); a
diagonal drag gives the rail's sentence, the same as `dynctl handoff`'s; an opened lock screen
gets an off-stage marker with its distance, and Reset brings it back; the camera grabber is
drawn; a joined scene's ellipse is round; the behaviors editor has typed fields refreshed from
dynd, in view without scrolling; and a tour through the page while dynd stops and starts again
shows one "dynd is gone" state, resumes watching, and logs no console error (dynd-inspect's log
says dynd went and came back). Issue 38: a scene's spring edited as one of its five parameter
sets (the request sent and dynd's reply read back), its number boxes showing every digit, its
constants in every platform's terms as derived from what dynd reports, the page's conversions of
each set against dynd's; the sheet's detents on the stage, a flick's projection, landing and
spring beside the handoff and on the stage, the position plot's closed form behind the frames,
the rail drawn as one; a fling's decay the same way; the status line apart from the stage; the
screenshots at 1400×900, 1920×1080 and a phone's 390×844 (DYND_INSPECT_SHOTS).

Every test fails on console errors as on script errors. The screenshots the tests take are kept
in out/inspector/ (gitignored), or in DYND_INSPECT_SHOTS=DIR.

If Chromium or Playwright cannot start, every browser test is skipped with the reason (make test
installs both: tools/deps.sh test browser).
"""

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import unittest
import urllib.error
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "clients", "python"))
sys.path.insert(0, HERE)

from dynd import Client  # noqa: E402
from test_render import read_png, screenshot  # noqa: E402

BIN = None
# The screenshots the tests take (mid-drag.png, scene.png, flick.png, tour-gone.png, …), kept as
# artifacts of `make test`: out/inspector/, or DYND_INSPECT_SHOTS=DIR.
SHOTS = os.environ.get("DYND_INSPECT_SHOTS") or os.path.join(HERE, "..", "out", "inspector")
VIEWPORT = {"width": 1400, "height": 900}
SPEED = 1000.0      # pt/s, the drag's speed (upward)
SAMPLE_DT = 0.008   # s between two mouse events (a 125 Hz mouse)


def browser_path():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    return None


def start_browser():
    """(playwright, browser) or raise unittest.SkipTest saying why not."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError as error:
        raise unittest.SkipTest("Playwright for Python is missing (%s); make test-deps installs it"
                                % error)
    path = browser_path()
    if not path:
        raise unittest.SkipTest("no Chromium on PATH; make test-deps installs Debian's chromium")
    manager = sync_playwright().start()
    try:
        # --no-sandbox: Chromium's sandbox refuses to run as root, as CI does.
        browser = manager.chromium.launch(executable_path=path, args=["--no-sandbox"])
    except Exception as error:  # the browser itself cannot start here
        manager.stop()
        raise unittest.SkipTest("Chromium at %s cannot start: %s" % (path, str(error)[:400]))
    return manager, browser


class InspectorTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.mkdtemp(prefix="dynd-inspect-test.")
        cls.socket = os.path.join(cls.dir, "dynd.sock")
        cls.start_dynd()
        os.makedirs(SHOTS, exist_ok=True)
        cls.inspector = subprocess.Popen(
            [INSPECT, "--socket", cls.socket],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        # dynd-inspect's log (standard error), read as it comes.
        cls.inspector_log = []
        threading.Thread(target=lambda: cls.inspector_log.extend(iter(cls.inspector.stderr.readline, "")),
                         daemon=True).start()
        cls.url = None
        deadline = time.time() + 20
        while cls.url is None and time.time() < deadline:
            line = cls.inspector.stdout.readline()
            if not line:
                raise RuntimeError("dynd-inspect stopped: " + "".join(cls.inspector_log))
            if line.startswith("dynd-inspect: open "):
                cls.url = line.split("open ", 1)[1].strip()
        if cls.url is None:
            raise RuntimeError("dynd-inspect printed no address")
        cls.client = Client(cls.socket)
        cls.manager = cls.browser = None

    @classmethod
    def start_dynd(cls):
        # With the transitions that exist only as documents (issue 37): the page lists them
        # and their parameter tables as the built-ins'.
        documents = os.path.join(HERE, "..", "examples", "transitions")
        cls.dynd = subprocess.Popen([os.path.join(BIN, "dynd"), "--socket", cls.socket,
                                     "--transitions", documents],
                                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.time() + 10
        while not os.path.exists(cls.socket):
            if time.time() > deadline or cls.dynd.poll() is not None:
                raise RuntimeError("dynd did not start")
            time.sleep(0.02)

    @classmethod
    def tearDownClass(cls):
        cls.client.close()
        if cls.browser:
            cls.browser.close()
            cls.manager.stop()
        for process in (cls.inspector, cls.dynd):
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(5)
            except subprocess.TimeoutExpired:
                process.kill()
        shutil.rmtree(cls.dir, ignore_errors=True)

    # ---- helpers ----------------------------------------------------------------------------

    @classmethod
    def browser_page(cls, touch=False):
        if cls.browser is None:
            cls.manager, cls.browser = start_browser()
        context = cls.browser.new_context(viewport=VIEWPORT, accept_downloads=True,
                                          has_touch=touch)
        page = context.new_page()
        # Script errors and console errors alike: a person with the console open sees both.
        page.errors = []
        page.on("pageerror", lambda error: page.errors.append(str(error)))
        page.on("console", lambda message: message.type == "error"
                and page.errors.append("console: " + message.text))
        page.goto(cls.url)
        cls.wait(page, "document.getElementById('link-state').textContent.startsWith('connected')")
        return page

    @staticmethod
    def wait(page, expression, timeout=10.0):
        """Polls `expression` in the page (the page's CSP forbids eval, which Playwright's
        wait_for_function would need) until it is truthy; returns its value."""
        deadline = time.time() + timeout
        while True:
            value = page.evaluate(expression)
            if value:
                return value
            if time.time() > deadline:
                raise AssertionError("timed out waiting for %s; page says %s" % (
                    expression, page.evaluate("JSON.stringify(document.body.dataset)")))
            time.sleep(0.03)

    def open_in_page(self, page, transition, params=None, reopen=False):
        """Opens `transition` with the page's form (changing `params` first)."""
        before = page.evaluate("document.body.dataset.opened || ''")
        page.select_option("#open-transition", transition)
        for name, value in (params or {}).items():
            # A field of a spring or a decay the parameters give shows once its set is picked.
            motion = page.evaluate(
                "(n => document.querySelector(\"#params [data-param='\" + n + \"']\")"
                ".closest('label').dataset.motion || '')(%s)" % json.dumps(name))
            if motion:
                way = name if motion == "decay" else page.evaluate(
                    "(n => dyndMotion.SPRING_SETS.find(s => s.fields.includes(n)).key)(%s)"
                    % json.dumps(name))
                page.select_option("[data-motion-set='%s']" % motion, way)
            page.fill("#params [data-param='%s']" % name, str(value))
        page.click("#reopen-button" if reopen else "#open-button")
        self.wait(page, "(document.body.dataset.opened || '') !== %s" % json.dumps(before))
        self.wait(page, "window.dyndInspector.view && window.dyndInspector.view.stage")
        return json.loads(page.evaluate("document.body.dataset.opened"))["session"]

    @staticmethod
    def stage_mapping(page):
        """A function from reference points to page pixels, from the stage's data-view."""
        x0, y0, scale = map(float, page.evaluate(
            "document.getElementById('stage').dataset.view").split(","))
        box = page.locator("#stage").bounding_box()
        css = box["width"] / page.evaluate("document.getElementById('stage').width")
        return lambda x, y: (box["x"] + (x - x0) * scale * css, box["y"] + (y - y0) * scale * css)

    @staticmethod
    def shot(page, name):
        """A screenshot kept in SHOTS; returns (width, height, rows)."""
        path = os.path.join(SHOTS, name)
        screenshot(page, path)
        return read_png(path)

    def mouse(self, page, strokes, pace=0.0):
        """Mouse events at reference points with the given times (seconds from now), through
        the DevTools protocol so that the page's events carry exactly those timestamps:
        strokes = [(kind, x, y, t)], kind "down", "move" or "up"; `pace` seconds of wall time
        between two (frames come between the moves, as they would)."""
        to_page = self.stage_mapping(page)
        cdp = page.context.new_cdp_session(page)
        base = time.time()
        kinds = {"down": "mousePressed", "move": "mouseMoved", "up": "mouseReleased"}
        for kind, x, y, t in strokes:
            px, py = to_page(x, y)
            cdp.send("Input.dispatchMouseEvent", {
                "type": kinds[kind], "x": px, "y": py, "button": "left",
                "buttons": 0 if kind == "up" else 1, "clickCount": 1, "timestamp": base + t})
            time.sleep(pace)
        cdp.detach()

    def stage_pixel(self, page, rows, x, y):
        px, py = self.stage_mapping(page)(x, y)
        return rows[int(round(py))][int(round(px))]

    def plot_labels(self, page):
        """The plot's mark labels: [(text, [x, y, w, h])], none overlapping another, all above
        the data."""
        labels = json.loads(page.evaluate("document.getElementById('plot').dataset.labels || '[]'"))
        data_top = json.loads(page.evaluate("document.getElementById('plot').dataset.panels"))[0][1]
        for label in labels:
            self.assertLessEqual(label["box"][1] + label["box"][3], data_top, label)
        for i, a in enumerate(labels):
            for b in labels[i + 1:]:
                (ax, ay, aw, ah), (bx, by, bw, bh) = a["box"], b["box"]
                apart = ax + aw <= bx or bx + bw <= ax or ay + ah <= by or by + bh <= ay
                self.assertTrue(apart, "labels overlap: %s and %s" % (a, b))
        return [(l["text"], l["box"]) for l in labels]

    def text(self, page, element_id):
        return page.evaluate("document.getElementById(%s).textContent" % json.dumps(element_id))

    # ---- tests ------------------------------------------------------------------------------

    def test_guard_refuses_without_the_token_or_from_another_host(self):
        base = self.url.split("?")[0]
        for url, headers in ((base, {}), (base + "?token=0000", {}),
                             (self.url, {"Host": "attacker.example"})):
            with self.assertRaises(urllib.error.HTTPError) as refused:
                urllib.request.urlopen(urllib.request.Request(url, headers=headers), timeout=5)
            self.assertEqual(refused.exception.code, 403, url)
        host = base.split("//")[1].rstrip("/")
        query = self.url.split("?")[1]
        # A refused upgrade is answered 400 by the WebSocket upgrader (it gets no body).
        for ws_host, origin, token, statuses in (
                (host, "http://" + host, query, (101,)),
                ("attacker.example", "http://attacker.example", query, (400, 403)),
                (host, "http://attacker.example", query, (400, 403)),
                (host, "http://" + host, "token=0", (400, 403))):
            self.assertIn(self.upgrade_status(host, ws_host, origin, token), statuses,
                          (ws_host, origin, token))
        with urllib.request.urlopen(self.url, timeout=5) as page:
            self.assertIn(b"dynd inspector", page.read())
            self.assertEqual(page.headers["Referrer-Policy"], "no-referrer")

    def test_command_line_errors(self):
        inspect = INSPECT
        missing = subprocess.run([inspect, "--socket", os.path.join(self.dir, "none.sock")],
                                 capture_output=True, text=True, timeout=20)
        self.assertEqual(missing.returncode, 69, missing.stderr)
        self.assertIn("no dynd at %s" % os.path.join(self.dir, "none.sock"), missing.stderr)
        self.assertIn("start it first", missing.stderr)
        bad_port = subprocess.run([inspect, "--port", "70000"], capture_output=True, text=True,
                                  timeout=20)
        self.assertEqual(bad_port.returncode, 64, bad_port.stderr)
        self.assertIn("--port 70000: must be between 0 and 65535", bad_port.stderr)
        port = int(self.url.split(":")[2].split("/")[0])
        taken = subprocess.run([inspect, "--socket", self.socket, "--port", str(port)],
                               capture_output=True, text=True, timeout=20)
        self.assertEqual(taken.returncode, 71, taken.stderr)
        self.assertIn("could not run on 127.0.0.1:%d" % port, taken.stderr)
        # SIGTERM (and Ctrl-C) stop it with exit 0.
        second = subprocess.Popen([inspect, "--socket", self.socket], stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True)
        self.assertTrue(second.stdout.readline().startswith("dynd-inspect: serving"))
        self.assertTrue(second.stdout.readline().startswith("dynd-inspect: open http://127.0.0.1:"))
        second.send_signal(signal.SIGTERM)
        self.assertEqual(second.wait(10), 0)
        second.stdout.close()
        second.stderr.close()

    @staticmethod
    def raw_status(address, head):
        """The status code of the answer to `head` (a whole HTTP/1.1 request head) sent to
        `address` (host:port) as raw bytes, headers exactly as given."""
        import socket as sockets
        name, port = address.split(":")
        with sockets.create_connection((name, int(port)), timeout=10) as connection:
            connection.sendall(head.encode())
            status_line = connection.recv(4096).split(b"\r\n")[0].decode()
        return int(status_line.split()[1])

    @classmethod
    def upgrade_status(cls, address, host, origin, query):
        """The status of a WebSocket handshake for /ws?QUERY sent to `address` with these
        Host and Origin headers, as a browser would send it."""
        return cls.raw_status(address, cls.upgrade_head(
            query, ["Host: " + host, "Origin: " + origin, "Upgrade: websocket",
                    "Connection: Upgrade"]))

    @staticmethod
    def upgrade_head(query, headers):
        """A WebSocket handshake for /ws?QUERY with these header lines (and the key and version
        every handshake carries)."""
        return ("GET /ws?%s HTTP/1.1\r\n" % query + "".join(h + "\r\n" for h in headers)
                + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")

    def test_an_upgrade_with_a_listed_protocol_is_still_checked_for_its_origin(self):
        address = self.url.split("//")[1].split("/")[0]
        query = self.url.split("?")[1]
        own, foreign = "Origin: http://" + address, "Origin: http://evil.example"
        host = "Host: " + address
        for upgrade in ("Upgrade: websocket, foo", "Upgrade: foo, websocket", "Upgrade: WebSocket"):
            self.assertIn(self.raw_status(address, self.upgrade_head(
                query, [host, foreign, upgrade, "Connection: Upgrade"])), (400, 403), upgrade)
        # Sec-WebSocket-* headers without an Upgrade header, and two Origin headers.
        plain = self.raw_status(address, self.upgrade_head(query, [host, foreign]))
        self.assertIn(plain, (400, 403, 404))
        self.assertIn(self.raw_status(address, self.upgrade_head(
            query, [host, own, foreign, "Upgrade: websocket", "Connection: Upgrade"])),
            (400, 403))
        self.assertEqual(self.raw_status(address, self.upgrade_head(
            query, [host, own, "Upgrade: websocket", "Connection: Upgrade"])), 101)

    def test_two_host_headers_are_refused(self):
        address = self.url.split("//")[1].split("/")[0]
        query = self.url.split("?")[1]
        page, own = "GET /?%s HTTP/1.1\r\n" % query, "Host: %s\r\n" % address
        self.assertEqual(self.raw_status(address, page + own + "\r\n"), 200)
        for second in ("Host: evil.example\r\n", own, "Host: localhost:%s\r\n"
                       % address.split(":")[1]):
            self.assertIn(self.raw_status(address, page + own + second + "\r\n"), (400, 403),
                          second)
        self.assertIn(self.raw_status(address, self.upgrade_head(
            query, ["Host: " + address, "Host: evil.example", "Upgrade: websocket",
                    "Connection: Upgrade"])), (400, 403))

    def test_session_list_follows_dynd(self):
        page = self.browser_page()
        self.client.open_scene({"items": [{"id": "a", "center": [100, 100], "size": [20, 20]}]},
                               session="listed", clock="manual")
        self.wait(page, "(document.body.dataset.sessions || '').includes('listed:rest')")
        self.client.add_behavior("listed", {"type": "gravity", "items": ["a"]})
        self.wait(page, "(document.body.dataset.sessions || '').includes('listed:running')")
        self.client.close_session("listed")
        self.wait(page, "document.body.dataset.sessions !== undefined"
                        " && !document.body.dataset.sessions.includes('listed')")
        self.assertEqual(page.errors, [])
        page.context.close()

    def test_drag_the_lock_screen_up(self):
        page = self.browser_page()
        name = self.open_in_page(page, "lock-screen")
        watcher = Client(self.socket)
        watcher.watch(name)
        page.click("#record-button")
        self.wait(page, "document.getElementById('record-button').textContent === 'Stop recording'")
        to_page = self.stage_mapping(page)
        cdp = page.context.new_cdp_session(page)
        base = time.time()

        def mouse(kind, y, t, buttons=1):
            x, py = to_page(160, y)
            cdp.send("Input.dispatchMouseEvent", {
                "type": kind, "x": x, "y": py, "button": "left", "buttons": buttons,
                "clickCount": 1, "timestamp": base + t})

        # Press at y 500 and move up at SPEED; stop half-way for a screenshot (the event times
        # carry on where they were: a pause in wall time is no pause of the finger).
        mouse("mousePressed", 500, 0)
        steps = 20
        for i in range(1, steps + 1):
            mouse("mouseMoved", 500 - SPEED * SAMPLE_DT * i, SAMPLE_DT * i)
            if i == steps // 2:
                self.check_screenshot_mid_drag(page, name)
        end_y = 500 - SPEED * SAMPLE_DT * steps
        mouse("mouseReleased", end_y, SAMPLE_DT * steps, buttons=0)

        handoff = watcher.wait_for("handoff", session=name, timeout=10)
        vx, vy = handoff.gesture_velocity
        # The mouse positions are rounded to the page's pixels: within 2 % of the drag.
        self.assertAlmostEqual(vx, 0, delta=SPEED * 0.02)
        self.assertAlmostEqual(vy, -SPEED, delta=SPEED * 0.02, msg=str(handoff.raw))
        # The item moves with it, but for the engine's 32-bit storage and the wire's rounding.
        for item, finger in zip(handoff.item_velocity, handoff.gesture_velocity):
            self.assertAlmostEqual(item, finger, delta=(handoff.velocity_error or 0) + 0.0011)
        done = watcher.wait_for("done", session=name, timeout=10)
        self.assertEqual(done.outcome, "opened")
        watcher.close()
        self.wait(page, "document.getElementById('outcome').textContent === 'opened'")
        shown = page.evaluate("document.getElementById('gesture-velocity').textContent")
        self.assertEqual(shown, "(%.1f, %.1f) pt/s" % (vx, vy))

        # The recording: every gesture the page sent, with the mouse events' own times, and a
        # trace dynctl render reads.
        page.click("#record-button")
        with page.expect_download() as download_info:
            page.click("#download-button")
        trace_path = os.path.join(self.dir, "inspected.trace.jsonl")
        download_info.value.save_as(trace_path)
        with open(trace_path) as trace:
            lines = [json.loads(line) for line in trace]
        self.assertEqual(lines[0]["trace"], 1)
        self.assertEqual(lines[0]["transition"], "lock-screen")
        gestures = [l["sent"] for l in lines if "sent" in l and l["sent"]["op"] == "gesture"]
        self.assertEqual([g["phase"] for g in gestures[:1] + gestures[-1:]], ["began", "ended"])
        times = [g["t"] for g in gestures]
        self.assertAlmostEqual(times[-1] - times[0], SAMPLE_DT * steps, delta=0.002)
        self.assertTrue(any(l.get("ev") == "frame" for l in lines))
        html = os.path.join(self.dir, "inspected.html")
        rendered = subprocess.run([os.path.join(BIN, "dynctl"), "render", trace_path,
                                   "--html", html], capture_output=True, text=True)
        self.assertEqual(rendered.returncode, 0, rendered.stderr)
        self.assertEqual(page.errors, [])
        page.context.close()

    def test_drag_with_a_finger_on_a_touch_screen(self):
        """A touch screen's finger: touch events with their timestamps become pointer events
        of type touch, and the same gestures."""
        page = self.browser_page(touch=True)
        name = self.open_in_page(page, "lock-screen")
        watcher = Client(self.socket)
        watcher.watch(name)
        to_page = self.stage_mapping(page)
        cdp = page.context.new_cdp_session(page)
        base = time.time()
        speed = 700.0

        def touch(kind, y, t):
            x, py = to_page(160, y)
            points = [] if kind == "touchEnd" else [{"x": x, "y": py, "id": 1}]
            cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points,
                                                  "timestamp": base + t})

        touch("touchStart", 480, 0)
        for i in range(1, 16):
            touch("touchMove", 480 - speed * SAMPLE_DT * i, SAMPLE_DT * i)
        touch("touchEnd", 0, SAMPLE_DT * 15)
        handoff = watcher.wait_for("handoff", session=name, timeout=10)
        self.assertAlmostEqual(handoff.gesture_velocity[1], -speed, delta=speed * 0.02,
                               msg=str(handoff.raw))
        self.assertEqual(watcher.wait_for("done", session=name, timeout=10).outcome, "opened")
        watcher.close()
        self.assertEqual(page.errors, [])
        page.context.close()

    def check_screenshot_mid_drag(self, page, name):
        """The screenshot has the screen's colour inside the screen as the newest frame places
        it, and the stage's background in the strip it uncovered at the bottom."""
        # Far enough that the strip below the screen (checked 40 pt under it) is on the stage:
        # waiting for less let a frame between the two pass the wait and fail the check.
        self.wait(page, "window.dyndInspector.view.frame.items[0].center[1] < 284 - 50")
        self.wait(page, "!drawPending")  # that frame drawn (at the page's next animation frame)
        center_y = page.evaluate("window.dyndInspector.view.frame.items[0].center[1]")
        shot = os.path.join(self.dir, "mid-drag.png")
        screenshot(page, shot)
        shutil.copy(shot, os.path.join(SHOTS, "mid-drag.png"))
        width, height, rows = read_png(shot)
        to_page = self.stage_mapping(page)
        top_of_screen = center_y - 284
        bottom_of_screen = center_y + 284

        def pixel(x, y):
            px, py = to_page(x, y)
            return rows[int(py)][int(px)]

        inside = pixel(60, bottom_of_screen - 40)
        uncovered = pixel(60, min(568 - 10, bottom_of_screen + 40))
        self.assertLess(bottom_of_screen + 40, 568, "the drag uncovers part of the stage")
        self.assertGreater(top_of_screen, -284, "the screen is still partly on the stage")
        # The screen is orange (the first item colour, #e8590c, translucent over the stage):
        # red well above blue inside; the uncovered stage is grey-white (all channels close).
        self.assertGreater(inside[0] - inside[2], 25, "inside the screen: %s" % (inside,))
        self.assertLess(abs(uncovered[0] - uncovered[2]), 12, "uncovered: %s" % (uncovered,))
        self.assertGreater(min(uncovered), 220, "uncovered: %s" % (uncovered,))

    def test_tap_is_sent_as_a_tap(self):
        """A tap on the camera grabber, which the stage draws (issue 27, point 9): a grey
        tint over the screen's bottom-right 80 × 80 pt, listed in the legend."""
        page = self.browser_page()
        name = self.open_in_page(page, "lock-screen")
        width, height, rows = self.shot(page, "camera-grabber.png")
        inside = self.stage_pixel(page, rows, 252, 500)
        outside = self.stage_pixel(page, rows, 200, 500)
        # The screen's translucent orange, greyer inside the grabber.
        self.assertGreater(outside[0] - outside[2], 25, outside)
        self.assertLess(inside[0] - inside[2], outside[0] - outside[2] - 4, (inside, outside))
        self.assertIn("tap zone", page.evaluate(
            "document.querySelector('#legend li[data-key=zone]').textContent"))
        watcher = Client(self.socket)
        watcher.watch(name)
        # lock-screen answers a tap on its grabber (the bottom-right 80 × 80) by tossing the
        # screen up at tap_speed: frames move upward.
        x, y = self.stage_mapping(page)(290, 540)
        page.mouse.click(x, y)
        deadline = time.time() + 5
        while True:
            frame = watcher.wait_for("frame", session=name, timeout=5)
            if frame.items[0].velocity[1] < 0:
                break
            self.assertLess(time.time(), deadline, "the screen never moved up: %s" % frame.raw)
        watcher.close()
        page.context.close()

    def test_parameter_form_reopens_with_the_new_value(self):
        page = self.browser_page()
        name = self.open_in_page(page, "lock-screen")
        table = {p["name"]: p for p in self.client.hello().raw["parameters"]["lock-screen"]}
        shown = page.evaluate("document.querySelector(\"#params [data-param='gravity']\").value")
        self.assertEqual(float(shown), table["gravity"]["default"])
        reopened = self.open_in_page(page, "lock-screen", params={"gravity": 8}, reopen=True)
        self.assertEqual(reopened, name)
        params = self.client.get(name).params
        self.assertEqual(params["gravity"], 8)
        self.assertEqual(params["elasticity"], table["elasticity"]["default"])
        # The form shows the re-opened session's values.
        self.assertEqual(float(page.evaluate(
            "document.querySelector(\"#params [data-param='gravity']\").value")), 8)
        # Out of range: the error is shown and the session is left as it was.
        page.fill("#params [data-param='gravity']", "500")
        page.click("#reopen-button")
        self.wait(page, "document.getElementById('error').textContent.includes('out_of_range')")
        self.assertIn("nothing was re-opened", page.evaluate(
            "document.getElementById('error').textContent"))
        self.assertEqual(self.client.get(name).params["gravity"], 8)
        # A new session under a name in use: dynd's own error is shown, and the page still
        # watches the session it had.
        page.fill("#params [data-param='gravity']", "2")
        page.fill("#open-session", name)
        page.click("#open-button")
        self.wait(page, "document.getElementById('error').textContent"
                        ".startsWith('open: session_exists')")
        self.assertEqual(page.evaluate("window.dyndInspector.view.name"), name)
        self.assertEqual(self.client.get(name).params["gravity"], 8)
        self.assertEqual(page.errors, [])
        page.context.close()

    def test_a_document_transition_is_listed_tuned_and_dragged(self):
        """A transition written as a document (examples/transitions/swipe-card.json) is in the
        page's list beside the built-ins, its form is its parameter table (defaults of the
        bounds included), a value typed there reaches dynd, and a drag hands the velocity over
        to the spring its release rule names."""
        page = self.browser_page()
        listed = page.evaluate(
            "[...document.querySelectorAll('#open-transition option')].map(o => o.value)")
        for name in ("swipe-card", "drawer", "pull-to-refresh", "lock-screen"):
            self.assertIn(name, listed)
        table = {p["name"]: p for p in self.client.hello().raw["parameters"]["swipe-card"]}
        page.select_option("#open-transition", "swipe-card")
        shown = page.evaluate(
            "[...document.querySelectorAll('#params [data-param]')].map(e => e.dataset.param)")
        self.assertEqual(shown, list(table))
        self.assertEqual(float(page.evaluate(
            "document.querySelector(\"#params [data-param='dismiss_speed']\").value")),
            table["dismiss_speed"]["default"])
        name = self.open_in_page(page, "swipe-card", params={"dismiss_speed": 600})
        self.assertEqual(self.client.get(name).params["dismiss_speed"], 600)
        flung = self.client.pan(name, (160, 284), (200, 284), duration=0.1,
                                release_velocity=(1500, 0)).handoff
        self.assertEqual(flung.item_velocity, (1500, 0))
        self.assertIsNotNone(flung.spring)
        self.wait(page, "document.getElementById('outcome').textContent === 'dismissed'")
        self.assertEqual(page.errors, [])
        page.context.close()

    def test_one_of_several_ways_is_sent_as_chosen(self):
        """A spring or a decay the parameters give is one set on the form (issue 38, point 3):
        a list picks the sheet's spring set or fling's decay model, only its fields show, and
        only they are sent; the sheet and fling open with their defaults, and fling with the
        one decay field typed, its default included."""
        page = self.browser_page()
        page.select_option("#open-transition", "sheet")
        sets = page.evaluate(
            "[...document.querySelectorAll(\"[data-motion-set='spring'] option\")]"
            ".map(o => o.value)")
        self.assertEqual(len(sets), 5)
        visible = lambda: page.evaluate(
            "[...document.querySelectorAll(\"label[data-motion='spring']\")]"
            ".filter(l => !l.hidden).map(l => l.querySelector('[data-param]').dataset.param)")
        self.assertEqual(visible(), ["duration", "bounce"])
        sheet = self.open_in_page(page, "sheet")
        self.assertEqual(self.client.get(sheet).motion["spring"]["set"],
                         ["duration", "bounce"])
        page.select_option("[data-motion-set='spring']", "stiffness_ratio")
        self.assertEqual(visible(), ["damping_ratio", "stiffness", "mass"])
        before = page.evaluate("document.body.dataset.opened || ''")
        page.fill("#params [data-param='stiffness']", "300")
        page.click("#reopen-button")
        self.wait(page, "(document.body.dataset.opened || '') !== %s" % json.dumps(before))
        sheet = json.loads(page.evaluate("document.body.dataset.opened"))["session"]
        spring = self.client.get(sheet).motion["spring"]
        self.assertEqual(spring["set"], ["stiffness", "damping_ratio", "mass"])
        self.assertEqual((spring["stiffness"], spring["damping"]), (300, 34.641016))
        self.assertEqual(page.evaluate("document.getElementById('error').textContent"), "")
        fling = self.open_in_page(page, "fling")
        self.assertEqual(self.client.get(fling).params["deceleration_rate"], 0.998)
        page.select_option("[data-motion-set='decay']", "friction")
        before = page.evaluate("document.body.dataset.opened || ''")
        page.fill("#params [data-param='friction']", "1")
        page.click("#reopen-button")
        self.wait(page, "(document.body.dataset.opened || '') !== %s" % json.dumps(before))
        fling = json.loads(page.evaluate("document.body.dataset.opened"))["session"]
        flung = self.client.pan(fling, (160, 284), (220, 240), duration=0.1,
                                release_velocity=(600, -400)).handoff
        self.assertEqual(flung.decay, {"friction": 1})
        self.assertEqual(page.evaluate("document.getElementById('error').textContent"), "")
        self.assertEqual(page.errors, [])
        page.context.close()

    def test_reopening_a_session_the_page_did_not_open_keeps_it(self):
        """Re-tuning a session someone else opened opens a new one beside it; closing the page
        closes only the page's own session."""
        default = {p["name"]: p for p in
                   self.client.hello().raw["parameters"]["lock-screen"]}["gravity"]["default"]
        self.client.open_transition("lock-screen", session="kept", clock="manual", keep=True)
        page = self.browser_page()
        self.wait(page, "(document.body.dataset.sessions || '').includes('kept')")
        page.click("#sessions tr[data-session='kept']")
        self.wait(page, "!document.getElementById('reopen-button').disabled"
                        " && window.dyndInspector.view.name === 'kept'")
        reopened = self.open_in_page(page, "lock-screen", params={"gravity": 8}, reopen=True)
        self.assertNotEqual(reopened, "kept")
        self.assertEqual(self.client.get(reopened).params["gravity"], 8)
        self.assertEqual(self.client.get("kept").params["gravity"], default)
        self.shot(page, "reopened-beside.png")
        self.assertEqual(page.errors, [])
        page.context.close()
        deadline = time.time() + 10
        while reopened in [s["session"] for s in self.client.request("list")["sessions"]]:
            self.assertLess(time.time(), deadline, "the page's own session outlived the page")
            time.sleep(0.05)
        self.assertEqual(self.client.get("kept").params["gravity"], default)
        self.client.close_session("kept")

    def test_the_plotted_item_is_chosen_once_and_picked_from_a_list(self):
        """wave-pop dragged by its fifth row: the plot stays on the item it started with through
        the handoff, and shows another item when the person picks it."""
        page = self.browser_page()
        name = self.open_in_page(page, "wave-pop")
        ids = page.evaluate("Array.from(document.querySelectorAll('#plot-item option'))"
                            ".map(o => o.value)")
        self.assertEqual(ids, [i["id"] for i in self.client.get(name).raw["items"]])
        self.wait(page, "document.body.dataset.plotted === %s" % json.dumps(ids[0]))
        self.client.pan(name, (5, 289), (200, 289), duration=0.2, release_velocity=(800, 0))
        handoff = json.loads(self.wait(page, "document.body.dataset.handoff"))
        self.assertNotEqual(handoff["item"], ids[0])
        # 0.3 s of frames after the handoff (or all of them, when it is done sooner), drawn.
        self.wait(page, "(v => (v.outcome || v.frame.t >= v.marks.find(m => m.kind === 'handoff')"
                        ".t + 0.3) && !drawPending)(window.dyndInspector.view)")
        self.assertEqual(page.evaluate("document.body.dataset.plotted"), ids[0])
        page.select_option("#plot-item", handoff["item"])
        self.wait(page, "document.body.dataset.plotted === %s" % json.dumps(handoff["item"]))
        self.shot(page, "plot-picked.png")
        self.assertEqual(page.errors, [])
        page.context.close()

    def test_scene_behavior_edited_live(self):
        page = self.browser_page()
        self.client.open_scene({
            "items": [{"id": "ball", "center": [160, 100], "size": [30, 30]}],
            "behaviors": [{"type": "gravity", "id": "fall", "items": ["ball"]}],
        }, session="edited", clock="manual", keep=True)
        self.wait(page, "(document.body.dataset.sessions || '').includes('edited')")
        page.click("#sessions tr[data-session='edited']")
        field = "#behaviors [data-behavior='fall'] [data-field='magnitude']"
        self.wait(page, "document.querySelector(%s)" % json.dumps(field))
        page.fill(field, "2.5")
        page.dispatch_event(field, "change")
        self.wait(page, "document.querySelector(%s).dataset.sent === 'ok'" % json.dumps(field))
        behaviors = self.client.request("behaviors", session="edited")["behaviors"]
        self.assertEqual(behaviors[0]["magnitude"], 2.5)
        # The manual clock runs from the page: frames come and the ball falls.
        page.click("#step-button")
        self.wait(page, "window.dyndInspector.view.frame.items[0].center[1] > 110")
        page.click("#step-button")
        self.shot(page, "scene.png")
        self.client.close_session("edited")
        self.assertEqual(page.errors, [])
        page.context.close()

    def test_composite_children_and_fields_are_edited_live(self):
        page = self.browser_page()
        self.client.open_scene({
            "items": [{"id": "ball", "center": [160, 100], "size": [30, 30]}],
            "behaviors": [{"type": "composite", "id": "world", "children": [
                {"type": "field", "id": "well", "kind": "radial_gravity", "items": ["ball"],
                 "position": [160, 300], "region": {"radius": 400}}]}],
        }, session="nested", clock="manual", keep=True)
        self.wait(page, "(document.body.dataset.sessions || '').includes('nested')")
        page.click("#sessions tr[data-session='nested']")
        strength = "#behaviors [data-behavior='well'] [data-field='strength']"
        region = "#behaviors [data-behavior='well'] [data-field='region']"
        self.wait(page, "document.querySelector(%s)" % json.dumps(strength))
        # The kind cannot change, so it has no editor.
        self.assertIsNone(page.query_selector("#behaviors [data-behavior='well'] [data-field='kind']"))
        page.fill(strength, "3")
        page.dispatch_event(strength, "change")
        self.wait(page, "document.querySelector(%s).dataset.sent === 'ok'" % json.dumps(strength))
        page.fill(region, '{"size": [100, 100]}')
        page.dispatch_event(region, "change")
        self.wait(page, "document.querySelector(%s).dataset.sent === 'ok'" % json.dumps(region))
        child = self.client.request("behaviors", session="nested")["behaviors"][0]["children"][0]
        self.assertEqual((child["strength"], child["region"]), (3, {"size": [100, 100]}))
        self.client.close_session("nested")
        self.assertEqual(page.errors, [])
        page.context.close()

    # ---- issue 27: what a person sees ------------------------------------------------------

    def test_a_flick_whose_pointer_stood_still_is_explained_then_reset(self):
        """Points 2 and 7: 300 pt up in 96 ms, then the pointer still for 55 ms before lift-off.
        dynd hands over 0 pt/s, and the page says why beside it; the plot's finger line runs at
        the estimator's speed and drops to 0 at the lift-off. The screen opens off the top of
        the stage, which then shows a marker pointing at it with its distance, and Reset brings
        it back (the page opened the session: it is opened again under its name)."""
        page = self.browser_page()
        name = self.open_in_page(page, "lock-screen")
        strokes = [("down", 160, 500, 0)]
        strokes += [("move", 160, 500 - 25 * i, 0.008 * i) for i in range(1, 13)]
        strokes.append(("up", 160, 200, 0.096 + 0.055))
        self.mouse(page, strokes, pace=0.008)
        handoff = json.loads(self.wait(page, "document.body.dataset.handoff"))
        self.assertEqual(handoff["gesture_velocity"], [0, 0])
        self.assertEqual(handoff["estimate"]["reason"], "pointer_stopped", handoff)
        self.assertEqual(self.text(page, "gesture-velocity"), "(0.0, 0.0) pt/s")
        reason = self.text(page, "handoff-reason")
        self.assertTrue(reason.startswith("0 pt/s: the pointer was still for "), reason)
        self.assertTrue(reason.endswith(" ms before lift-off (Android's and Flutter's 40 ms rule)"),
                        reason)
        still = float(re.search(r"still for ([0-9.]+) ms", reason).group(1))
        self.assertAlmostEqual(still, 55, delta=1)
        # Shown right under the velocity it explains, in view.
        number = page.locator("#gesture-velocity").bounding_box()
        said = page.locator("#handoff-reason").bounding_box()
        self.assertLess(abs(said["y"] - (number["y"] + number["height"])), 12)
        self.assertLess(said["y"] + said["height"], VIEWPORT["height"])
        finger = page.evaluate("window.dyndInspector.view.fingerSamples.map(s => s.vy)")
        self.assertEqual(finger[-1], 0, "the finger's line ends at the handed-over 0")
        self.assertLess(min(finger), -0.9 * 25 / 0.008, finger)
        self.shot(page, "flick.png")

        self.wait(page, "document.body.dataset.outcome === 'opened'")
        marks = json.loads(self.wait(page, "(m => m !== '[]' && m)"
                                           "(document.getElementById('stage').dataset.offstage)"))
        self.wait(page, "!window.dyndInspector.view.frame.items[0].velocity[1]")
        self.wait(page, "!drawPending")  # the frame at rest drawn
        marks = json.loads(page.evaluate("document.getElementById('stage').dataset.offstage"))
        bottom = page.evaluate("window.dyndInspector.view.frame.items[0].center[1]") + 284
        self.assertEqual([m["id"] for m in marks], ["screen"])
        self.assertLess(bottom, 0, "the screen is above the stage")
        self.assertEqual(marks[0]["distance"], round(-bottom))
        width, height, rows = self.shot(page, "opened-offstage.png")
        box = page.locator("#stage").bounding_box()
        css = box["width"] / page.evaluate("document.getElementById('stage').width")
        marker = rows[int(box["y"] + marks[0]["at"][1] * css)][int(box["x"] + marks[0]["at"][0] * css)]
        # The marker is the screen's colour (#e8590c) inside the bounds.
        self.assertTrue(marker[0] > 190 and 60 < marker[1] < 130 and marker[2] < 70, marker)
        top = self.stage_mapping(page)(160, 0)[1]
        self.assertGreater(box["y"] + marks[0]["at"][1] * css, top, "the marker is on the stage")

        self.assertEqual(self.text(page, "reset-button"), "Reset (open %s again)" % name)
        page.click("#reset-button")
        self.wait(page, "document.getElementById('outcome').textContent === '—'"
                        " && window.dyndInspector.view && window.dyndInspector.view.frame"
                        " && window.dyndInspector.view.frame.items[0].center[1] === 284"
                        " && document.getElementById('stage').dataset.offstage === '[]'")
        self.assertEqual(page.evaluate("window.dyndInspector.view.name"), name)
        self.assertEqual(self.client.get(name).items[0].center, (160, 284))
        self.shot(page, "reset.png")
        self.assertEqual(page.errors, [])
        page.context.close()

    @staticmethod
    def js_number(value):
        """A number as the pages and dynctl write it in sentences (3 decimals at most)."""
        rounded = round(value * 1000) / 1000
        return str(int(rounded)) if rounded == int(rounded) else repr(rounded)

    def test_a_diagonal_drag_explains_the_rail_and_plots_the_estimate(self):
        """Points 6 and 3: a lock-screen drag up and to the right. The page gives the rail's
        sentence beside the item velocity, the very one `dynctl handoff` prints for the same
        velocity; the finger's line is the estimator's, steady while the finger moves steadily
        and equal to the handoff's velocity at lift-off; the handoff's value is dotted on the
        release line in each axis's colour; no two labels overlap."""
        page = self.browser_page()
        name = self.open_in_page(page, "lock-screen")
        strokes = [("down", 160, 500, 0)]
        strokes += [("move", 160 + 8 * i, 500 - 12 * i, 0.016 * i) for i in range(1, 21)]
        strokes.append(("up", 320, 260, 0.32))
        self.mouse(page, strokes, pace=0.016)
        handoff = json.loads(self.wait(page, "document.body.dataset.handoff"))
        gx, gy = handoff["gesture_velocity"]
        self.assertEqual(handoff["constraints"], [{"kind": "rail", "axis": [0, 1]}])
        self.assertGreater(gx, 300)
        n = self.js_number
        sentence = ("the item runs on a rail along (0, 1): (%s, %s) projected onto it is (0, %s) pt/s"
                    % (n(gx), n(gy), n(gy)))
        self.assertEqual(self.text(page, "handoff-constraints"), "Why they differ: %s." % sentence)
        cli = subprocess.run(
            [os.path.join(BIN, "dynctl"), "handoff", "lock-screen", "--pan", "160,500:160,380",
             "--duration", "0.2", "--release-velocity", "%s,%s" % (n(gx), n(gy))],
            env=dict(os.environ, DYND_SOCKET=self.socket), capture_output=True, text=True,
            timeout=60)
        self.assertIn(sentence, cli.stdout, cli.stderr)

        estimate = json.loads(page.evaluate("document.body.dataset.fingerEstimate"))
        self.assertAlmostEqual(estimate[0], gx, delta=0.01)
        self.assertAlmostEqual(estimate[1], gy, delta=0.01)
        finger = page.evaluate("window.dyndInspector.view.fingerSamples.filter(s => s.vx)"
                               ".map(s => [s.vx, s.vy])")
        self.assertGreater(len(finger), 5)
        for axis, value in ((0, gx), (1, gy)):
            spread = max(v[axis] for v in finger) - min(v[axis] for v in finger)
            self.assertLess(spread, 0.06 * abs(value), "not steady: %s" % finger)
        self.wait(page, "document.body.dataset.outcome")
        self.wait(page, "document.getElementById('status').dataset.rest")
        labels = self.plot_labels(page)
        texts = [text for text, _ in labels]
        self.assertIn("release (%.1f, %.1f) pt/s" % (gx, gy), texts)
        self.assertIn("done: " + page.evaluate("document.body.dataset.outcome"), texts)
        # The dots: at the release line, at the handed-over vx and vy, in their colours.
        at = page.evaluate("""(() => {
          const v = window.dyndInspector.view, c = document.getElementById('plot');
          const [lo, hi] = JSON.parse(c.dataset.ranges).values[0], t0 = Math.max(0, v.frame.t - 4);
          const [x, y, w, h] = JSON.parse(c.dataset.panels)[0];
          const m = v.marks.find(m => m.kind === 'handoff');
          const Y = value => y + h - (value - lo) / (hi - lo) * h;
          return [x + (m.t - t0) / 4 * w, Y(m.velocity[0]), Y(m.velocity[1])]; })()""")
        width, height, rows = self.shot(page, "diagonal.png")
        box = page.locator("#plot").bounding_box()
        for y, color in ((at[1], (0x1C, 0x7E, 0xD6)), (at[2], (0x70, 0x48, 0xE8))):
            got = rows[int(round(box["y"] + y))][int(round(box["x"] + at[0]))]
            self.assertTrue(all(abs(a - b) < 40 for a, b in zip(got, color)), (got, color))
        self.assertEqual(page.errors, [])
        page.context.close()

    def test_pip_corners_release_and_done_labels_do_not_overlap(self):
        """Point 3: pip-corners thrown to a corner by another client: "release (…)" and
        "done: top_left" both on the plot, their boxes apart."""
        page = self.browser_page()
        name = self.open_in_page(page, "pip-corners")
        center = self.client.get(name).items[0].center
        self.client.pan(name, center, (150, 300), duration=0.15, release_velocity=(-600, -1300))
        outcome = self.wait(page, "document.body.dataset.outcome")
        self.wait(page, "(document.getElementById('plot').dataset.labels || '').includes('done: ')")
        texts = [text for text, _ in self.plot_labels(page)]
        self.assertIn("done: " + outcome, texts)
        self.assertTrue(any(t.startswith("release (") for t in texts), texts)
        self.shot(page, "pip-corners.png")
        self.assertEqual(page.errors, [])
        page.context.close()

    def test_the_playgrounds_ball_is_round_and_its_behaviors_are_typed(self):
        """Points 5 and 8: the playground (examples/scenes), opened by another client: its
        ellipse is drawn round; the behaviors editor shows choices as lists and vectors as
        numbers, in view without scrolling; after a change every field shows dynd's values
        (the direction set, the angle and magnitude follow)."""
        with open(os.path.join(HERE, "..", "examples", "scenes", "inspect-playground.json")) as f:
            scene = json.load(f)
        self.client.open_scene(scene, session="playground", clock="manual", keep=True)
        page = self.browser_page()
        self.wait(page, "(document.body.dataset.sessions || '').includes('playground')")
        page.click("#sessions tr[data-session='playground']")
        mode = "#behaviors [data-behavior='walls'] [data-field='mode']"
        self.wait(page, "document.querySelector(%s)" % json.dumps(mode))
        width, height, rows = self.shot(page, "playground.png")
        # The ball (44 pt across at 240, 60; the second colour, #1c7ed6): blue inside the
        # circle, the stage's background at its bounding box's corner.
        inside = self.stage_pixel(page, rows, 240, 60 + 14)
        corner = self.stage_pixel(page, rows, 240 + 17, 60 + 17)
        self.assertGreater(inside[2] - inside[0], 60, inside)
        self.assertGreater(min(corner), 235, corner)

        self.assertEqual(page.evaluate("document.querySelector(%s).tagName" % json.dumps(mode)),
                         "SELECT")
        self.assertEqual(page.evaluate("Array.from(document.querySelector(%s).options)"
                                       ".map(o => o.value)" % json.dumps(mode)),
                         ["everything", "items", "boundaries"])
        panel = page.evaluate("""(() => { const r = document.getElementById('behaviors-panel')
          .getBoundingClientRect(), b = document.getElementById('behaviors');
          return [r.top, r.bottom, r.left, r.right, window.scrollY, b.scrollHeight - b.clientHeight]; })()""")
        self.assertGreaterEqual(panel[0], 0, panel)
        self.assertLessEqual(panel[1], VIEWPORT["height"], panel)
        self.assertLessEqual(panel[3], VIEWPORT["width"], panel)
        self.assertEqual(panel[4:], [0, 0], "scrolled: %s" % panel)

        def changed(selector, fill=None, choose=None):
            before = page.evaluate("document.body.dataset.behaviorsRefreshed || '0'")
            if choose is not None:
                page.select_option(selector, choose)
            else:
                page.fill(selector, fill)
                page.dispatch_event(selector, "change")
            self.wait(page, "(document.body.dataset.behaviorsRefreshed || '0') !== %s"
                      % json.dumps(before))

        changed(mode, choose="boundaries")
        walls = self.client.request("behaviors", session="playground")["behaviors"][1]
        self.assertEqual(walls["mode"], "boundaries")
        direction = "#behaviors [data-behavior='gravity'] [data-field='direction'] [data-part='%d']"
        changed(direction % 0, fill="0.5")
        changed(direction % 1, fill="-1")
        gravity = self.client.request("behaviors", session="playground")["behaviors"][0]
        self.assertEqual(gravity["direction"], [0.5, -1])
        self.assertAlmostEqual(gravity["angle"], -1.107149, places=5)
        # (Moving from one field to the next sends a change too: the last refresh is the one.)
        for field in ("angle", "magnitude"):
            self.wait(page, "Number(document.querySelector(\"#behaviors [data-behavior='gravity'] "
                            "[data-field='%s']\").value) === %s" % (field, json.dumps(gravity[field])))
        self.shot(page, "playground-edited.png")
        self.client.close_session("playground")
        self.assertEqual(page.errors, [])
        page.context.close()

    # ---- issue 38: springs and landings ----------------------------------------------------

    @staticmethod
    def js6(value):
        """A number as dyndMotion writes it: 6 decimals at most, no trailing zeros."""
        text = ("%.6f" % value).rstrip("0").rstrip(".")
        return "0" if text in ("-0", "") else text

    def platform_lines(self, spring):
        """The platform lines for a spring as dynd reports it (`behaviors`, a handoff's)."""
        n = self.js6
        return [["SwiftUI", "Spring(duration: %s, bounce: %s)" % (n(spring["duration"]), n(spring["bounce"]))],
                ["Android", "SpringForce().setStiffness(%sf).setDampingRatio(%sf)"
                 % (n(spring["stiffness"] / spring["mass"]), n(spring["damping_ratio"]))],
                ["Flutter", "SpringDescription(mass: %s, stiffness: %s, damping: %s)"
                 % (n(spring["mass"]), n(spring["stiffness"]), n(spring["damping"]))],
                ["Origami", "tension %s, friction %s" % (
                    n((spring["stiffness"] / spring["mass"] - 194) / 3.62 + 30),
                    n((spring["damping"] / spring["mass"] - 25) / 3 + 8))]]

    def number_boxes_fit(self, page, selector):
        """Every number box under `selector`: its value's text fits inside it (the spin
        buttons' 18 px kept free)."""
        boxes = page.evaluate("""(s => Array.from(document.querySelectorAll(s)).map(i => {
          const cs = getComputedStyle(i), g = document.createElement('canvas').getContext('2d');
          g.font = cs.font;
          return [i.value, g.measureText(i.value).width,
                  i.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) - 18]; }))(%s)"""
                              % json.dumps(selector))
        self.assertTrue(boxes)
        for value, text, room in boxes:
            self.assertLessEqual(text, room, "the box cuts %s off: %.1f px of text in %.1f" % (value, text, room))

    def test_a_spring_is_edited_as_one_parameter_set(self):
        """Point 1: a duration + bounce spring; bounce changed in the page sends the whole set
        (duration with it) and dynd accepts it; another set picked shows the spring in its
        terms (from dynd's values) and sends all of its fields; the platform lines follow
        what dynd reports; no number box cuts its value off. And the page's conversions of
        each of the five sets equal dynd's (`behaviors`)."""
        scene = {"items": [{"id": "card", "center": [160, 500], "size": [300, 200]}],
                 "behaviors": [{"type": "spring", "id": "settle", "items": ["card"], "target": [160, 284],
                                "duration": 0.5, "bounce": 0.3}]}
        self.client.open_scene(scene, session="springs", clock="manual", keep=True)
        page = self.browser_page()
        self.wait(page, "(document.body.dataset.sessions || '').includes('springs')")
        page.click("#sessions tr[data-session='springs']")
        editor = "#behaviors [data-behavior='settle'] "
        self.wait(page, "document.querySelector(%s)" % json.dumps(editor + "[data-spring-set]"))

        def fields():
            return page.evaluate("Object.fromEntries(Array.from(document.querySelectorAll(%s))"
                                 ".map(i => [i.dataset.springField, Number(i.value)]))"
                                 % json.dumps(editor + "[data-spring-field]"))

        def send(values):
            expected = {"op": "set_behavior", "session": "springs", "behavior": "settle"}
            expected.update(values)
            for field, value in values.items():
                page.fill(editor + "[data-spring-field='%s']" % field, str(value))
            page.dispatch_event(editor + "[data-spring-field='%s']" % list(values)[-1], "change")
            # (Leaving one box for the next sends the set as it is then: the last is the one.)
            answer = json.loads(self.wait(page, "(r => r && JSON.stringify(JSON.parse(r).sent) === %s && r)"
                                                "(document.body.dataset.springReply)"
                                          % json.dumps(json.dumps(expected, separators=(",", ":")))))
            self.assertEqual(answer["reply"], {"ok": True, "id": answer["reply"]["id"]})
            self.wait(page, "document.querySelector(%s).dataset.sent === 'ok'" % json.dumps(editor + ".spring-editor"))
            return self.client.request("behaviors", session="springs")["behaviors"][0]

        def lines():
            return page.evaluate("Array.from(document.querySelectorAll(%s)).map(c => [c.dataset.platform, c.textContent])"
                                 % json.dumps(editor + ".platform-lines code"))

        self.assertEqual(fields(), {"duration": 0.5, "bounce": 0.3})
        self.number_boxes_fit(page, "#behaviors input[type=number]")
        spring = send({"duration": 0.5, "bounce": 0.6})
        self.assertEqual((spring["duration"], spring["bounce"], spring["damping_ratio"]), (0.5, 0.6, 0.4))
        self.wait(page, "document.querySelector(%s).textContent.includes('bounce: 0.6)')"
                  % json.dumps(editor + ".platform-lines code"))
        self.assertEqual(lines(), self.platform_lines(spring))

        page.select_option(editor + "[data-spring-set]", "stiffness_damping")
        self.assertEqual(fields(), {"stiffness": spring["stiffness"], "damping": spring["damping"], "mass": 1})
        self.number_boxes_fit(page, "#behaviors input[type=number]")
        spring = send({"stiffness": 100, "damping": 10, "mass": 1})
        self.assertEqual((spring["response"], spring["bounce"]), (0.628319, 0.5))
        self.wait(page, "document.querySelector(%s).textContent === 'Spring(duration: 0.628319, bounce: 0.5)'"
                  % json.dumps(editor + ".platform-lines code"))
        self.assertEqual(lines(), self.platform_lines(spring))
        self.assertEqual(lines()[3], ["Origami", "tension 4.033149, friction 3"])
        page.select_option(editor + "[data-spring-set]", "origami")
        self.assertEqual(fields(), {"tension": 4.033149, "friction": 3})
        spring = send({"tension": 20.031401, "friction": 8.044247})
        self.assertAlmostEqual(spring["stiffness"], 157.91367, places=4)
        self.shot(page, "spring-editor.png")

        # Each set as dynd converts it and as the page does: the same spring, every value.
        sets = [{"response": 0.4, "damping_ratio": 0.8}, {"duration": 0.7, "bounce": -0.3},
                {"stiffness": 300, "damping_ratio": 0.6, "mass": 2}, {"stiffness": 250, "damping": 12, "mass": 0.5},
                {"tension": 40, "friction": 7}]
        for k, values in enumerate(sets):
            self.client.request("add_behavior", session="springs", behavior=dict(
                {"type": "spring", "id": "s%d" % k, "items": ["card"], "target": [0, 0]}, **values))
        reported = self.client.request("behaviors", session="springs")["behaviors"][1:]
        derived = page.evaluate("""(sets => sets.map(v => dyndMotion.springValues(
            dyndMotion.springFrom(dyndMotion.springSetOf(v), v))))(%s)""" % json.dumps(sets))
        for values, dynd, js in zip(sets, reported, derived):
            for field in ("mass", "stiffness", "damping", "damping_ratio", "response", "duration", "bounce"):
                self.assertAlmostEqual(js[field], dynd[field], delta=1e-6 * max(1, abs(dynd[field])),
                                       msg="%s of %s" % (field, values))
        self.client.close_session("springs")
        self.assertEqual(page.errors, [])
        page.context.close()

    def test_the_sheet_and_the_fling_land_where_the_page_says(self):
        """Point 2 in the inspector, and point 7's status line: the sheet's detents named on
        the stage before any pan; a flick up: the projection, the detent, the spring beside the
        handoff as the handoff gives them, the platform lines, the projection and the landing on
        the stage, the position plot's closed form of the spring behind frames it agrees with;
        the rail drawn as one. A fling (friction 4) the same way with its decay, resting on its
        projection. Screenshots at 1400×900, 1920×1080 and a phone's 390×844, nothing wider than
        the window."""
        page = self.browser_page()
        name = self.open_in_page(page, "sheet")
        status, stage = page.locator("#status").bounding_box(), page.locator("#stage").bounding_box()
        self.assertLessEqual(status["y"] + status["height"] + 4, stage["y"], "the status line overlaps the stage")
        landing = json.loads(self.wait(page, "document.getElementById('stage').dataset.landing"))
        self.assertEqual([d["name"] for d in landing["detents"]], ["collapsed", "medium", "large"])
        self.assertIsNone(landing["projection"])
        for key in ("rail", "detent", "projection", "landing"):
            self.assertTrue(page.evaluate("!!document.querySelector('#legend li[data-key=%s]')" % key), key)
        self.assertEqual(page.evaluate("window.dyndInspector.view.debug.attachments[0].axis"), [0, 1])

        strokes = [("down", 160, 520, 0)] + [("move", 160, 520 - 16 * i, 0.008 * i) for i in range(1, 11)]
        strokes.append(("up", 160, 360, 0.08))
        self.mouse(page, strokes, pace=0.008)
        handoff = json.loads(self.wait(page, "document.body.dataset.handoff"))
        self.assertIn("detent", handoff)
        rows = page.evaluate("Object.fromEntries(Array.from(document.querySelectorAll('#landing [data-field]'))"
                             ".map(d => [d.dataset.field, d.querySelector('b').textContent]))")
        n = self.js_number
        self.assertTrue(rows["projection"].startswith("(%s, %s)" % tuple(n(v) for v in handoff["projection"])), rows)
        self.assertTrue(rows["landing"].startswith("detent %s (" % handoff["detent"]), rows)
        self.assertIn("stiffness 157.91367, damping 25.132741", rows["motion"])
        self.assertEqual(page.evaluate("Array.from(document.querySelectorAll('#landing .platform-lines code'))"
                                       ".map(c => [c.dataset.platform, c.textContent])"),
                         self.platform_lines(handoff["spring"]))
        # The stage takes the landing at its next drawing: wait for it rather than race it.
        landing = json.loads(self.wait(
            page, "(() => { const l = document.getElementById('stage').dataset.landing;"
                  " return l && JSON.parse(l).detents.some(d => d.chosen) ? l : ''; })()"))
        self.assertEqual([d["name"] for d in landing["detents"] if d["chosen"]], [handoff["detent"]])
        self.assertIsNotNone(landing["projection"])
        self.assertIsNotNone(landing["target"])
        self.wait(page, "document.body.dataset.curve === 'spring'")
        self.wait(page, "document.body.dataset.outcome")
        self.wait(page, "document.getElementById('status').dataset.rest")
        self.check_curve(page, "sheet")
        self.shot(page, "sheet-landing.png")
        for width, height in ((1920, 1080), (390, 844)):
            page.set_viewport_size({"width": width, "height": height})
            self.shot(page, "sheet-landing-%dx%d.png" % (width, height))
            # Nothing wider than the window (on a phone the page stacks, the view first).
            self.assertLessEqual(page.evaluate("document.documentElement.scrollWidth"), width)
            if width < 760:
                self.assertLess(page.locator("#stage").bounding_box()["y"], page.locator("aside").bounding_box()["y"])
        page.set_viewport_size(VIEWPORT)

        name = self.open_in_page(page, "fling", {"friction": 4})
        self.client.pan(name, (160, 284), (180, 274), duration=0.1, release_velocity=(600, -1200))
        handoff = json.loads(self.wait(page, "(h => h && JSON.parse(h).decay && h)(document.body.dataset.handoff)"))
        self.wait(page, "document.body.dataset.curve === 'decay'")
        self.wait(page, "document.body.dataset.outcome === 'stopped'")
        rows = page.evaluate("Object.fromEntries(Array.from(document.querySelectorAll('#landing [data-field]'))"
                             ".map(d => [d.dataset.field, d.querySelector('b').textContent]))")
        self.assertIn("Android FlingAnimation friction 4: λ 16.8 /s, stops under 46.875 pt/s", rows["motion"])
        self.assertTrue(rows["landing"].startswith("center (%s, %s)" % tuple(n(v) for v in handoff["projection"])), rows)
        self.assertEqual(list(self.client.get(name).items[0].center), handoff["projection"])
        self.check_curve(page, "card")
        self.shot(page, "fling-landing.png")
        self.assertEqual(page.errors, [])
        page.context.close()

    def check_curve(self, page, item):
        """The plot's closed form, from the first frame after the release, against every frame
        of the item since (realtime frames: the wire writes times to 1 ms, so the first frame's
        time and each frame's are each up to 0.5 ms off: the item's speed × 1.1 ms of slack)."""
        far = page.evaluate("""(id => { const v = window.dyndInspector.view, c = v.curve; let worst = 0, n = 0;
          for (const s of v.samples[id]) if (s.t > c.t0) {
            const at = c.L.at(s.t - c.t0), slack = 0.0011 * Math.hypot(s.vx, s.vy) + 0.01;
            worst = Math.max(worst, Math.hypot(at[0] - s.x, at[1] - s.y) - slack); n++; }
          return [worst, n]; })(%s)""" % json.dumps(item))
        self.assertGreater(far[1], 5)
        self.assertLessEqual(far[0], 0, "a frame strays from the closed form: %s" % far)
        labels = json.loads(page.evaluate("document.getElementById('plot').dataset.series"))
        self.assertIn("y closed form", [l["label"] for l in labels])

    def test_tour_through_a_dynd_restart(self):
        """Point 10: the page watching a session while dynd stops: one state ("dynd is gone —
        reconnecting…", the stage faded, the status saying watching resumes), kept through the
        attempts; dynd-inspect's log says dynd is gone; when dynd is back with the session the
        page watches it again, and the log says so. No console error on the way."""
        page = self.browser_page()
        self.client.open_transition("lock-screen", session="tour", keep=True)
        self.wait(page, "(document.body.dataset.sessions || '').includes('tour')")
        page.click("#sessions tr[data-session='tour']")
        self.wait(page, "window.dyndInspector.view && window.dyndInspector.view.name === 'tour'"
                        " && window.dyndInspector.view.stage")
        strokes = [("down", 160, 500, 0)]
        strokes += [("move", 160, 500 - 10 * i, 0.016 * i) for i in range(1, 11)]
        strokes.append(("up", 160, 400, 0.16))
        self.mouse(page, strokes, pace=0.016)
        self.wait(page, "document.body.dataset.handoff")
        self.shot(page, "tour-watching.png")

        self.dynd.send_signal(signal.SIGTERM)
        self.assertEqual(self.dynd.wait(10), 0)
        self.wait(page, "document.body.dataset.link === 'gone'")
        # An attempt to reconnect (one a second) made and failed: a new link, and the next
        # attempt waiting. Still the one state.
        page.evaluate("window.dyndInspector.control.beforeAttempt = true")
        self.wait(page, "!window.dyndInspector.control.beforeAttempt && reconnectTimer !== null")
        self.assertEqual(page.evaluate("document.body.dataset.link"), "gone")
        self.assertEqual(self.text(page, "link-state"), "dynd is gone — reconnecting…")
        self.assertIn("watching tour resumes when dynd returns", self.text(page, "status"))
        self.assertEqual(page.evaluate("document.querySelectorAll('#sessions tbody tr').length"), 0)
        self.shot(page, "tour-gone.png")
        self.assertEqual(sum("dynd is gone" in line for line in self.inspector_log), 1,
                         self.inspector_log)

        self.client.close()
        type(self).start_dynd()
        type(self).client = Client(self.socket)
        self.client.open_transition("lock-screen", session="tour", keep=True)
        self.wait(page, "document.body.dataset.link === 'connected' && window.dyndInspector.view"
                        " && window.dyndInspector.view.name === 'tour' && window.dyndInspector.view.stage",
                  timeout=15)
        self.assertTrue(self.text(page, "link-state").startswith("connected to dynd "))
        self.assertEqual(self.text(page, "status"), "watching tour (lock-screen, realtime clock)")
        self.shot(page, "tour-back.png")
        self.assertTrue(any("dynd is back" in line for line in self.inspector_log),
                        self.inspector_log)
        self.client.close_session("tour")
        self.assertEqual(page.errors, [])
        page.context.close()


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    BIN = os.path.abspath(sys.argv.pop(1))
    INSPECT = os.path.abspath(sys.argv.pop(1) if len(sys.argv) > 1 and not sys.argv[1].startswith("-")
                              else os.path.join(BIN, "dynd-inspect"))
    for tool in (os.path.join(BIN, "dynd"), os.path.join(BIN, "dynctl"), INSPECT):
        if not os.access(tool, os.X_OK):
            sys.exit("test_inspector: %s is missing; build first (make build inspector-build)"
                     % tool)
    unittest.main(verbosity=2)
