/* global DYND_HANDOFF_TEMPLATES, DYND_HANDOFF_REASONS */
/* exported dyndHandoffWords */
function dyndHandoffWords(h) {
  const n = v => { const r = Math.round(v * 1000) / 1000; return String(r === 0 ? 0 : r); };
  const pair = v => "(" + n(v[0]) + ", " + n(v[1]) + ")";
  const fill = (t, values) => t.replace(/\{([a-z_]+)\}/g, (m, k) => k in values ? values[k] : m);
  let v = Array.isArray(h.gesture_velocity) ? h.gesture_velocity.slice() : [0, 0];
  const constraints = [];
  for (const c of Array.isArray(h.constraints) ? h.constraints : []) {
    const before = v.slice();
    if (c.kind === "rail" && Array.isArray(c.axis)) {
      const dot = v[0] * c.axis[0] + v[1] * c.axis[1];
      v = [c.axis[0] * dot, c.axis[1] * dot];
      constraints.push(fill(DYND_HANDOFF_TEMPLATES.rail, { axis: pair(c.axis), before: pair(before), after: pair(v) }));
    } else if (c.kind === "anchored") {
      v = [0, 0];
      constraints.push(DYND_HANDOFF_TEMPLATES.anchored);
    } else if (c.kind === "speed_limit" && c.max_speed > 0) {
      const speed = Math.hypot(v[0], v[1]);
      if (speed > c.max_speed) v = [v[0] * c.max_speed / speed, v[1] * c.max_speed / speed];
      constraints.push(fill(DYND_HANDOFF_TEMPLATES.speed_limit, { max: n(c.max_speed), before: pair(before), after: pair(v) }));
    } else constraints.push(String(c.kind));
  }
  const e = h.estimate, template = e && DYND_HANDOFF_REASONS[e.reason];
  // still_ms, gap_ms: members of the estimate (or of the event itself).
  const ms = key => { const v = e && typeof e[key] === "number" ? e[key] : h[key]; return typeof v === "number" ? n(v) : "?"; };
  const reason = template ? fill(template, { still_ms: ms("still_ms"), gap_ms: ms("gap_ms") }) : null;
  return { constraints, reason, after: v };
}
