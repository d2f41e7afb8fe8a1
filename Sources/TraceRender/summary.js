/* global dyndHandoffWords */
/* exported dyndTitle, dyndVector, dyndSummary */
function dyndNumber(v) {
  return typeof v === "number" ? String(Math.round(v * 1000) / 1000) : String(v);
}
function dyndVector(v) {
  return Array.isArray(v) ? "(" + v.map(dyndNumber).join(", ") + ")" : "?";
}
function dyndTitle(m) {
  if (m.source === "scene") return "scene " + (m.header.scene || "") + " (" + m.sizes.length + " items)";
  if (m.source === "session") return "session " + m.session + " (joined; " + (m.transition || "a scene") + ")";
  return m.transition || "?";
}

/* The header's rows for one trace: [[field, heading, text]…]; with `landing`, where the
   release goes (dyndMotion.landing's rows, and the spring's platform lines, one a line). */
function dyndSummaryRows(m, landing) {
  const rows = [];
  const pause = m.marks.find(k => k.kind === "pause");
  rows.push(["outcome", "Outcome", m.outcome ? m.outcome.word + " at " + dyndNumber(m.outcome.t) + " s"
    : m.source === "scene" || (m.source === "session" && !m.transition)
      ? "none (a scene has none); " + (pause ? "at rest at " + dyndNumber(pause.t) + " s" : "still moving when the recording ended")
      : "no outcome in the trace"]);
  const h = m.handoff;
  // The sentences dynctl handoff and the inspector give (HandoffWords): why an estimated
  // velocity is zero or limited, what each constraint did.
  const words = h ? dyndHandoffWords(h) : null;
  rows.push(["handoff", "Handoff", h ? h.item + ": gesture_velocity " + dyndVector(h.gesture_velocity) +
    " pt/s" + (words.reason ? " (" + words.reason + ")" : "") + " → item_velocity " +
    dyndVector(h.item_velocity) + " pt/s; velocity_error " + String(h.velocity_error || 0) + " pt/s" +
    (words.constraints.length ? "; " + words.constraints.join("; ") : "") + "; at " + dyndNumber(h.t) + " s"
    : "none: no pan was released"]);
  if (landing) {
    const L = m.landing;
    for (const field of ["projection", "landing", "motion"]) {
      const row = L && L.rows.find(r => r[0] === field);
      rows.push(row || [field, field === "motion" ? "Spring or decay" : field[0].toUpperCase() + field.slice(1), "none"]);
    }
    rows.push(["platforms", "The same spring", L && L.lines.length
      ? L.lines.map(l => l.platform + ": " + l.line).join("\n") : "none"]);
  }
  let params;
  const table = m.paramTable || [];
  const unit = p => p && p.unit ? " " + p.unit : "";
  const defaults = table.filter(p => !m.params.some(([k]) => k === p.name))
    .map(p => p.name + " " + dyndNumber(p.default) + unit(p)).join(", ");
  if (m.source === "session" && !m.joinedParams) params = "not in the trace: the session was opened by another client" +
    (defaults ? "; its transition's defaults: " + defaults : "");
  else if (m.open && m.open.scene) {
    const s = m.open.scene, types = {};
    for (const b of s.behaviors || []) types[b.type] = (types[b.type] || 0) + 1;
    params = "scene: " + (s.items || []).length + " items (" + (s.items || []).map(i => i.id).join(", ") + "), " +
      (s.behaviors || []).length + " behaviors (" + Object.entries(types).map(([t, n]) => n > 1 ? t + " ×" + n : t).join(", ") +
      "); bounds " + m.bounds[2] + "×" + m.bounds[3] + " pt";
  } else if (table.length) {
    const set = m.params.map(([k, v]) => {
      const p = table.find(x => x.name === k);
      return k + " = " + v + unit(p) + (p ? " (default " + dyndNumber(p.default) + ")" : "");
    });
    params = (set.length ? set.join(", ") + "; the others at their defaults: "
      : "all at their defaults: ") + defaults;
  } else params = (m.params.length ? m.params.map(([k, v]) => k + " = " + v).join(", ") + "; the others"
    : "all") + " at their defaults (protocol/PROTOCOL.md §11)";
  rows.push(["params", "Parameters", params]);
  rows.push(["gesture", "Gesture", dyndGesture(m)]);
  const clock = m.open ? (m.open.clock || "realtime") + " clock, " + (m.open.fps || 60) + " fps; " : "";
  rows.push(["recording", "Recording", "session " + m.session + ", " + clock + m.frames.filter(f => !f.initial).length +
    " frames over " + dyndNumber(m.duration) + " s" + (m.source === "session"
      ? "; joined at animator time " + dyndNumber(m.start) + " s (shown as 0)" : "")]);
  return rows;
}
function dyndGesture(m) {
  const pans = m.samples.filter(s => s.phase !== "tap" && s.phase !== "swipe");
  const other = m.samples.find(s => s.phase === "tap" || s.phase === "swipe");
  if (other && other.phase === "tap") return "tap at " + dyndVector(other.point);
  if (other) {
    const sent = m.marks.find(k => k.kind === "swipe");
    return "swipe " + (sent ? sent.what : "");
  }
  if (!pans.length) return m.source === "session" ? "not in the trace (sent by another client)" : "none";
  const first = pans[0], last = pans[pans.length - 1];
  const began = m.marks.find(k => k.kind === "gesture" && k.what === "began");
  const ended = m.marks.filter(k => k.kind === "gesture" && (k.what === "ended" || k.what === "cancelled")).pop();
  return "pan from " + dyndVector(first.point) + " to " + dyndVector(last.point) + ", " + pans.length +
    " samples" + (began && ended ? " over " + dyndNumber(ended.t - began.t) + " s, " + ended.what : "");
}

/* The header: a table of one trace, or a comparison with one column per trace (colours). */
function dyndSummary(ms, colors) {
  const table = document.createElement("table");
  table.className = "summary";
  const withLanding = ms.some(m => m.landing);
  const all = ms.map(m => dyndSummaryRows(m, withLanding));
  if (colors) {
    const head = table.insertRow();
    head.appendChild(document.createElement("th"));
    ms.forEach((m, k) => {
      const th = document.createElement("th");
      th.innerHTML = '<span class="swatch"></span>';
      th.firstChild.style.background = colors[k];
      th.appendChild(document.createTextNode("·" + (k + 1) + " " + m.name + " — " + dyndTitle(m)));
      head.appendChild(th);
    });
  }
  all[0].forEach(([field, heading], r) => {
    const row = table.insertRow();
    const th = document.createElement("th");
    th.textContent = heading; row.appendChild(th);
    const texts = all.map(rows => rows[r][2]);
    texts.forEach((text, k) => {
      const td = row.insertCell();
      // The platform lines: each its own line of code, to copy.
      if (field === "platforms" && text !== "none") for (const line of text.split("\n")) {
        const [platform, code] = [line.slice(0, line.indexOf(": ")), line.slice(line.indexOf(": ") + 2)];
        const div = document.createElement("div");
        div.appendChild(document.createTextNode(platform + " "));
        const c = document.createElement("code");
        c.textContent = code; c.dataset.platform = platform;
        div.appendChild(c);
        td.appendChild(div);
      } else td.textContent = text;
      td.dataset.field = field; td.dataset.trace = String(k);
      if (ms.length > 1 && texts.some(t => t !== text)) td.className = "differs";
    });
  });
  return table;
}
