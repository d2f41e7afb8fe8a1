/// The JavaScript of the HTML player (see `HTMLRenderer`): plain ES2017, no dependencies.
enum PlayerScript {
  static let source = #"""
    "use strict";
    // Errors are counted on <body data-errors> so that a headless browser can report them.
    document.body.dataset.errors = "0";
    window.addEventListener("error", () => {
      document.body.dataset.errors = String(Number(document.body.dataset.errors) + 1);
    });
    const COLORS = ["#e8590c", "#1c7ed6", "#2f9e44", "#ae3ec9", "#f08c00", "#0c8599"];
    const traces = JSON.parse(document.getElementById("dynd-traces").textContent);
    window.dyndPlayers = traces.map((trace, index) => makePlayer(trace, index));
    // "#t=0.5" opens every player at that time (for links and screenshots).
    const start = /t=([0-9.]+)/.exec(location.hash);
    if (start) for (const p of window.dyndPlayers) p.seek(Number(start[1]));
    // Where each stage is on the page, and its scale: "left,top,scale" per player.
    document.body.dataset.stages = window.dyndPlayers.map(p => {
      const r = p.stage.getBoundingClientRect();
      return [r.left + window.scrollX, r.top + window.scrollY, p.scale].join(",");
    }).join(";");
    window.dyndReady = true;
    document.body.dataset.ready = "true";

    function model(lines) {
      const header = lines[0];
      const bounds = header.bounds || [0, 0, 320, 568];
      let sizes = null, t = 0;
      const frames = [], debug = {}, marks = [];
      for (const line of lines.slice(1)) {
        if (line.sent) {
          if (line.sent.op === "gesture" || line.sent.op === "tap" || line.sent.op === "swipe")
            marks.push({ kind: "gesture", t, what: line.sent.phase || line.sent.op });
          continue;
        }
        if (!sizes && line.ok && Array.isArray(line.items) && line.items.length && line.items[0].size)
          sizes = line.items.map(i => ({ id: i.id, w: i.size[0], h: i.size[1] }));
        if (line.ev === "frame") { t = line.t; frames.push(line); }
        else if (line.ev === "debug") debug[line.seq] = line;
        else if (line.ev === "handoff") marks.push({ kind: "handoff", t, what: line.item, line });
        else if (line.ev === "contact" && line.phase === "began") marks.push({ kind: "contact", t });
        else if (line.ev === "done") marks.push({ kind: "done", t, what: line.outcome });
      }
      const handoff = marks.find(m => m.kind === "handoff");
      const dragged = handoff ? handoff.what : (sizes && sizes[0] ? sizes[0].id : null);
      const duration = frames.length ? frames[frames.length - 1].t : 0;
      return { bounds, sizes: sizes || [], frames, debug, marks, dragged, duration };
    }

    function el(tag, attrs, parent) {
      const e = document.createElement(tag);
      for (const [k, v] of Object.entries(attrs || {})) {
        if (k === "text") e.textContent = v; else e.setAttribute(k, v);
      }
      if (parent) parent.appendChild(e);
      return e;
    }

    function makePlayer(trace, index) {
      const m = model(trace.lines);
      const section = el("section", { id: "trace-" + index }, document.getElementById("players"));
      el("h2", { text: trace.name + " — " + (trace.lines[0].transition || "") }, section);
      const controls = el("div", { class: "controls" }, section);
      const play = el("button", { text: "Play" }, controls);
      const scrub = el("input", { type: "range", min: 0, max: m.duration, step: 0.001, value: 0 }, controls);
      const label = el("span", { class: "t", text: "0.000 s" }, controls);
      const speed = el("select", {}, controls);
      for (const s of [0.25, 0.5, 1, 2]) el("option", { value: s, text: s + "×" }, speed);
      speed.value = "1";
      const overlays = {};
      for (const name of ["boundaries", "attachments", "snaps", "pushes", "gravity", "contacts"]) {
        const box = el("label", {}, controls);
        overlays[name] = el("input", { type: "checkbox", checked: "" }, box);
        box.appendChild(document.createTextNode(" " + name));
      }
      const scale = Math.min(1.2, 560 / m.bounds[3]);
      const stage = el("canvas", { class: "stage", width: Math.round(m.bounds[2] * scale) + 80,
        height: Math.round(m.bounds[3] * scale) + 80 }, section);
      const plot = el("canvas", { class: "plot", width: 720, height: 260 }, section);
      const player = { model: m, stage, plot, scale, time: 0, playing: false, seek, draw };
      let startWall = 0, startTime = 0;

      function frameAt(t) {
        let lo = 0, hi = m.frames.length - 1, best = m.frames.length ? 0 : -1;
        while (lo <= hi) {
          const mid = (lo + hi) >> 1;
          if (m.frames[mid].t <= t + 1e-9) { best = mid; lo = mid + 1; } else hi = mid - 1;
        }
        return best < 0 ? null : m.frames[best];
      }
      function toScreen(x, y) {
        return [40 + (x - m.bounds[0]) * scale, 40 + (y - m.bounds[1]) * scale];
      }
      function seek(t) {
        player.time = Math.max(0, Math.min(m.duration, t));
        scrub.value = player.time;
        label.textContent = player.time.toFixed(3) + " s";
        draw();
      }
      function tick(now) {
        if (!player.playing) return;
        const t = startTime + (now - startWall) / 1000 * Number(speed.value);
        if (t >= m.duration) { seek(m.duration); player.playing = false; play.textContent = "Play"; return; }
        seek(t);
        requestAnimationFrame(tick);
      }
      play.onclick = () => {
        player.playing = !player.playing;
        play.textContent = player.playing ? "Pause" : "Play";
        if (player.playing) {
          if (player.time >= m.duration) player.time = 0;
          startWall = performance.now(); startTime = player.time;
          requestAnimationFrame(tick);
        }
      };
      speed.onchange = () => { startWall = performance.now(); startTime = player.time; };
      scrub.oninput = () => { player.playing = false; play.textContent = "Play"; seek(Number(scrub.value)); };
      for (const box of Object.values(overlays)) box.onchange = draw;

      function line(g, a, b, color, dash) {
        g.strokeStyle = color; g.setLineDash(dash || []); g.beginPath();
        g.moveTo(...toScreen(...a)); g.lineTo(...toScreen(...b)); g.stroke(); g.setLineDash([]);
      }
      function spring(g, a, b, color) {
        const [ax, ay] = toScreen(...a), [bx, by] = toScreen(...b);
        const n = 12, dx = (bx - ax) / n, dy = (by - ay) / n, len = Math.hypot(dx, dy) || 1;
        g.strokeStyle = color; g.beginPath(); g.moveTo(ax, ay);
        for (let i = 1; i < n; i++) {
          const side = (i % 2 ? 4 : -4);
          g.lineTo(ax + dx * i - dy / len * side, ay + dy * i + dx / len * side);
        }
        g.lineTo(bx, by); g.stroke();
      }
      function arrow(g, from, vector, length, color) {
        const norm = Math.hypot(vector[0], vector[1]) || 1;
        const to = [from[0] + vector[0] / norm * length, from[1] + vector[1] / norm * length];
        line(g, from, to, color);
        const [tx, ty] = toScreen(...to);
        g.fillStyle = color; g.beginPath(); g.arc(tx, ty, 3, 0, 2 * Math.PI); g.fill();
      }
      function draw() {
        const g = stage.getContext("2d");
        g.clearRect(0, 0, stage.width, stage.height);
        g.fillStyle = "#f8f9fa";
        g.fillRect(40, 40, m.bounds[2] * scale, m.bounds[3] * scale);
        const frame = frameAt(player.time);
        if (!frame) return;
        const positions = {};
        for (const it of frame.items) positions[it.id] = it;
        m.sizes.forEach((size, i) => {
          const it = positions[size.id];
          if (!it) return;
          const [x, y] = toScreen(it.center[0], it.center[1]);
          g.save(); g.translate(x, y); g.rotate(it.angle);
          g.fillStyle = COLORS[i % COLORS.length]; g.globalAlpha = 0.85;
          g.fillRect(-size.w * scale / 2, -size.h * scale / 2, size.w * scale, size.h * scale);
          g.restore();
        });
        const d = m.debug[frame.seq];
        if (!d) return;
        if (overlays.boundaries.checked) for (const b of d.boundaries) {
          if (b.rect) { const [x, y] = toScreen(b.rect[0], b.rect[1]);
            g.strokeStyle = "#495057"; g.strokeRect(x, y, b.rect[2] * scale, b.rect[3] * scale); }
          else for (let i = 1; i < b.points.length; i++) line(g, b.points[i - 1], b.points[i], "#212529");
        }
        if (overlays.attachments.checked) for (const a of d.attachments) {
          if (a.spring) spring(g, a.item_point, a.to_point, "#c92a2a");
          else line(g, a.item_point, a.to_point, "#1864ab");
        }
        if (overlays.snaps.checked) for (const s of d.snaps) {
          const [x, y] = toScreen(...s.point);
          g.strokeStyle = "#2b8a3e"; g.strokeRect(x - 5, y - 5, 10, 10);
        }
        if (overlays.pushes.checked) for (const p of d.pushes) for (const id of p.items) {
          if (positions[id] && p.active) arrow(g, positions[id].center, p.vector, 40, "#f08c00");
        }
        if (overlays.gravity.checked) for (const gr of d.gravity)
          arrow(g, [m.bounds[0] + 20, m.bounds[1] + 20], gr.vector, 30, "#5f3dc4");
        if (overlays.contacts.checked) for (const c of d.contacts) if (c.point) {
          const [x, y] = toScreen(...c.point);
          g.fillStyle = "#e03131"; g.beginPath(); g.arc(x, y, 4, 0, 2 * Math.PI); g.fill();
        }
        drawPlot();
      }
      function drawPlot() {
        const g = plot.getContext("2d");
        g.clearRect(0, 0, plot.width, plot.height);
        if (!m.dragged || !m.frames.length) return;
        const series = m.frames.map(f => {
          const it = f.items.find(i => i.id === m.dragged);
          return it ? { t: f.t, x: it.center[0], y: it.center[1], vx: it.velocity[0], vy: it.velocity[1] } : null;
        }).filter(Boolean);
        const panels = [["position", ["x", "y"]], ["velocity", ["vx", "vy"]]];
        panels.forEach(([title, keys], p) => {
          const top = 10 + p * 125, h = 105, left = 50, w = plot.width - 60;
          const values = series.flatMap(s => keys.map(k => s[k]));
          const lo = Math.min(...values), hi = Math.max(...values), span = (hi - lo) || 1;
          const X = t => left + (m.duration ? t / m.duration : 0) * w;
          const Y = v => top + h - (v - lo) / span * h;
          g.strokeStyle = "#adb5bd"; g.strokeRect(left, top, w, h);
          g.fillStyle = "#495057"; g.fillText(m.dragged + " " + title + " (" + keys.join(", ") + ")", left + 4, top + 12);
          g.fillText(hi.toFixed(0), 4, top + 10); g.fillText(lo.toFixed(0), 4, top + h);
          keys.forEach((k, i) => {
            g.strokeStyle = COLORS[i + 1]; g.beginPath();
            series.forEach((s, j) => j ? g.lineTo(X(s.t), Y(s[k])) : g.moveTo(X(s.t), Y(s[k])));
            g.stroke();
          });
          for (const mark of m.marks) {
            g.strokeStyle = { gesture: "#ced4da", handoff: "#e03131", contact: "#495057", done: "#2b8a3e" }[mark.kind];
            g.beginPath(); g.moveTo(X(mark.t), top + (mark.kind === "contact" ? h - 8 : 0)); g.lineTo(X(mark.t), top + h); g.stroke();
          }
          g.strokeStyle = "#000"; g.beginPath(); g.moveTo(X(player.time), top); g.lineTo(X(player.time), top + h); g.stroke();
        });
      }
      seek(0);
      return player;
    }
    """#
}
