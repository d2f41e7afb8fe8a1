#!/usr/bin/env python3
"""The live inspector in a real browser (part of `make test`).

    python3 tools/test_inspector.py BIN_DIR      (the directory holding dynd, dynd-inspect, dynctl)

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
`dynctl render` accepts.

If Chromium or Playwright cannot start, every browser test is skipped with the reason (make test
installs both: tools/deps.sh test browser).
"""

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import unittest
import urllib.error
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "clients", "python"))
sys.path.insert(0, HERE)

from dynd import Client  # noqa: E402
from test_render import read_png  # noqa: E402

BIN = None
# DYND_INSPECT_SHOTS=DIR keeps the screenshots the tests take (mid-drag.png, scene.png,
# reopened-beside.png, plot-picked.png) there.
SHOTS = os.environ.get("DYND_INSPECT_SHOTS")
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
        cls.dynd = subprocess.Popen([os.path.join(BIN, "dynd"), "--socket", cls.socket],
                                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.time() + 10
        while not os.path.exists(cls.socket):
            if time.time() > deadline or cls.dynd.poll() is not None:
                raise RuntimeError("dynd did not start")
            time.sleep(0.02)
        cls.inspector = subprocess.Popen(
            [os.path.join(BIN, "dynd-inspect"), "--socket", cls.socket],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        cls.url = None
        deadline = time.time() + 20
        while cls.url is None and time.time() < deadline:
            line = cls.inspector.stdout.readline()
            if not line:
                raise RuntimeError("dynd-inspect stopped: " + cls.inspector.stderr.read())
            if line.startswith("dynd-inspect: open "):
                cls.url = line.split("open ", 1)[1].strip()
        if cls.url is None:
            raise RuntimeError("dynd-inspect printed no address")
        cls.client = Client(cls.socket)
        cls.manager = cls.browser = None

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
        context = cls.browser.new_context(viewport={"width": 1300, "height": 1000},
                                          accept_downloads=True, has_touch=touch)
        page = context.new_page()
        page.errors = []
        page.on("pageerror", lambda error: page.errors.append(str(error)))
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
        inspect = os.path.join(BIN, "dynd-inspect")
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
    def upgrade_status(address, host, origin, query):
        """The status of a WebSocket handshake for /ws?QUERY sent to `address` with these
        Host and Origin headers, as a browser would send it."""
        import socket as sockets
        name, port = address.split(":")
        with sockets.create_connection((name, int(port)), timeout=5) as connection:
            connection.sendall((
                "GET /ws?%s HTTP/1.1\r\nHost: %s\r\nOrigin: %s\r\nUpgrade: websocket\r\n"
                "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                "Sec-WebSocket-Version: 13\r\n\r\n" % (query, host, origin)).encode())
            status_line = connection.recv(4096).split(b"\r\n")[0].decode()
        return int(status_line.split()[1])

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
        self.wait(page, "window.dyndInspector.view.frame.items[0].center[1] < 284 - 30")
        time.sleep(0.1)  # the frame drawn
        center_y = page.evaluate("window.dyndInspector.view.frame.items[0].center[1]")
        shot = os.path.join(self.dir, "mid-drag.png")
        page.screenshot(path=shot)
        if SHOTS:
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
        page = self.browser_page()
        name = self.open_in_page(page, "lock-screen")
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
        if SHOTS:
            page.screenshot(path=os.path.join(SHOTS, "reopened-beside.png"))
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
        time.sleep(0.3)  # frames after the handoff are drawn
        self.assertEqual(page.evaluate("document.body.dataset.plotted"), ids[0])
        page.select_option("#plot-item", handoff["item"])
        self.wait(page, "document.body.dataset.plotted === %s" % json.dumps(handoff["item"]))
        if SHOTS:
            page.screenshot(path=os.path.join(SHOTS, "plot-picked.png"))
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
        if SHOTS:
            page.screenshot(path=os.path.join(SHOTS, "scene.png"))
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


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    BIN = os.path.abspath(sys.argv.pop(1))
    for tool in ("dynd", "dynd-inspect", "dynctl"):
        if not os.access(os.path.join(BIN, tool), os.X_OK):
            sys.exit("test_inspector: %s/%s is missing; build first (swift build)" % (BIN, tool))
    unittest.main(verbosity=2)
