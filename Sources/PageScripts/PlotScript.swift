/// The JavaScript of the player's plots (see `HTMLRenderer`): panels of values over time on
/// common time axis, with ticks and marks. Plain ES2017, no dependencies.
public enum PlotScript {
  public static let source = #"""
    /* makeDyndPlot(canvas, {panels: [{title, unit}], series: [{panel, label, color, dash,
       points: [[t, v]…]}], marks: [{kind: "handoff"|"done"|"contact"|"tap", t, color, label}],
       bands: [{from, to}], tmax}) → {draw(cursor)}. Every panel shares the time axis (seconds,
       ticks under each panel); each panel has value ticks of its own, over all its series. The
       canvas gets data-series (label, colour, panel of each series) and data-ranges. */
    function makeDyndPlot(canvas, spec) {
      "use strict";
      const left = 64, right = 18, top = 22, height = 118, below = 40;
      canvas.height = spec.panels.length * (top + height + below);
      const w = canvas.width - left - right;
      const tmax = spec.tmax > 0 ? spec.tmax : 1;
      const X = t => left + t / tmax * w;
      const ranges = spec.panels.map((_, p) => {
        const values = spec.series.filter(s => s.panel === p).flatMap(s => s.points.map(q => q[1]));
        if (!values.length) return [0, 1];
        let lo = Math.min(...values), hi = Math.max(...values);
        if (hi - lo < 1e-6) { lo -= 1; hi += 1; }
        const margin = (hi - lo) * 0.06;
        return [lo - margin, hi + margin];
      });
      canvas.dataset.series = JSON.stringify(spec.series.map(s => ({ label: s.label, color: s.color, panel: s.panel })));
      canvas.dataset.ranges = JSON.stringify({ time: [0, tmax], values: ranges });

      function draw(cursor) {
        const g = canvas.getContext("2d");
        g.clearRect(0, 0, canvas.width, canvas.height);
        spec.panels.forEach((panel, p) => {
          const y0 = p * (top + height + below) + top, [lo, hi] = ranges[p];
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
            g.strokeStyle = s.color; g.lineWidth = 1.8; g.setLineDash(s.dash || []); g.beginPath();
            s.points.forEach(([t, v], j) => j ? g.lineTo(X(t), Y(v)) : g.moveTo(X(t), Y(v)));
            g.stroke();
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
          g.restore();
          // Mark labels over the top panel only, beside their line.
          if (p === 0) for (const m of spec.marks || []) if (m.label) {
            g.font = "11px system-ui, sans-serif"; g.fillStyle = m.color; g.textBaseline = "top";
            // Beside the line, on the side with room.
            const room = m.kind === "done" ? X(m.t) < left + w * 0.8 : X(m.t) < left + 90;
            const after = room;
            g.textAlign = after ? "left" : "right";
            g.fillText(m.label, X(m.t) + (after ? 4 : -4), y0 + 3 + (m.row || 0) * 13);
          }
          if (typeof cursor === "number") {
            g.strokeStyle = "#000"; g.beginPath(); g.moveTo(X(cursor), y0); g.lineTo(X(cursor), y0 + height); g.stroke();
          }
        });
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
    """#
}
