/* global makeDyndStage, dyndMotion */
/* exported dyndTraceModel */
/* dyndTraceModel(lines) → {header, source, transition, session, bounds, sizes, frames, debug,
   marks, samples, handoff, outcome, params, paramTable, open, start, duration, dragged,
   plotted, kinds, fields ([{id, kind}] of the debug events' fields, in order met),
   joinedParams (a joined session's parameters from its get reply, or null), sessionParams
   (every parameter of the session as a `get` reply gives them, or null), detents
   (dyndMotion.detents of them: a sheet's), landing (dyndMotion.landing of the handoff, from the
   item's center in the last frame at the release, or null)}.
   Times in `marks` and each frame's `rt` are seconds since the recording began (`start`, the
   animator time of the open or get reply: 0 unless a running session was joined). */
function dyndTraceModel(lines) {
  "use strict";
  const header = lines[0];
  const bounds = header.bounds || [0, 0, 320, 568];
  let sizes = null, t = 0, open = null, handoff = null, outcome = null, initialDebug = null;
  let tables = null, joinedParams = null, sessionParams = null;
  const frames = [], debug = {}, marks = [], samples = [], params = [];
  for (const line of lines.slice(1)) {
    const sent = line.sent;
    if (sent) {
      if (sent.op === "open") {
        open = sent;
        for (const [k, v] of Object.entries(sent.params || {})) params.push([k, JSON.stringify(v)]);
      } else if (sent.op === "gesture") {
        samples.push({ after: frames.length, phase: sent.phase, point: [sent.x, sent.y] });
        marks.push({ kind: "gesture", t, what: sent.phase });
      } else if (sent.op === "tap" || sent.op === "swipe") {
        samples.push({ after: frames.length, phase: sent.op, point: [sent.x, sent.y] });
        marks.push({ kind: sent.op, t, what: sent.op === "swipe" ? sent.direction : "" });
      }
      continue;
    }
    if (!sizes && line.ok && Array.isArray(line.items) && line.items.length && line.items[0].size) {
      // Shapes as open or get gave them (absent: a rectangle).
      sizes = line.items.map(i => ({ id: i.id, w: i.size[0], h: i.size[1], shape: i.shape, path: i.path }));
      // A joined session's get reply holds every parameter it was opened with (extension):
      // those that differ from the defaults are kept, as an open's would be.
      joinedParams = line.params || null;
      t = typeof line.t === "number" ? line.t : 0;
      frames.push({ t, seq: 0, items: line.items, initial: true });
    }
    if (line.ok && line.params && typeof line.params === "object" && !sessionParams) sessionParams = line.params;
    if (line.ok && line.debug && !initialDebug) initialDebug = line.debug;
    if (line.ok && line.parameters && typeof line.parameters === "object") tables = line.parameters;
    if (line.ev === "frame") { t = line.t; frames.push(line); }
    else if (line.ev === "debug") debug[line.seq] = line;
    else if (line.ev === "handoff") {
      marks.push({ kind: "handoff", t, what: line.item });
      if (!handoff) handoff = Object.assign({ t }, line);
    }
    else if (line.ev === "contact" && line.phase === "began") marks.push({ kind: "contact", t, what: line.item });
    else if (line.ev === "pause") marks.push({ kind: "pause", t });
    else if (line.ev === "done") {
      marks.push({ kind: "done", t, what: line.outcome });
      if (!outcome) outcome = { word: line.outcome, t };
    }
  }
  if (!open && joinedParams && tables) {
    const table = tables[header.transition] || [];
    for (const [k, v] of Object.entries(joinedParams)) {
      const declared = table.find(p => p.name === k);
      if (!declared || declared.default !== v) params.push([k, JSON.stringify(v)]);
    }
  }
  if (initialDebug && frames.length && frames[0].initial) debug[0] = initialDebug;
  sizes = sizes || [];
  // A scene's shapes are in the open request.
  if (open && open.scene && Array.isArray(open.scene.items)) for (const spec of open.scene.items) {
    const s = sizes.find(x => x.id === spec.id);
    if (s && spec.shape) { s.shape = spec.shape; s.path = spec.path; }
  }
  const start = frames.length ? frames[0].t : 0;
  for (const f of frames) f.rt = f.t - start;
  for (const m of marks) m.t -= start;
  if (handoff) handoff.t -= start;
  if (outcome) outcome.t -= start;
  const duration = frames.length ? frames[frames.length - 1].rt : 0;
  // The dragged item: the one the handoff names. The item plotted first: that one, else
  // the one that travelled furthest.
  const dragged = handoff ? handoff.item : null;
  let plotted = dragged;
  if (!plotted && sizes.length) {
    const travel = {};
    for (let i = 1; i < frames.length; i++) for (const it of frames[i].items) {
      const before = frames[i - 1].items.find(x => x.id === it.id);
      if (before) travel[it.id] = (travel[it.id] || 0) +
        Math.hypot(it.center[0] - before.center[0], it.center[1] - before.center[1]);
    }
    plotted = sizes.map(s => s.id).reduce((a, b) => (travel[b] || 0) > (travel[a] || 0) ? b : a);
  }
  // Where the release goes: from the handed-over item's center in the last frame at the
  // release (on the manual clock `dynctl record` uses, where the release happened).
  const detents = dyndMotion.detents(sessionParams, bounds);
  let landing = null;
  if (handoff) {
    let last = null;
    for (const f of frames) if (f.rt <= handoff.t + 1e-9) last = f;
    const it = last && last.items.find(i => i.id === handoff.item);
    const size = sizes.find(s => s.id === handoff.item);
    if (it) landing = dyndMotion.landing(handoff, { center: it.center, bounds, params: sessionParams,
      size: size ? [size.w, size.h] : null });
  }
  return {
    header, source: header.source || "transition", transition: header.transition || null,
    session: header.session || "", bounds, sizes, frames, debug, marks, samples, handoff,
    outcome, params, open, start, duration, dragged, plotted, joinedParams, sessionParams, detents, landing,
    // The transition's parameter table from a `hello` reply: [{name, default, unit…}…].
    paramTable: tables && header.transition && Array.isArray(tables[header.transition])
      ? tables[header.transition] : null,
    kinds: makeDyndStage.kindsIn(Object.values(debug)),
    fields: makeDyndStage.fieldsIn(Object.values(debug)),
    // The frame shown at `rt` seconds: the last one at or before it.
    frameAt(rt) {
      let lo = 0, hi = frames.length - 1, best = frames.length ? 0 : -1;
      while (lo <= hi) {
        const mid = (lo + hi) >> 1;
        if (frames[mid].rt <= rt + 1e-9) { best = mid; lo = mid + 1; } else hi = mid - 1;
      }
      return best;
    },
    // Where the finger is at frame `index`: a pan's newest sample until it ends; a tap or a
    // swipe for 10 frames.
    fingerAt(index) {
      let last = null;
      for (const s of samples) if (s.after <= index) last = s;
      if (!last || typeof last.point[0] !== "number") return null;
      if (last.phase === "began" || last.phase === "changed") return last.point;
      if ((last.phase === "tap" || last.phase === "swipe") && index - last.after < 10) return last.point;
      return null;
    },
  };
}
