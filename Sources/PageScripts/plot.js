/* exported makeDyndPlot */
/* makeDyndPlot(canvas, {panels: [{title, unit}], series: [{panel, label, color, dash,
   width, alpha, points: [[t, v]…] (v null: a gap in the line)}], marks: [{kind:
   "handoff"|"done"|"contact"|"tap", t, color, label, dots: [[v, color, panel]…]}], bands:
   [{from, to}], tmax}) → {draw(cursor)}. Every panel shares the time axis (seconds, ticks
   under each panel); each panel has value ticks of its own, over all its series and the
   marks' dots (values marked on the mark's line, in their panel, 0 when not given). Mark
   labels go in a strip above the top panel, off the data, beside their line, each where
   it meets no other label nor the panel's title (a row higher when both sides are taken).
   The canvas gets data-series (label, colour, panel of each series), data-ranges,
   data-panels (each panel's data area) and data-labels (each label's text and box), boxes
   as [x, y, w, h] in canvas pixels. */
function makeDyndPlot(canvas, spec) {
  "use strict";
  const left = 64, right = 18, top = 22, height = 118, below = 40, rowHeight = 13;
  // The labels' strip above the top panel's title line: two rows when any mark has a label,
  // three when three or more have one.
  const labelCount = (spec.marks || []).filter(m => m.label).length;
  const strip = labelCount ? (labelCount >= 3 ? 3 : 2) * rowHeight : 0;
  const panelTop = p => strip + p * (top + height + below) + top;
  canvas.height = strip + spec.panels.length * (top + height + below);
  const w = canvas.width - left - right;
  const tmax = spec.tmax > 0 ? spec.tmax : 1;
  const X = t => left + t / tmax * w;
  const ranges = spec.panels.map((_, p) => {
    const values = spec.series.filter(s => s.panel === p).flatMap(s => s.points.map(q => q[1]).filter(v => v !== null))
      .concat((spec.marks || []).flatMap(m => (m.dots || []).filter(d => (d[2] || 0) === p).map(d => d[0])));
    if (!values.length) return [0, 1];
    let lo = Math.min(...values), hi = Math.max(...values);
    if (hi - lo < 1e-6) { lo -= 1; hi += 1; }
    const margin = (hi - lo) * 0.06;
    return [lo - margin, hi + margin];
  });
  canvas.dataset.series = JSON.stringify(spec.series.map(s => ({ label: s.label, color: s.color, panel: s.panel })));
  canvas.dataset.ranges = JSON.stringify({ time: [0, tmax], values: ranges });
  canvas.dataset.panels = JSON.stringify(spec.panels.map((_, p) => [left, panelTop(p), w, height]));

  function draw(cursor) {
    const g = canvas.getContext("2d");
    g.clearRect(0, 0, canvas.width, canvas.height);
    spec.panels.forEach((panel, p) => {
      const y0 = panelTop(p), [lo, hi] = ranges[p];
      const Y = v => y0 + height - (v - lo) / (hi - lo) * height;
      g.font = "11px system-ui, sans-serif";
      for (const band of spec.bands || []) {
        g.fillStyle = "rgba(134,142,150,0.18)";
        g.fillRect(X(band.from), y0, Math.max(2, X(band.to) - X(band.from)), height);
      }
      // Value ticks and grid.
      g.textAlign = "right"; g.textBaseline = "middle";
      for (const v of dyndTicks(lo, hi, 5)) {
        g.strokeStyle = "#e9ecef"; g.beginPath(); g.moveTo(left, Y(v)); g.lineTo(left + w, Y(v)); g.stroke();
        g.fillStyle = "#495057"; g.fillText(dyndTickLabel(v, lo, hi, 5), left - 6, Y(v));
      }
      // Time ticks.
      g.textAlign = "center"; g.textBaseline = "top";
      for (const t of dyndTicks(0, tmax, 10)) {
        g.strokeStyle = "#f1f3f5"; g.beginPath(); g.moveTo(X(t), y0); g.lineTo(X(t), y0 + height); g.stroke();
        g.strokeStyle = "#868e96"; g.beginPath(); g.moveTo(X(t), y0 + height); g.lineTo(X(t), y0 + height + 4); g.stroke();
        g.fillStyle = "#495057"; g.fillText(dyndTickLabel(t, 0, tmax, 10), X(t), y0 + height + 6);
      }
      g.textAlign = "right"; g.fillText("time (s)", left + w, y0 + height + 21);
      g.strokeStyle = "#adb5bd"; g.strokeRect(left, y0, w, height);
      g.textAlign = "left"; g.textBaseline = "bottom"; g.fillStyle = "#212529";
      g.font = "600 12px system-ui, sans-serif";
      g.fillText(panel.title + " (" + panel.unit + ")", left, y0 - 5);
      g.save(); g.beginPath(); g.rect(left, y0, w, height); g.clip();
      for (const s of spec.series.filter(s => s.panel === p)) {
        g.strokeStyle = s.color; g.lineWidth = s.width || 1.8; g.setLineDash(s.dash || []);
        g.globalAlpha = s.alpha || 1; g.beginPath();
        let gap = true;
        for (const [t, v] of s.points) {
          if (v === null) { gap = true; continue; }
          if (gap) g.moveTo(X(t), Y(v)); else g.lineTo(X(t), Y(v));
          gap = false;
        }
        g.stroke(); g.globalAlpha = 1;
      }
      g.setLineDash([]); g.lineWidth = 1;
      for (const m of spec.marks || []) {
        g.strokeStyle = m.color; g.beginPath();
        if (m.kind === "contact") { g.moveTo(X(m.t), y0 + height - 9); g.lineTo(X(m.t), y0 + height); }
        else {
          g.lineWidth = m.kind === "done" ? 2 : 1.5;
          g.setLineDash(m.kind === "handoff" ? [5, 3] : m.kind === "tap" ? [2, 2] : []);
          g.moveTo(X(m.t), y0); g.lineTo(X(m.t), y0 + height);
        }
        g.stroke(); g.setLineDash([]); g.lineWidth = 1;
      }
      for (const m of spec.marks || []) for (const [v, color] of (m.dots || []).filter(d => (d[2] || 0) === p)) {
        g.fillStyle = color || m.color; g.strokeStyle = "#fff"; g.lineWidth = 1.5;
        g.beginPath(); g.arc(X(m.t), Y(v), 4.5, 0, 2 * Math.PI); g.fill(); g.stroke(); g.lineWidth = 1;
      }
      g.restore();
      if (p === 0) placeLabels(g, y0, panel);
      if (typeof cursor === "number") {
        g.strokeStyle = "#000"; g.beginPath(); g.moveTo(X(cursor), y0); g.lineTo(X(cursor), y0 + height); g.stroke();
      }
    });
  }
  /* Each mark's label beside its line, right of it where it fits, else left, in the lowest
     row of the strip above the panel (the first just above its title line) where its box
     meets no other label and not the title. */
  function placeLabels(g, y0, panel) {
    g.font = "600 12px system-ui, sans-serif";
    const title = [left, y0 - 19, g.measureText(panel.title + " (" + panel.unit + ")").width, 15];
    g.font = "11px system-ui, sans-serif"; g.textBaseline = "top";
    const boxes = [], gap = 3, rows = Math.floor(strip / rowHeight) + 1;
    const apart = (a, b) => a[0] + a[2] + gap <= b[0] || b[0] + b[2] + gap <= a[0] ||
      a[1] + a[3] <= b[1] || b[1] + b[3] <= a[1];
    const labelled = (spec.marks || []).filter(m => m.label).slice().sort((a, b) => a.t - b.t);
    for (const m of labelled) {
      const width = g.measureText(m.label).width, x = X(m.t);
      const sides = [x + 4, x - 4 - width].filter(x0 => x0 >= left && x0 + width <= left + w);
      if (!sides.length) sides.push(Math.min(Math.max(left, x + 4), left + w - width));
      let placed = null;
      for (let row = 0; !placed && row < rows; row++) for (const x0 of sides) {
        const box = [x0, y0 - 4 - (row + 1) * rowHeight + 2, width, rowHeight - 2];
        if (apart(box, title) && boxes.every(b => apart(box, b))) { placed = box; break; }
      }
      // No room left above: inside the panel, under the others.
      for (let row = 0; !placed; row++) {
        const box = [sides[0], y0 + 3 + row * rowHeight, width, rowHeight - 2];
        if (boxes.every(b => apart(box, b))) placed = box;
      }
      boxes.push(placed);
      g.textAlign = "left"; g.lineJoin = "round"; g.lineWidth = 3; g.strokeStyle = "rgba(255,255,255,0.9)";
      g.strokeText(m.label, placed[0], placed[1]); g.fillStyle = m.color; g.fillText(m.label, placed[0], placed[1]);
      g.lineWidth = 1;
      // The mark's line reaches up to its label.
      g.strokeStyle = m.color; g.setLineDash([2, 2]); g.beginPath();
      g.moveTo(x, placed[1] + placed[3] + 1); g.lineTo(x, y0); g.stroke(); g.setLineDash([]);
    }
    canvas.dataset.labels = JSON.stringify(boxes.map((b, i) => ({ text: labelled[i].label, box: b.map(v => Math.round(v * 10) / 10) })));
  }
  return { draw, tmax, ranges };
}

/* Round values from lo to hi, about `count` of them: steps of 1, 2 or 5 × 10^k. */
function dyndTicks(lo, hi, count) {
  const step = dyndStep(lo, hi, count), out = [];
  for (let v = Math.ceil(lo / step - 1e-9) * step; v <= hi + 1e-9 * step; v += step)
    out.push(Math.abs(v) < step * 1e-9 ? 0 : v);
  return out;
}
function dyndStep(lo, hi, count) {
  const raw = (hi - lo) / count || 1, power = Math.pow(10, Math.floor(Math.log10(raw)));
  const f = raw / power;
  return (f < 1.5 ? 1 : f < 3 ? 2 : f < 7 ? 5 : 10) * power;
}
function dyndTickLabel(v, lo, hi, count) {
  const decimals = Math.max(0, -Math.floor(Math.log10(dyndStep(lo, hi, count)) + 1e-9));
  return v.toFixed(Math.min(decimals, 6));
}
