"use strict";
// The error counter, AXIS_COLORS and MARK_COLORS come first, from PageBasics.
/* global AXIS_COLORS, MARK_COLORS, makeDyndStage, makeDyndPlot, makeDyndFingerVelocity */
/* global dyndHandoffWords, dyndMotion */
const $ = id => document.getElementById(id);
const TOKEN = new URLSearchParams(location.search).get("token") || "";
const WS_URL = "ws://" + location.host + "/ws?token=" + encodeURIComponent(TOKEN);
const SLOP = 8;            // CSS pixels a press moves before it is a pan, not a tap
const PLOT_SECONDS = 4;    // the velocity plot's window
const LIST_PERIOD = 300;   // ms between a `list` reply and the next request
const LIST_ROWS = 200;     // rows drawn; a daemon may hold 20 000 sessions
const RECONNECT_PERIOD = 1000;  // ms between attempts to reach dynd again

function showError(text) { $("error").textContent = text || ""; }
function fmt(v, digits) { return Number(v).toFixed(digits === undefined ? 1 : digits); }
function vec(v) { return v ? "(" + fmt(v[0]) + ", " + fmt(v[1]) + ") pt/s" : "—"; }

/* One connection to dynd: a WebSocket the inspector bridges line for line to a new dynd
   connection. request(op) sends op with a fresh id and resolves with its reply; events go
   to onEvent; listeners hear every line sent and received (the recorder). */
class Link {
  constructor(onEvent, onClose) {
    this.ws = new WebSocket(WS_URL);
    this.open = false;
    this.nextID = 1; this.pending = new Map(); this.listeners = new Set();
    this.ready = new Promise((resolve, reject) => {
      this.ws.onopen = () => { this.open = true; resolve(); };
      this.ws.onerror = () => reject(new Error("the inspector refused the WebSocket"));
    });
    this.ws.onmessage = message => {
      const line = JSON.parse(message.data);
      for (const listener of this.listeners) listener("received", line);
      if ("ok" in line) {
        const resolve = this.pending.get(line.id);
        if (resolve) { this.pending.delete(line.id); resolve(line); }
      } else if (onEvent) onEvent(line);
    };
    this.ws.onclose = event => {
      this.open = false;
      for (const resolve of this.pending.values())
        resolve({ ok: false, error: { code: "disconnected", message: event.reason || "the connection closed" } });
      this.pending.clear();
      if (onClose) onClose(event);
    };
  }
  async request(op) {
    await this.ready;
    // A connection that has closed answers at once (sending on it would be a script error).
    if (!this.open || this.ws.readyState !== WebSocket.OPEN)
      return { ok: false, error: { code: "disconnected", message: "the connection to dynd has closed" } };
    const message = Object.assign({}, op, { id: this.nextID++ });
    for (const listener of this.listeners) listener("sent", message);
    this.ws.send(JSON.stringify(message));
    return new Promise(resolve => this.pending.set(message.id, resolve));
  }
  close() {
    this.ws.onclose = null; this.open = false;
    for (const resolve of this.pending.values())
      resolve({ ok: false, error: { code: "disconnected", message: "the page closed the connection" } });
    this.pending.clear();
    if (this.ws.readyState === WebSocket.OPEN || this.ws.readyState === WebSocket.CONNECTING) this.ws.close();
  }
}

/* Replies that are errors are shown; the reply is returned either way. */
async function ask(link, op) {
  const reply = await link.request(op);
  if (!reply.ok && reply.error.code !== "disconnected") showError(op.op + ": " + reply.error.code + " — " + reply.error.message);
  return reply;
}

const app = window.dyndInspector = {
  hello: null, sessions: [],
  view: null,    // the watched session: see watch()
};

// ---- the connection to dynd, and the session list --------------------------------------
/* One state at a time on <body data-link>: "connecting", "connected", or "gone" (dynd went
   away: the page says so once, retries every RECONNECT_PERIOD, and on its return lists the
   sessions again and resumes watching the session it watched once the list holds it,
   unless the person picks another first). */
let control = null, resumeName = null, reconnectTimer = null;
function setLinkState(state, text) {
  document.body.dataset.link = state;
  $("link-state").textContent = text;
  $("link-state").className = state;
  // Nothing can be opened while dynd is gone.
  $("open-button").disabled = state !== "connected";
}
async function start() {
  const link = new Link(null, event => dyndGone(event.reason));
  control = app.control = link;
  try { await link.ready; } catch (e) { dyndGone("the inspector does not answer"); return; }
  const hello = await link.request({ op: "hello" });
  if (control !== link) return;
  if (!hello.ok) { dyndGone(hello.error.message); return; }
  app.hello = hello;
  setLinkState("connected", "connected to dynd " + hello.version);
  if (!app.controlsReady) { window.dyndControls.setUp(hello); app.controlsReady = true; }
  if (resumeName) $("status").textContent = "dynd is back; watching " + resumeName +
    " resumes when it is open again (dynd closed it when it stopped).";
  refreshList(link);
}
async function resume(name) {
  resumeName = null;
  if (!(await watch(name))) { showError(""); resumeName = name; }
}
/* dynd went away (or its connection closed): one clear state, then reconnect. */
function dyndGone(reason) {
  if (document.body.dataset.link !== "gone") enterGone(reason);
  if (control) control.close();
  if (!reconnectTimer) reconnectTimer = setTimeout(() => { reconnectTimer = null; start(); }, RECONNECT_PERIOD);
}
function enterGone(reason) {
  const view = app.view;
  if (view) {
    if (!resumeName) resumeName = view.name;
    view.link.close();
    view.closed = true;
    app.view = null;
  }
  pan = null;
  window.dyndControls.resetView();
  app.sessions = [];
  drawList();
  setLinkState("gone", "dynd is gone — reconnecting…");
  $("status").textContent = "dynd is gone" + (reason ? " (" + reason + ")" : "") + "; " + (resumeName
    ? "watching " + resumeName + " resumes when dynd returns." : "the sessions show again when it returns.");
  delete document.body.dataset.watching;
  showError("");
}
async function refreshList(link) {
  const reply = await link.request({ op: "list" });
  if (link !== control) return;
  if (reply.ok) {
    app.sessions = reply.sessions;
    drawList();
    if (resumeName && !app.view && app.sessions.some(s => s.session === resumeName)) resume(resumeName);
  }
  if (reply.ok || reply.error.code !== "disconnected") setTimeout(() => refreshList(link), LIST_PERIOD);
}
function drawList() {
  const body = $("sessions").tBodies[0];
  body.textContent = "";
  const shown = app.sessions.filter(s => app.view && s.session === app.view.name)
    .concat(app.sessions.filter(s => !app.view || s.session !== app.view.name)).slice(0, LIST_ROWS);
  for (const s of shown) {
    const row = body.insertRow();
    row.dataset.session = s.session;
    if (app.view && app.view.name === s.session) row.className = "watched";
    const state = s.running ? "running" : "at rest";
    for (const text of [s.session, s.transition || "scene", s.clock, state])
      row.insertCell().textContent = text;
    row.onclick = () => { resumeName = null; watch(s.session); };
  }
  if (app.sessions.length > shown.length) {
    const cell = body.insertRow().insertCell();
    cell.colSpan = 4; cell.className = "hint";
    cell.textContent = "… and " + (app.sessions.length - shown.length) + " more (the first " + LIST_ROWS + " are shown)";
  }
  document.body.dataset.sessions = shown.map(s => s.session + ":" + (s.running ? "running" : "rest")).join(",");
}

// ---- the watched session ---------------------------------------------------------------
/* Watches `name` on a new connection (or opens it there with `openOp`), with the debug
   stream on. Once that succeeds the previous watch's connection closes, and with it a
   session it opened; a refused watch or open leaves the previous one as it was. The last
   call wins when several are under way. */
let watchTicket = 0;
async function watch(name, openOp) {
  const ticket = ++watchTicket;
  const view = {
    name, link: null, sizes: [], stage: null, frame: null, debug: null, samples: Object.create(null),
    plotted: "", finger: null, fingerSamples: [], zones: [], outcome: null,
    marks: [], dragged: null, entry: null, closed: false, manual: false, detents: [],
    handoff: null, landing: null, curve: null,
    transition: null, bounds: [0, 0, 320, 568], params: null, opened: Boolean(openOp),
  };
  view.link = new Link(event => onEvent(view, event), event => {
    if (app.view !== view || view.closed) return;
    view.closed = true;
    $("status").textContent = "the connection watching " + view.name + " closed (" + (event.reason || "no reason given") + ").";
  });
  const first = await ask(view.link, openOp || { op: "watch", session: name });
  if (!first.ok || ticket !== watchTicket) { view.link.close(); return false; }
  if (app.view) app.view.link.close();
  app.view = view;
  window.dyndControls.resetView();
  showError("");
  if (openOp) view.name = first.session;
  const state = await ask(view.link, { op: "get", session: view.name });
  const debug = await ask(view.link, { op: "debug", session: view.name });
  if (!state.ok || app.view !== view) return false;
  view.entry = app.sessions.find(s => s.session === view.name) || null;
  if (!view.entry) {
    const listed = await control.request({ op: "list" });
    if (listed.ok) view.entry = listed.sessions.find(s => s.session === view.name) || null;
  }
  view.transition = view.entry ? view.entry.transition : (openOp ? openOp.transition : null);
  view.manual = view.entry ? view.entry.clock === "manual" : false;
  if (state.bounds) view.bounds = state.bounds;
  view.params = state.params || null;
  view.detents = dyndMotion.detents(view.params, view.bounds);
  view.zones = makeDyndStage.tapZones(view.transition, view.params);
  // Each item's shape as `get` gives it (absent: a rectangle).
  view.sizes = state.items.map(i => ({ id: i.id, w: i.size[0], h: i.size[1], shape: i.shape, path: i.path }));
  view.frame = { t: state.t, items: state.items };
  view.debug = debug.ok ? debug.debug : null;
  view.stage = makeDyndStage($("stage"), { bounds: view.bounds, sizes: view.sizes });
  drawLegend(view);
  drawPlotPicker(view);
  $("status").textContent = "watching " + view.name + " (" + (view.transition || "scene") + ", "
    + (view.entry ? view.entry.clock : "realtime") + " clock)";
  document.body.dataset.watching = view.name;
  window.dyndControls.viewReady(view);
  drawList();
  draw();
  return true;
}
/* The item plotted: chosen once (the first item), then only by the person, in the list. */
function drawPlotPicker(view) {
  const picker = $("plot-item");
  picker.textContent = "";
  for (const size of view.sizes) {
    const option = document.createElement("option");
    option.value = option.textContent = size.id;
    picker.appendChild(option);
  }
  view.plotted = view.sizes.length ? view.sizes[0].id : "";
  picker.value = view.plotted;
  picker.onchange = () => { view.plotted = picker.value; scheduleDraw(); };
}
function drawLegend(view) {
  const legend = $("legend");
  legend.textContent = "";
  legend.appendChild(view.stage.legendElement({ zones: view.zones, offstage: true,
    landing: view.detents.length > 0 || ["fling", "sheet"].includes(view.transition) }));
}
function onEvent(view, event) {
  if (app.view !== view) return;
  if (event.ev === "frame") {
    view.frame = event;
    // Every item's velocity is kept, so that picking another item to plot shows its past.
    for (const item of event.items) {
      const samples = view.samples[item.id] || (view.samples[item.id] = []);
      samples.push({ t: event.t, vx: item.velocity[0], vy: item.velocity[1], x: item.center[0], y: item.center[1] });
      while (samples.length && samples[0].t < event.t - PLOT_SECONDS) samples.shift();
    }
    // The finger's velocity as the estimator sees it, at each frame while the page drags.
    if (pan && pan.began && pan.view === view) {
      const [vx, vy] = view.finger.velocity();
      view.fingerSamples.push({ t: event.t, vx, vy });
    }
    while (view.fingerSamples.length && view.fingerSamples[0].t < event.t - PLOT_SECONDS) view.fingerSamples.shift();
    // The closed form of the release's spring or decay, from the first frame after the
    // handoff (its center and velocity, on the curve whatever the clock's timing).
    const h = view.handoff, it = h && !view.curve && event.items.find(i => i.id === h.item);
    if (it) {
      const L = dyndMotion.landing(Object.assign({}, h, { item_velocity: it.velocity }),
        { center: it.center, bounds: view.bounds, params: view.params, size: sizeOf(view, h.item) });
      if (L) view.curve = { t0: event.t, L };
    }
    scheduleDraw();
  } else if (event.ev === "debug") {
    view.debug = event;
  } else if (event.ev === "handoff") {
    view.dragged = event.item;
    view.handoff = event;
    view.curve = null;
    const before = view.frame && view.frame.items.find(i => i.id === event.item);
    view.landing = before ? dyndMotion.landing(event, { center: before.center, bounds: view.bounds,
      params: view.params, size: sizeOf(view, event.item) }) : null;
    view.marks.push({ kind: "handoff", t: view.frame ? view.frame.t : 0, velocity: event.gesture_velocity });
    showHandoff(event);
  } else if (event.ev === "done") {
    view.outcome = event.outcome;
    view.marks.push({ kind: "done", outcome: event.outcome, t: view.frame ? view.frame.t : 0 });
    $("outcome").textContent = event.outcome;
    document.body.dataset.outcome = event.outcome;
  } else if (event.ev === "closed") {
    view.closed = true;
    $("status").textContent = view.name + " closed (" + event.reason + ").";
  } else if (event.ev === "pause") {
    $("status").dataset.rest = "true";
  }
  // A mark shows at once, even when no frame follows (the session came to rest).
  if (event.ev === "handoff" || event.ev === "done") scheduleDraw();
  window.dyndControls.onEvent(view, event);
}

function sizeOf(view, id) {
  const size = view.sizes.find(s => s.id === id);
  return size ? [size.w, size.h] : null;
}
/* The handoff's numbers, with the sentences that explain them: why an estimated velocity is
   zero or limited (beside the gesture velocity), what each constraint did (beside the item's);
   then where the release goes (the projection, the landing, the spring's or decay's
   constants) and the same spring in every platform's terms, one line each to copy. */
function showHandoff(event) {
  const words = dyndHandoffWords(event);
  $("handoff-item").textContent = event.item;
  $("gesture-velocity").textContent = vec(event.gesture_velocity);
  $("handoff-reason").textContent = words.reason || "";
  $("item-velocity").textContent = vec(event.item_velocity);
  $("handoff-constraints").textContent = words.constraints.length
    ? "Why they differ: " + words.constraints.join("; ") + "." : "";
  $("velocity-error").textContent = fmt(event.velocity_error, 3) + " pt/s";
  showLanding(app.view && app.view.landing);
  document.body.dataset.handoff = JSON.stringify(event);
}
function showLanding(L) {
  const box = $("landing");
  box.textContent = "";
  if (!L) return;
  for (const [field, heading, text] of L.rows) {
    const div = document.createElement("div");
    div.dataset.field = field;
    div.appendChild(document.createTextNode(heading.toLowerCase() + " "));
    const b = document.createElement("b");
    b.textContent = text;
    div.appendChild(b);
    box.appendChild(div);
  }
  if (L.lines.length) box.appendChild(window.dyndControls.platformLines(L.lines));
}

let drawPending = false;
function scheduleDraw() {
  if (drawPending) return;
  drawPending = true;
  requestAnimationFrame(() => { drawPending = false; draw(); });
}
function draw() {
  const view = app.view;
  if (!view || !view.stage || !view.frame) return;
  // A sheet's detents always; the projection and the landing from the release until the
  // next pan begins.
  const landing = view.landing ? view.landing.stage : view.detents.length
    ? { detents: view.detents.map(d => Object.assign({ chosen: false }, d)) } : null;
  view.stage.draw(view.frame, view.debug, { dragged: view.dragged, zones: view.zones, offstage: true,
    finger: pan && pan.began ? [pan.last.x, pan.last.y] : null, landing });
  drawPlot(view);
}
function drawPlot(view) {
  const now = view.frame.t, t0 = Math.max(0, now - PLOT_SECONDS);
  const rel = t => t - t0;
  const samples = view.samples[view.plotted] || [];
  const finger = view.fingerSamples.filter(s => s.t >= t0);
  // While the page's finger holds an item, the grip moves it frame by frame, and its
  // velocity jumps with the pointer events each frame happens to get: that stretch is faint,
  // and the finger's velocity as the estimator sees it is drawn thick and dashed instead.
  const held = t => view.marks.some(m => m.kind === "gesture" && t > m.t && t <= m.to);
  const part = (axis, faint) => samples.map(s => [rel(s.t), held(s.t) === faint ? s[axis] : null]);
  const series = [
    { panel: 0, label: "vx", color: AXIS_COLORS.x, width: 1.6, points: part("vx", false) },
    { panel: 0, label: "vy", color: AXIS_COLORS.y, width: 1.6, points: part("vy", false) },
    { panel: 0, label: "vx (held)", color: AXIS_COLORS.x, width: 1, alpha: 0.3, points: part("vx", true) },
    { panel: 0, label: "vy (held)", color: AXIS_COLORS.y, width: 1, alpha: 0.3, points: part("vy", true) },
    { panel: 0, label: "finger vx", color: AXIS_COLORS.x, width: 2.6, dash: [7, 4], points: finger.map(s => [rel(s.t), s.vx]) },
    { panel: 0, label: "finger vy", color: AXIS_COLORS.y, width: 2.6, dash: [7, 4], points: finger.map(s => [rel(s.t), s.vy]) },
  ];
  // Position (panel 1): the axes the item moves along in the window, and behind them the
  // closed form of the release's spring or decay.
  const moving = ["x", "y"].filter(a => {
    const v = samples.map(s => s[a]);
    return v.length && Math.max(...v) - Math.min(...v) > 0.5;
  });
  const axes = moving.length ? moving : ["x", "y"];
  const curve = view.curve && view.handoff && view.handoff.item === view.plotted ? view.curve : null;
  if (curve) {
    const from = Math.max(t0, curve.t0), n = Math.max(2, Math.ceil((now - from) * 120));
    for (const a of axes) series.push({ panel: 1, label: a + " closed form", color: AXIS_COLORS[a], width: 7, alpha: 0.28,
      points: now > from ? Array.from({ length: n + 1 }, (_, j) => {
        const t = from + (now - from) * j / n;
        return [rel(t), curve.L.at(t - curve.t0)[a === "x" ? 0 : 1]];
      }) : [] });
  }
  for (const a of axes) series.push({ panel: 1, label: a, color: AXIS_COLORS[a], width: 1.6,
    points: samples.map(s => [rel(s.t), s[a]]) });
  const marks = view.marks.filter(m => m.kind !== "gesture" && m.t >= t0).map(m => m.kind === "handoff" ? {
    kind: m.kind, t: rel(m.t), color: MARK_COLORS.handoff, label: "release " + vec(m.velocity),
    dots: m.velocity ? [[m.velocity[0], AXIS_COLORS.x], [m.velocity[1], AXIS_COLORS.y]] : [] } : {
    kind: m.kind, t: rel(m.t), color: MARK_COLORS[m.kind], label: m.kind === "done" ? "done: " + m.outcome : m.kind });
  const bands = view.marks.filter(m => m.kind === "gesture" && m.to >= t0)
    .map(m => ({ from: rel(Math.max(t0, m.t)), to: rel(m.to) }));
  document.body.dataset.plotted = view.plotted;
  document.body.dataset.curve = curve ? curve.L.kind : "";
  const plot = makeDyndPlot($("plot"), { panels: [{ title: view.plotted + " velocity", unit: "pt/s" },
    { title: view.plotted + " position", unit: "pt" }], series, marks, bands, tmax: PLOT_SECONDS });
  plot.draw(null);
  if (samples.length < 2) {
    // Frames come only while something moves: say so rather than leave empty axes.
    const canvas = $("plot"), g = canvas.getContext("2d"), [x, y, w, h] = JSON.parse(canvas.dataset.panels)[0];
    g.font = "12px system-ui, sans-serif"; g.fillStyle = "#868e96"; g.textAlign = "center"; g.textBaseline = "middle";
    g.fillText("no frames yet: dynd sends them while something moves" + (view.manual ? " (run the manual clock)" : ""),
      x + w / 2, y + h / 2);
  }
}

// ---- the pointer: gestures and taps ----------------------------------------------------
let pan = null;
function sample(view, e) {
  const [x, y] = view.stage.fromEvent(e);
  return { x, y, t: e.timeStamp / 1000, px: e.clientX, py: e.clientY };
}
function gesture(view, phase, s) {
  return view.link.request({ op: "gesture", session: view.name, phase, x: s.x, y: s.y, t: s.t });
}
const stageCanvas = $("stage");
stageCanvas.addEventListener("pointerdown", e => {
  const view = app.view;
  if (!view || !view.stage || view.closed || pan) return;
  e.preventDefault();
  stageCanvas.setPointerCapture(e.pointerId);
  const first = sample(view, e);
  pan = { id: e.pointerId, view, first, last: first, began: false, mark: null };
});
stageCanvas.addEventListener("pointermove", e => {
  if (!pan || e.pointerId !== pan.id || app.view !== pan.view) return;
  const events = e.getCoalescedEvents ? e.getCoalescedEvents() : [];
  for (const c of (events.length ? events : [e])) {
    const s = sample(pan.view, c);
    if (!pan.began) {
      if (Math.hypot(s.px - pan.first.px, s.py - pan.first.py) < SLOP) continue;
      if (!pan.view.transition) { showError("a scene session takes no gestures; edit its behaviors instead"); pan = null; return; }
      pan.began = true;
      pan.view.landing = null; pan.view.handoff = null; pan.view.curve = null;
      pan.mark = { kind: "gesture", t: pan.view.frame ? pan.view.frame.t : 0, to: Infinity };
      pan.view.marks.push(pan.mark);
      pan.view.finger = makeDyndFingerVelocity();
      pan.view.finger.record("began", pan.first.x, pan.first.y, pan.first.t);
      gesture(pan.view, "began", pan.first).then(checkReply);
    }
    pan.view.finger.record("changed", s.x, s.y, s.t);
    gesture(pan.view, "changed", s).then(checkReply);
    pan.last = s;
  }
  scheduleDraw();
});
function finishPan(e, phase) {
  if (!pan || e.pointerId !== pan.id) return;
  const view = pan.view, s = sample(view, e);
  if (app.view === view) {
    if (pan.began) {
      pan.mark.to = view.frame ? view.frame.t : pan.mark.t;
      // The estimate at the lift-off ends the finger's line: what dynd hands over.
      view.finger.record(phase, s.x, s.y, s.t);
      const [vx, vy] = phase === "ended" ? view.finger.velocity() : [0, 0];
      view.fingerSamples.push({ t: pan.mark.to, vx, vy });
      document.body.dataset.fingerEstimate = JSON.stringify([vx, vy]);
      gesture(view, phase, s).then(checkReply);
    } else if (phase === "ended" && view.transition) {
      view.marks.push({ kind: "tap", t: view.frame ? view.frame.t : 0 });
      view.link.request({ op: "tap", session: view.name, x: pan.first.x, y: pan.first.y }).then(checkReply);
    }
  }
  pan = null;
  scheduleDraw();
}
function checkReply(reply) {
  if (!reply.ok) showError(reply.error.code + " — " + reply.error.message);
}
stageCanvas.addEventListener("pointerup", e => finishPan(e, "ended"));
stageCanvas.addEventListener("pointercancel", e => finishPan(e, "cancelled"));

Object.assign(app, { Link, ask, watch, draw, drawList, showError });
window.addEventListener("load", start);
