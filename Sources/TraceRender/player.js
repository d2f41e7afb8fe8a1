"use strict";
// The error counter, AXIS_COLORS and MARK_COLORS come first, from PageBasics.
/* global AXIS_COLORS, MARK_COLORS, makeDyndStage, makeDyndPlot, dyndTraceModel */
/* global dyndTitle, dyndVector, dyndSummary */
const TRACE_COLORS = ["#e8590c", "#1c7ed6", "#2f9e44", "#ae3ec9", "#f08c00", "#0c8599"];
const pageOptions = JSON.parse(document.getElementById("dynd-options").textContent);
const models = JSON.parse(document.getElementById("dynd-traces").textContent)
  .map(t => Object.assign(dyndTraceModel(t.lines), { name: t.name }));
window.dyndPlayers = pageOptions.overlay ? [makePlayer(models, 0)]
  : models.map((m, i) => makePlayer([m], i));
// Every player draws on open: at the start, or at "#t=0.5"'s time (for links and screenshots).
const start = /t=([0-9.]+)/.exec(location.hash);
for (const p of window.dyndPlayers) p.seek(start ? Number(start[1]) : 0);
// Where each stage's canvas content is on the page and how it maps points:
// "left,top,x0,y0,scale" per player (page pixel = left|top + (point − x0|y0) × scale; the
// scale is in CSS pixels, the canvas's own times the page's scaling of it).
document.body.dataset.stages = window.dyndPlayers.map(p => {
  const c = p.stage.canvas, r = c.getBoundingClientRect(), [x0, y0, scale] = c.dataset.view.split(",").map(Number);
  return [r.left + c.clientLeft + window.scrollX, r.top + c.clientTop + window.scrollY,
    x0, y0, scale * c.clientWidth / c.width].join(",");
}).join(";");
// And each plot canvas's content: "left,top,width,height".
document.body.dataset.plots = window.dyndPlayers.map(p => {
  const c = p.plot, r = c.getBoundingClientRect();
  return [r.left + c.clientLeft + window.scrollX, r.top + c.clientTop + window.scrollY,
    c.width, c.height].join(",");
}).join(";");
window.dyndReady = true;
document.body.dataset.ready = "true";

function el(tag, attrs, parent) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "text") e.textContent = v; else e.setAttribute(k, v);
  }
  if (parent) parent.appendChild(e);
  return e;
}

/* One player: a single trace, or (overlay) several on one stage and one set of axes. */
function makePlayer(ms, index) {
  const overlay = ms.length > 1;
  const color = k => TRACE_COLORS[k % TRACE_COLORS.length];
  const section = el("section", { id: "trace-" + index, class: overlay ? "overlay" : "single" },
    document.getElementById("players"));
  el("h2", { text: overlay ? "Comparison: " + ms.map(m => m.name).join(" vs ")
    : ms[0].name + " — " + dyndTitle(ms[0]) }, section);
  // Stage and plot side by side (stacked on a narrow screen): the stage with the controls
  // above it, the plot beside it with the header and the legend under it.
  const layout = el("div", { class: "player" }, section);
  const stageBox = el("div", { class: "stage-box" }, layout);
  const sideBox = el("div", { class: "side-box" }, layout);
  const duration = Math.max(...ms.map(m => m.duration));
  const controls = el("div", { class: "controls" }, stageBox);
  const play = el("button", { text: "Play" }, controls);
  const scrub = el("input", { type: "range", min: 0, max: duration, step: 0.001, value: 0 }, controls);
  // The one time display: the time of the frame shown (the plot's cursor is there too).
  const label = el("span", { class: "t", text: "0.000 s" }, controls);
  const speed = el("select", { title: "playback speed" }, controls);
  for (const s of [0.25, 0.5, 1, 2]) el("option", { value: s, text: s + "×" }, speed);
  speed.value = "1";
  const canvas = el("canvas", { class: "stage" }, stageBox);
  const caption = el("div", { class: "caption" }, stageBox);
  // Every trace gets a stage object on the one canvas, all framing the same view, and the
  // same colour for a field of the same id.
  const fields = makeDyndStage.fieldsIn(ms.map(m => ({ fields: m.fields })));
  const base = { padding: 28, offscreen: pageOptions.offscreen,
    maxWidth: pageOptions.offscreen ? 760 : 380, fields };
  const views = ms.map(m => makeDyndStage(canvas, Object.assign({ bounds: m.bounds, sizes: m.sizes,
    frames: m.frames }, base)).view);
  const x0 = Math.min(...views.map(v => v[0])), y0 = Math.min(...views.map(v => v[1]));
  const x1 = Math.max(...views.map(v => v[0] + v[2])), y1 = Math.max(...views.map(v => v[1] + v[3]));
  const stages = ms.map(m => makeDyndStage(canvas, Object.assign({ bounds: m.bounds, sizes: m.sizes,
    view: [x0, y0, x1 - x0, y1 - y0] }, base)));
  const stage = stages[0];
  const overlays = {};
  for (const name of makeDyndStage.OVERLAYS) overlays[name] = true;
  const kinds = new Set(ms.flatMap(m => Array.from(m.kinds)));
  const plotBox = el("div", { class: "plots" }, sideBox);
  sideBox.appendChild(dyndSummary(ms, overlay ? ms.map((_, k) => color(k)) : null));
  const side = el("div", { class: "legend" }, sideBox);
  el("h3", { text: "Stage" }, side);
  side.appendChild(stage.legendElement({
    kinds, finger: ms.some(m => m.samples.length > 0), dragged: ms.some(m => m.dragged), toggles: overlays,
    landing: ms.some(m => m.landing || m.detents.length),
    traces: overlay ? ms.map((m, k) => ({ label: m.name + " (·" + (k + 1) + ")", color: color(k) })) : null,
    onToggle: (key, on) => { overlays[key] = on; draw(); },
  }));
  const picker = el("select", { title: "the item plotted" }, null);
  const ids = Array.from(new Set(ms.flatMap(m => m.sizes.map(s => s.id))));
  for (const id of ids) el("option", { value: id, text: id }, picker);
  picker.value = ms[0].plotted || ids[0];
  const heading = el("h3", { text: "Plotted: " }, plotBox);
  heading.appendChild(picker);
  // As wide as its column (the canvas's own pixels: the plot's text keeps its size).
  const plotWidth = () => Math.max(300, Math.min(1400, Math.floor(plotBox.clientWidth) - 2));
  const plotCanvas = el("canvas", { class: "plot", width: plotWidth() }, plotBox);
  const plotLegend = el("ul", { class: "plot-legend" }, plotBox);
  let plot = null;
  const player = { models: ms, stage, stages, plot: plotCanvas, time: 0, playing: false, seek, draw };
  picker.onchange = () => { buildPlot(); draw(); };
  buildPlot();
  window.addEventListener("resize", () => {
    const w = plotWidth();
    if (w !== plotCanvas.width) { plotCanvas.width = w; buildPlot(); draw(); }
  });

  function seek(t) {
    player.time = Math.max(0, Math.min(duration, t));
    scrub.value = player.time;
    draw();
  }
  let startWall = 0, startTime = 0;
  function tick(now) {
    if (!player.playing) return;
    const t = startTime + (now - startWall) / 1000 * Number(speed.value);
    if (t >= duration) { seek(duration); player.playing = false; play.textContent = "Play"; return; }
    seek(t);
    requestAnimationFrame(tick);
  }
  play.onclick = () => {
    player.playing = !player.playing;
    play.textContent = player.playing ? "Pause" : "Play";
    if (player.playing) {
      if (player.time >= duration) player.time = 0;
      startWall = performance.now(); startTime = player.time;
      requestAnimationFrame(tick);
    }
  };
  speed.onchange = () => { startWall = performance.now(); startTime = player.time; };
  scrub.oninput = () => { player.playing = false; play.textContent = "Play"; seek(Number(scrub.value)); };

  function draw() {
    stage.clear();
    const notes = [];
    let shown = 0;
    ms.forEach((m, k) => {
      const i = m.frameAt(player.time);
      if (i < 0) return;
      const frame = m.frames[i];
      shown = Math.max(shown, frame.rt);
      // A sheet's detents always; the projection and the landing once the release is shown.
      const released = m.landing && m.handoff && frame.rt >= m.handoff.t - 1e-9;
      const landing = released ? m.landing.stage : m.detents.length
        ? { detents: m.detents.map(d => Object.assign({ chosen: false }, d)) } : null;
      stages[k].layer(frame, m.debug[frame.seq], {
        dragged: m.dragged, overlays, finger: m.fingerAt(i), slot: k, landing,
        colorFor: overlay ? () => color(k) : undefined, tag: overlay ? " ·" + (k + 1) : "",
      });
      const values = Object.entries(frame.values || {}).map(([n, v]) => n + " " + v).join(", ");
      notes.push((overlay ? "·" + (k + 1) + " " : "") + "frame " + (frame.initial ? "0 (as opened)" : frame.seq) +
        " of " + (m.frames.length - 1) + (values ? "; " + values : ""));
    });
    stage.finish();
    label.textContent = shown.toFixed(3) + " s";
    label.dataset.time = String(shown);
    caption.textContent = notes.join(" | ");
    if (plot) plot.draw(shown);
  }

  function buildPlot() {
    const id = picker.value, series = [], marks = [], bands = [];
    const keys = [["x", "vx", 0], ["y", "vy", 1]];
    ms.forEach((m, k) => {
      const points = m.frames.map(f => ({ t: f.rt, it: f.items.find(i => i.id === id) })).filter(p => p.it);
      const moving = keys.filter(([, , c]) => {
        const v = points.map(p => p.it.center[c]);
        return v.length && Math.max(...v) - Math.min(...v) > 0.5;
      });
      const shown = moving.length ? moving : keys;
      // The closed form of the spring or decay the release handed the item to, from its
      // center in the frame at the release, drawn wide and pale behind the frames.
      const L = m.landing;
      if (L && m.handoff && m.handoff.item === id) {
        const t0 = m.handoff.t, t1 = Math.max(t0, m.duration), n = Math.max(2, Math.ceil((t1 - t0) * 240));
        for (const [axis, , c] of shown) series.push({ panel: 0, label: axis + " closed form" + (overlay ? " ·" + (k + 1) : ""),
          color: overlay ? color(k) : AXIS_COLORS[axis], width: 7, alpha: 0.28, closedForm: L.kind,
          points: Array.from({ length: n + 1 }, (_, j) => { const t = t0 + (t1 - t0) * j / n; return [t, L.at(t - t0)[c]]; }) });
      }
      for (const [axis, vel, c] of shown) {
        // In an overlay the trace has the colour: y is dashed when x is drawn too.
        const style = overlay ? { color: color(k), dash: c && shown.length > 1 ? [6, 4] : [] }
          : { color: AXIS_COLORS[axis], dash: [] };
        const tag = overlay ? " ·" + (k + 1) : "";
        series.push(Object.assign({ panel: 0, label: axis + tag, points: points.map(p => [p.t, p.it.center[c]]) }, style));
        series.push(Object.assign({ panel: 1, label: vel + tag, points: points.map(p => [p.t, p.it.velocity[c]]) }, style));
      }
      let began = null;
      for (const mk of m.marks) {
        if (mk.kind === "gesture" && mk.what === "began") began = mk.t;
        if (mk.kind === "gesture" && (mk.what === "ended" || mk.what === "cancelled") && began !== null) {
          bands.push({ from: began, to: mk.t }); began = null;
        }
        const c = overlay ? color(k) : MARK_COLORS[mk.kind];
        const tag = overlay ? " ·" + (k + 1) : "";
        // The handoff: the finger's velocity handed over, dotted on the plotted item's
        // velocity panel when the item is the one handed over.
        const h = mk.kind === "handoff" ? m.handoff : null;
        const dots = h && h.t === mk.t && h.item === id && Array.isArray(h.gesture_velocity)
          ? shown.map(([axis, , c2]) => [h.gesture_velocity[c2], overlay ? color(k) : AXIS_COLORS[axis], 1]) : [];
        if (mk.kind === "handoff") marks.push({ kind: "handoff", t: mk.t, color: c, dots,
          label: "handoff" + (dots.length ? " " + dyndVector(h.gesture_velocity) + " pt/s" : "") + tag });
        else if (mk.kind === "done") marks.push({ kind: "done", t: mk.t, color: c, label: "done: " + mk.what + tag });
        else if (mk.kind === "contact") marks.push({ kind: "contact", t: mk.t, color: c });
        else if (mk.kind === "tap" || mk.kind === "swipe") marks.push({ kind: "tap", t: mk.t, color: c, label: mk.kind + tag });
      }
      if (began !== null) bands.push({ from: began, to: m.duration });
    });
    // Past the last frame, so that a mark there is not hidden in the border.
    const tmax = duration * 1.04 + 0.02;
    plot = makeDyndPlot(plotCanvas, { panels: [{ title: id + " position", unit: "pt" },
      { title: id + " velocity", unit: "pt/s" }], series, marks, bands, tmax });
    plotLegend.textContent = "";
    const entries = [], has = kind => marks.some(mk => mk.kind === kind);
    if (overlay) ms.forEach((m, k) => entries.push([color(k), "solid", "·" + (k + 1) + " " + m.name +
      ": position and velocity (y dashed when x moves too); its marks in its colour"]));
    else for (const s of series.filter(s => s.panel === 0 && !s.closedForm)) entries.push([s.color, "solid", s.label + " (and v" + s.label + " below)"]);
    const ink = kind => overlay ? "#343a40" : MARK_COLORS[kind];
    const closed = series.find(s => s.closedForm);
    if (closed) entries.push([overlay ? "#adb5bd" : "rgba(28,126,214,0.45)", "wide", "closed form of the " + closed.closedForm +
      " from the release, behind the frames (dyndMotion, as dynd computes it)"]);
    if (has("handoff")) entries.push([ink("handoff"), "dashed", "handoff: the dynamics take the finger's velocity (dots: its value)"]);
    if (has("done")) entries.push([ink("done"), "solid", "done, with the outcome"]);
    if (has("contact")) entries.push([ink("contact"), "tick", "contact began (any item)"]);
    if (bands.length) entries.push(["rgba(134,142,150,0.35)", "band", "finger down (gesture began → ended)"]);
    if (has("tap")) entries.push([ink("tap"), "dotted", "tap or swipe"]);
    for (const [c, style, text] of entries) {
      const li = el("li", {}, plotLegend);
      el("span", { class: "key " + style, style: (style === "band" ? "background:" : "border-color:") + c }, li);
      li.appendChild(document.createTextNode(text));
    }
  }
  return player;
}
