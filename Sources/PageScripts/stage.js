/* exported makeDyndStage */
/* makeDyndStage(canvas, options) draws frames of a dynd session on `canvas`, in reference
   points (y down), framed to the bounds with a margin; outside the bounds is faded.

   const stage = makeDyndStage(canvas, {
     bounds: [x, y, w, h],              // the reference bounds, points (required)
     sizes: [{id, w, h, shape, path}],  // the items in scene order (required); shape
                                        // "rectangle" (default), "ellipse" or "path" (path:
                                        // [[x, y]…] relative to the center)
     padding: 28,                       // canvas pixels around the view
     offscreen: false,                  // true: frame everything `frames` reach as well
     frames: [],                        // frame events, only read for `offscreen`
     view: null,                        // [x, y, w, h]: frame exactly this (points)
     maxWidth: 380, maxHeight: 620,     // the canvas's largest size, pixels
     maxScale: 1.2,                     // the largest scale, pixels per point
     fields: [],                        // [{id, kind}]: fields to expect, given their
                                        // colours in this order (makeDyndStage.fieldsIn);
                                        // fields met later get the next colours
   });
   The canvas gets its size (width, height) and data-view="x0,y0,scale": canvas pixel
   (px, py) = ((x − x0) × scale, (y − y0) × scale).
   stage.scale, stage.view ([x, y, w, h] in points, without the padding), stage.canvas
   stage.toScreen(x, y) → [px, py]     canvas pixels of a reference point
   stage.toReference(px, py) → [x, y]  the reference point at canvas pixels
   stage.fromEvent(event) → [x, y]     the reference point under a mouse or pointer event
                                       (takes the canvas's CSS size into account)
   stage.draw(frame, debug, options)   clear(), layer(…), finish(): one frame
   stage.clear(); stage.layer(frame, debug, options) (repeatable); stage.finish()
     frame: a `frame` event ({items: [{id, center: [x, y], angle}]}); items not in `sizes`
            are skipped
     debug: a `debug` event, or the `debug` member of the debug op's reply, or null
     options: {
       dragged: id,                     // drawn last, with a thick outline
       overlays: {boundaries, attachments, snaps, pushes, gravity, contacts, fields,
                  regions, groups},     // each true unless given false
       colorFor: (id, index) => css,    // default: PALETTE by scene index
       tag: "",                         // written after every item's name
       names: true,                     // item names on the stage
       finger: [x, y] | null,           // the gesture's newest point
       slot: 0,                         // this layer's place among several: gravity
                                        // arrows of different layers side by side
       zones: [],                       // [{item, corner: [cx, cy], size: [w, h],
                                        // label}]: touch zones on an item, inside its
                                        // corner cx, cy (−1 left or top, 0 middle, 1 right
                                        // or bottom), turning with it, dotted, labelled;
                                        // see makeDyndStage.tapZones
       offstage: false,                 // true: an item wholly outside the bounds gets a
                                        // marker at their edge pointing at it, with its
                                        // distance ("screen ↑ 812 pt"); the canvas gets
                                        // data-offstage: [{id, distance, at: [px, py]}]
       landing: null,                   // where a release goes (dyndMotion.landing's
                                        // `stage`): {detents: [{name, y, height, chosen}]
                                        // (lines across the bounds at y, named),
                                        // projection: {at: [x, y], edge: y or null, label},
                                        // target: {item, center: [x, y], label}}: the
                                        // projection a cross (and a line across the item at
                                        // its edge when given), the landing the item's
                                        // outline, dashed, where it comes to rest; a point
                                        // off the view is drawn at its edge with an arrow
                                        // and its distance. The canvas gets data-landing:
                                        // {detents: [{name, chosen, at: [px, py]}], projection:
                                        // [px, py], target: [px, py]} (canvas pixels)
     }
   stage.legend(options) → [{key, label, color, mark, overlay}]: every colour and mark;
     options: {kinds: set or array of the overlay keys to list (default all; see
     makeDyndStage.kindsIn), traces: [{label, color}] (one colour per trace instead of
     per item), finger: false and dragged: false to leave those out, zones and offstage
     as given to draw, to list them}. Fields, regions and
     groups are listed once the stage knows them (options.fields, or met by a draw):
     one entry per field, "field f: radial gravity", in its colour.
   stage.legendElement(options) → <ul class="dynd-legend">: the legend with swatches;
     options.toggles {overlay: bool} adds checkboxes for the overlays, and
     options.onToggle(overlay, checked) hears them. The list stays current: a draw that
     meets a new field, the first region or the first group lists it.
   stage.fieldColor(id) → css: a field's colour (FIELD_COLORS, in the order fields are met)
   makeDyndStage.PALETTE (item colours), makeDyndStage.OVERLAYS (overlay names),
   makeDyndStage.fillAlpha(size, bounds) (an item's fill opacity: large items are fainter),
   makeDyndStage.tapZones(transition, params) → the zones option for a transition's
     session with these parameters (lock-screen: its camera grabber),
   makeDyndStage.kindsIn(debugs) → Set of the legend keys the debug events use,
   makeDyndStage.fieldsIn(debugs) → [{id, kind}]: the fields they hold, in order met,
   makeDyndStage.region(R) → {contains(x, y), leaves: [{radius} | {size: [w, h]}]} or null
     (R malformed): a field's region, relative to the field's position;
     makeDyndStage.drawsRegion(R): whether it has a circle or rectangle to draw,
   makeDyndStage.COLORS (the overlays' colours), makeDyndStage.FIELD_COLORS,
   makeDyndStage.FIELD_KINDS ({kind: [name, short label]}).
   A bad `bounds` or `sizes` throws an Error saying which.

   Fields, regions and groups (the debug members `fields` and `groups`; older traces have
   neither and draw as before):
     fields: [{id, kind, position: [x, y], region: R, strength, items,
               samples: [[x, y, fx, fy]…]}]  the force on a still probe (mass 1, charge 1)
       at each sample point: one arrow each, centred on the point, beneath the items. The
       longest spans 0.9 of the samples' grid cell (their median nearest-neighbour
       distance; 24 px with one sample; at most 80 px); the others in proportion, or on a
       log scale of 3 decades (floor 0.15 of the longest) when the non-zero forces span
       more than 10×. The field's position: a ring and cross with "id (short label)".
     R (relative to the field's position): {infinite: true}, {radius: r}, {size: [w, h]}
       (centred), {inverse: R}, {union: [R, R]}, {intersection: [R, R]},
       {difference: [R, R]} (the first minus the second). Its area is tinted in the
       field's colour, evaluated on a grid of 6-px cells (no tint when it covers every
       cell, as the infinite region does, or none, as its inverse); its circles and
       rectangles are outlined, dashed.
     groups: [{id, items, center: [x, y], angle, size: [w, h]}]  items moving as one
       body: the rotated rectangle, dash-dotted, with its id; thin lines from its centre
       to its members' centres.

   With a live session (the `debug` op makes the connection watch it; each `frame` event is
   followed by a `debug` event of the same seq):
     const sizes = reply.items.map(i => ({id: i.id, w: i.size[0], h: i.size[1]}));  // open/get
     const stage = makeDyndStage(canvas, {bounds: [0, 0, 320, 568], sizes});
     let frame = null;
     socket.onmessage = m => { const e = JSON.parse(m.data);
       if (e.ev === "frame") frame = e;
       else if (e.ev === "debug" && frame && e.seq === frame.seq) stage.draw(frame, e, {}); };
     canvas.onpointerdown = e => { const [x, y] = stage.fromEvent(e); … };  // a gesture at x, y
*/
function makeDyndStage(canvas, options) {
  "use strict";
  const PALETTE = makeDyndStage.PALETTE;
  const o = Object.assign({ padding: 28, offscreen: false, frames: [], view: null,
    maxWidth: 380, maxHeight: 620, maxScale: 1.2 }, options || {});
  const bounds = o.bounds, sizes = o.sizes || [];
  if (!Array.isArray(bounds) || bounds.length !== 4 || !bounds.every(Number.isFinite) ||
      !(bounds[2] > 0 && bounds[3] > 0))
    throw new Error("makeDyndStage: options.bounds must be [x, y, w, h] with w, h > 0");
  if (!Array.isArray(sizes) || !sizes.every(s => s && typeof s.id === "string" && s.w > 0 && s.h > 0))
    throw new Error("makeDyndStage: options.sizes must be [{id, w, h}…] with w, h > 0");
  const byId = {};
  sizes.forEach((s, index) => { byId[s.id] = Object.assign({ index }, s); });
  // Fields get colours in the order met (options.fields first); the legend lists what
  // the stage has met, and legend elements are refilled when it meets something new.
  const fieldColors = new Map(), met = { fields: [], region: false, group: false };
  const liveLegends = [], tints = new Map();
  for (const f of Array.isArray(o.fields) ? o.fields : []) meetField(f);
  const view = o.view ? o.view.slice() : framing();
  const pad = o.padding;
  const scale = Math.min(o.maxScale, (o.maxWidth - 2 * pad) / view[2],
    (o.maxHeight - 2 * pad) / view[3]);
  canvas.width = Math.ceil(view[2] * scale + 2 * pad);
  canvas.height = Math.ceil(view[3] * scale + 2 * pad);
  canvas.dataset.view = [view[0] - pad / scale, view[1] - pad / scale, scale].join(",");
  const g = canvas.getContext("2d");

  function framing() {
    let [x0, y0, x1, y1] = [bounds[0], bounds[1], bounds[0] + bounds[2], bounds[1] + bounds[3]];
    if (o.offscreen) for (const frame of o.frames) for (const it of frame.items) {
      const s = byId[it.id];
      if (!s) continue;
      const [hx, hy] = halfExtents(s, it.angle || 0);
      x0 = Math.min(x0, it.center[0] - hx); x1 = Math.max(x1, it.center[0] + hx);
      y0 = Math.min(y0, it.center[1] - hy); y1 = Math.max(y1, it.center[1] + hy);
    }
    return [x0, y0, x1 - x0, y1 - y0];
  }
  function halfExtents(s, angle) {
    const c = Math.abs(Math.cos(angle)), n = Math.abs(Math.sin(angle));
    return [s.w / 2 * c + s.h / 2 * n, s.w / 2 * n + s.h / 2 * c];
  }
  function toScreen(x, y) { return [(x - view[0]) * scale + pad, (y - view[1]) * scale + pad]; }
  function toReference(px, py) { return [(px - pad) / scale + view[0], (py - pad) / scale + view[1]]; }
  function fromEvent(event) {
    const r = canvas.getBoundingClientRect();
    return toReference((event.clientX - r.left) * canvas.width / (r.width || 1),
      (event.clientY - r.top) * canvas.height / (r.height || 1));
  }

  function clear() {
    g.setTransform(1, 0, 0, 1, 0, 0);
    g.fillStyle = "#ffffff"; g.fillRect(0, 0, canvas.width, canvas.height);
    const [bx, by] = toScreen(bounds[0], bounds[1]);
    g.fillStyle = "#f8f9fa"; g.fillRect(bx, by, bounds[2] * scale, bounds[3] * scale);
  }
  function finish() {
    // Outside the bounds is off screen: faded, with the bounds drawn over it.
    const [bx, by] = toScreen(bounds[0], bounds[1]);
    g.fillStyle = "rgba(255,255,255,0.62)"; g.beginPath();
    g.rect(0, 0, canvas.width, canvas.height);
    g.rect(bx, by, bounds[2] * scale, bounds[3] * scale);
    g.fill("evenodd");
    g.strokeStyle = "#343a40"; g.lineWidth = 1.5; g.setLineDash([]);
    g.strokeRect(bx, by, bounds[2] * scale, bounds[3] * scale);
    g.lineWidth = 1;
    g.font = "10px system-ui, sans-serif"; g.fillStyle = "#495057";
    g.textAlign = "left"; g.textBaseline = "bottom";
    if (by > 12) g.fillText("bounds " + bounds[2] + "×" + bounds[3] + " pt", bx, by - 3);
  }
  function draw(frame, debug, opts) { clear(); layer(frame, debug, opts); finish(); }

  function layer(frame, debug, opts) {
    opts = opts || {};
    const ov = Object.assign({ boundaries: true, attachments: true, snaps: true, pushes: true,
      gravity: true, contacts: true, fields: true, regions: true, groups: true }, opts.overlays || {});
    const colorFor = opts.colorFor || ((id, index) => PALETTE[index % PALETTE.length]);
    const items = (frame ? frame.items : []).filter(it => byId[it.id]);
    // Large items beneath, the dragged one on top.
    const area = it => byId[it.id].w * byId[it.id].h;
    items.sort((a, b) => (a.id === opts.dragged) - (b.id === opts.dragged) || area(b) - area(a));
    const fresh = debug ? meet(debug) : false;
    if (debug) drawBeneath(debug, ov);
    const centers = {};
    for (const it of items) {
      centers[it.id] = it.center;
      drawItem(it, colorFor(it.id, byId[it.id].index), it.id === opts.dragged);
    }
    if (debug) drawDebug(debug, ov, centers, opts.slot || 0, opts.tag || "");
    for (const zone of opts.zones || []) drawZone(zone, items.find(it => it.id === zone.item));
    if (opts.landing) drawLanding(opts.landing);
    if (opts.names !== false) for (const it of items) name(it, opts.tag || "");
    if (opts.offstage) markOffstage(items);
    if (opts.finger) finger(opts.finger);
    if (fresh) for (const live of liveLegends) fillLegend(live.list, live.opts);
  }

  function shapePath(s) {
    g.beginPath();
    const w = s.w * scale, h = s.h * scale;
    if (s.shape === "ellipse") g.ellipse(0, 0, w / 2, h / 2, 0, 0, 2 * Math.PI);
    else if (s.shape === "path" && Array.isArray(s.path) && s.path.length > 2) {
      s.path.forEach(([x, y], i) => i ? g.lineTo(x * scale, y * scale) : g.moveTo(x * scale, y * scale));
      g.closePath();
    } else g.rect(-w / 2, -h / 2, w, h);
  }
  function drawItem(it, color, dragged) {
    const s = byId[it.id];
    const [x, y] = toScreen(it.center[0], it.center[1]);
    g.save(); g.translate(x, y); g.rotate(it.angle || 0);
    shapePath(s);
    g.globalAlpha = makeDyndStage.fillAlpha(s, bounds); g.fillStyle = color; g.fill();
    g.globalAlpha = 1; g.strokeStyle = color; g.lineWidth = dragged ? 3.5 : 1.5; g.stroke();
    g.restore(); g.lineWidth = 1;
  }
  function name(it, tag) {
    // At the middle of the part on the bounds (or in the view), so that an item mostly off
    // screen is still named where it shows.
    const s = byId[it.id], [hx, hy] = halfExtents(s, it.angle || 0);
    const area = o.offscreen ? view : bounds;
    const x0 = Math.max(it.center[0] - hx, area[0]), x1 = Math.min(it.center[0] + hx, area[0] + area[2]);
    const y0 = Math.max(it.center[1] - hy, area[1]), y1 = Math.min(it.center[1] + hy, area[1] + area[3]);
    if (x0 >= x1 || y0 >= y1) return;
    const inside = (v, a, b) => v >= a && v <= b;
    const cx = inside(it.center[0], x0, x1) ? it.center[0] : (x0 + x1) / 2;
    const cy = inside(it.center[1], y0, y1) ? it.center[1] : (y0 + y1) / 2;
    const [px, py] = toScreen(cx, cy);
    g.font = "600 11px system-ui, sans-serif"; g.textAlign = "center"; g.textBaseline = "middle";
    g.lineJoin = "round"; g.lineWidth = 3; g.strokeStyle = "rgba(255,255,255,0.9)";
    const text = it.id + tag;
    g.strokeText(text, px, py); g.fillStyle = "#212529"; g.fillText(text, px, py);
    g.lineWidth = 1;
  }
  function drawZone(zone, it) {
    if (!it || !Array.isArray(zone.size) || !Array.isArray(zone.corner)) return;
    const s = byId[it.id], [x, y] = toScreen(it.center[0], it.center[1]);
    const at = (c, whole, part) => (c > 0 ? whole / 2 - part : c < 0 ? -whole / 2 : -part / 2) * scale;
    const rw = zone.size[0] * scale, rh = zone.size[1] * scale;
    const rx = at(zone.corner[0], s.w, zone.size[0]), ry = at(zone.corner[1], s.h, zone.size[1]);
    g.save(); g.translate(x, y); g.rotate(it.angle || 0);
    g.fillStyle = "rgba(134,142,150,0.16)"; g.fillRect(rx, ry, rw, rh);
    g.strokeStyle = "#495057"; g.lineWidth = 1.5; g.setLineDash([2, 3]); g.strokeRect(rx, ry, rw, rh);
    g.setLineDash([]); g.lineWidth = 1;
    g.font = "10px system-ui, sans-serif"; g.textAlign = "center"; g.textBaseline = "middle";
    g.fillStyle = "#343a40";
    for (const [i, line] of String(zone.label || "").split("\n").entries())
      g.fillText(line, rx + rw / 2, ry + rh / 2 + (i - 0.5) * 12);
    g.restore();
  }
  // Items wholly outside the bounds: an arrow just inside their edge, towards the item, and
  // how far its nearest side is from them.
  function markOffstage(items) {
    const marks = [], [bx0, by0] = bounds, bx1 = bounds[0] + bounds[2], by1 = bounds[1] + bounds[3];
    for (const it of items) {
      const [hx, hy] = halfExtents(byId[it.id], it.angle || 0), [cx, cy] = it.center;
      const dx = Math.max(bx0 - (cx + hx), (cx - hx) - bx1, 0), dy = Math.max(by0 - (cy + hy), (cy - hy) - by1, 0);
      if (dx <= 0 && dy <= 0) continue;
      const inset = 18 / scale;
      const ax = Math.min(Math.max(cx, bx0 + inset), bx1 - inset), ay = Math.min(Math.max(cy, by0 + inset), by1 - inset);
      const [px, py] = toScreen(ax, ay), distance = Math.round(Math.hypot(dx, dy));
      const direction = [cx - ax, cy - ay], norm = Math.hypot(direction[0], direction[1]) || 1;
      const ux = direction[0] / norm, uy = direction[1] / norm;
      const color = PALETTE[byId[it.id].index % PALETTE.length];
      g.fillStyle = color; g.strokeStyle = "#fff"; g.lineWidth = 1.5; g.beginPath();
      g.moveTo(px + ux * 12, py + uy * 12); g.lineTo(px - uy * 9 - ux * 4, py + ux * 9 - uy * 4);
      g.lineTo(px + uy * 9 - ux * 4, py - ux * 9 - uy * 4); g.closePath(); g.fill(); g.stroke();
      const arrowText = Math.abs(uy) >= Math.abs(ux) ? (uy < 0 ? "↑" : "↓") : (ux < 0 ? "←" : "→");
      const text = it.id + " " + arrowText + " " + distance + " pt off screen";
      g.font = "600 11px system-ui, sans-serif"; g.textBaseline = "middle";
      const tw = g.measureText(text).width, [sx0] = toScreen(bx0, 0), [sx1] = toScreen(bx1, 0);
      const tx = Math.min(Math.max(px - tw / 2, sx0 + 4), sx1 - 4 - tw);
      const ty = py - uy * 20 - (Math.abs(uy) < 0.5 ? 16 : 0);
      g.textAlign = "left"; g.lineJoin = "round"; g.lineWidth = 3; g.strokeStyle = "rgba(255,255,255,0.9)";
      g.strokeText(text, tx, ty); g.fillStyle = "#212529"; g.fillText(text, tx, ty); g.lineWidth = 1;
      marks.push({ id: it.id, distance, at: [Math.round(px), Math.round(py)] });
    }
    canvas.dataset.offstage = JSON.stringify(marks);
  }
  function finger(p) {
    const [x, y] = toScreen(p[0], p[1]);
    g.beginPath(); g.arc(x, y, 9, 0, 2 * Math.PI);
    g.fillStyle = "rgba(52,58,64,0.22)"; g.fill();
    g.lineWidth = 2; g.strokeStyle = "#343a40"; g.stroke(); g.lineWidth = 1;
  }

  function segment(a, b, color, width, dash) {
    g.strokeStyle = color; g.lineWidth = width || 1; g.setLineDash(dash || []);
    g.beginPath(); g.moveTo(...toScreen(a[0], a[1])); g.lineTo(...toScreen(b[0], b[1])); g.stroke();
    g.setLineDash([]); g.lineWidth = 1;
  }
  function spring(a, b, color) {
    const [ax, ay] = toScreen(a[0], a[1]), [bx, by] = toScreen(b[0], b[1]);
    const n = 12, dx = (bx - ax) / n, dy = (by - ay) / n, len = Math.hypot(dx, dy) || 1;
    g.strokeStyle = color; g.beginPath(); g.moveTo(ax, ay);
    for (let i = 1; i < n; i++) {
      const side = i % 2 ? 4 : -4;
      g.lineTo(ax + dx * i - dy / len * side, ay + dy * i + dx / len * side);
    }
    g.lineTo(bx, by); g.stroke();
  }
  function arrow(px, py, vector, length, color) {
    const norm = Math.hypot(vector[0], vector[1]);
    if (!norm) return;
    const ux = vector[0] / norm, uy = vector[1] / norm;
    const tx = px + ux * length, ty = py + uy * length;
    g.strokeStyle = color; g.fillStyle = color; g.lineWidth = 2;
    g.beginPath(); g.moveTo(px, py); g.lineTo(tx, ty); g.stroke(); g.lineWidth = 1;
    g.beginPath(); g.moveTo(tx + ux * 6, ty + uy * 6);
    g.lineTo(tx - uy * 5, ty + ux * 5); g.lineTo(tx + uy * 5, ty - ux * 5); g.closePath(); g.fill();
  }
  /* A sliding attachment: the rail its item runs on (two thin lines along the axis through
     the joint point, across the view) and its point on the item (a square). */
  function rail(a) {
    const at = point(a.to_point), on = point(a.item_point);
    if (!at || !on) return;
    let axis = point(a.axis);
    if (!axis || !Math.hypot(axis[0], axis[1])) {
      const d = [on[0] - at[0], on[1] - at[1]];
      axis = Math.hypot(d[0], d[1]) > 1e-6 ? d : [1, 0];
    }
    const norm = Math.hypot(axis[0], axis[1]), ux = axis[0] / norm, uy = axis[1] / norm;
    const reach = (view[2] + view[3]) * 2, [px, py] = toScreen(at[0], at[1]);
    const R = reach * scale, nx = -uy * 2.5, ny = ux * 2.5;
    g.strokeStyle = makeDyndStage.COLORS.rail; g.lineWidth = 1; g.setLineDash([]);
    g.globalAlpha = 0.75; g.beginPath();
    for (const side of [1, -1]) {
      g.moveTo(px - ux * R + side * nx, py - uy * R + side * ny);
      g.lineTo(px + ux * R + side * nx, py + uy * R + side * ny);
    }
    g.stroke(); g.globalAlpha = 1;
    const [ix, iy] = toScreen(on[0], on[1]);
    g.fillStyle = makeDyndStage.COLORS.rail; g.fillRect(ix - 4, iy - 4, 8, 8);
  }
  /* Where a release goes: detents, the projection, the landing (see options.landing). */
  function drawLanding(L) {
    const C = makeDyndStage.COLORS, out = { detents: [], projection: null, target: null };
    const bx0 = toScreen(bounds[0], 0)[0], bx1 = toScreen(bounds[0] + bounds[2], 0)[0];
    g.font = "600 11px system-ui, sans-serif";
    for (const d of Array.isArray(L.detents) ? L.detents : []) {
      if (!Number.isFinite(d.y)) continue;
      const py = toScreen(0, d.y)[1];
      g.strokeStyle = d.chosen ? C.landing : C.detent; g.lineWidth = d.chosen ? 2.5 : 1.5;
      g.setLineDash(d.chosen ? [] : [8, 4]); g.beginPath(); g.moveTo(bx0, py); g.lineTo(bx1, py); g.stroke();
      g.setLineDash([]); g.lineWidth = 1;
      const text = d.name + " · " + Math.round(d.height * 10) / 10 + " pt" + (d.chosen ? " (chosen)" : "");
      const tw = g.measureText(text).width;
      tag(text, bx1 - tw - 4, py - 3, d.chosen ? C.landing : C.detent);
      out.detents.push({ name: d.name, chosen: !!d.chosen, at: [Math.round(bx1 - tw / 2 - 4), Math.round(py)] });
    }
    const t = L.target;
    if (t && point(t.center) && byId[t.item]) {
      const s = byId[t.item], [x, y] = toScreen(t.center[0], t.center[1]);
      g.save(); g.translate(x, y); shapePath(s);
      g.strokeStyle = C.landing; g.lineWidth = 2; g.setLineDash([6, 4]); g.stroke(); g.restore();
      g.setLineDash([]); g.lineWidth = 1;
      const [ax, ay] = clampToView(t.center);
      cross(ax, ay, C.landing, 6);
      out.target = [Math.round(ax), Math.round(ay)];
      // Under the outline's bottom left corner (the item's name sits at its center once it
      // lands; a sheet's projection is named at the top).
      if (t.label) {
        const [hx, hy] = halfExtents(s, 0), [lx, ly] = toScreen(t.center[0] - hx, t.center[1] + hy + 14 / scale);
        const [, top] = toScreen(0, bounds[1]), [, bottom] = toScreen(0, bounds[1] + bounds[3]);
        tag(t.label, Math.min(Math.max(lx + 2, bx0 + 4), bx1 - g.measureText(t.label).width - 4),
          Math.min(Math.max(ly - 4, top + 14), bottom - 4), C.landing);
      }
    }
    const p = L.projection;
    if (p && point(p.at)) {
      const [ax, ay] = clampToView(p.at), off = Math.round(Math.hypot(p.at[0] - toReference(ax, ay)[0],
        p.at[1] - toReference(ax, ay)[1]));
      if (Number.isFinite(p.edge) && p.width > 0) {
        const ey = toScreen(0, p.edge)[1];
        if (ey >= 0 && ey <= canvas.height) {
          g.strokeStyle = C.projection; g.lineWidth = 2; g.setLineDash([3, 3]); g.beginPath();
          g.moveTo(ax - p.width * scale / 2, ey); g.lineTo(ax + p.width * scale / 2, ey); g.stroke();
          g.setLineDash([]); g.lineWidth = 1;
        }
      }
      cross(ax, ay, C.projection, 8);
      const text = (p.label || "projection") + (off > 1 ? " (" + (p.at[1] < toReference(ax, ay)[1] ? "↑ " : "↓ ") + off + " pt)" : "");
      // Left of the cross, where it fits (a sheet's detents are named on the right).
      const tw = g.measureText(text).width, left = ax - 12 - tw >= bx0 + 2;
      tag(text, left ? ax - 12 - tw : Math.min(ax + 12, bx1 - tw - 4), ay + 5, C.projection);
      out.projection = [Math.round(ax), Math.round(ay)];
    }
    canvas.dataset.landing = JSON.stringify(out);
  }
  // A point on the bounds, or the nearest point 14 px inside them (outside them is faded).
  function clampToView(p) {
    const [x, y] = toScreen(p[0], p[1]), m = 14;
    const [x0, y0] = toScreen(bounds[0], bounds[1]), [x1, y1] = toScreen(bounds[0] + bounds[2], bounds[1] + bounds[3]);
    return [Math.min(Math.max(x, x0 + m), x1 - m), Math.min(Math.max(y, y0 + m), y1 - m)];
  }
  function cross(x, y, color, r) {
    g.strokeStyle = "#fff"; g.lineWidth = 4; g.beginPath();
    g.moveTo(x - r, y - r); g.lineTo(x + r, y + r); g.moveTo(x + r, y - r); g.lineTo(x - r, y + r); g.stroke();
    g.strokeStyle = color; g.lineWidth = 2; g.stroke(); g.lineWidth = 1;
  }
  function tag(text, px, py, color) {
    g.font = "600 11px system-ui, sans-serif"; g.textAlign = "left"; g.textBaseline = "bottom";
    g.lineJoin = "round"; g.lineWidth = 3; g.strokeStyle = "rgba(255,255,255,0.9)"; g.strokeText(text, px, py);
    g.fillStyle = color; g.fillText(text, px, py); g.lineWidth = 1;
  }
  function label(text, px, py, color) {
    g.font = "10px system-ui, sans-serif"; g.textAlign = "left"; g.textBaseline = "bottom";
    g.lineWidth = 3; g.strokeStyle = "rgba(255,255,255,0.85)"; g.strokeText(text, px, py);
    g.fillStyle = color; g.fillText(text, px, py); g.lineWidth = 1;
  }
  // ---- fields, regions, groups ----
  function point(p) {
    return Array.isArray(p) && p.length === 2 && Number.isFinite(p[0]) && Number.isFinite(p[1]) ? p : null;
  }
  function fieldsOf(d) { return Array.isArray(d.fields) ? d.fields.filter(f => f && typeof f.id === "string") : []; }
  function groupsOf(d) { return Array.isArray(d.groups) ? d.groups.filter(gr => gr && typeof gr.id === "string") : []; }
  function meetField(f) {
    if (!f || typeof f.id !== "string" || fieldColors.has(f.id)) return false;
    const FC = makeDyndStage.FIELD_COLORS;
    fieldColors.set(f.id, FC[fieldColors.size % FC.length]);
    met.fields.push({ id: f.id, kind: String(f.kind) });
    return true;
  }
  // Notes the fields, regions and groups of a debug event; true when one is new to the legend.
  function meet(d) {
    let fresh = false;
    for (const f of fieldsOf(d)) {
      if (meetField(f)) fresh = true;
      if (!met.region && makeDyndStage.drawsRegion(f.region)) met.region = fresh = true;
    }
    if (!met.group && groupsOf(d).length) met.group = fresh = true;
    return fresh;
  }
  function fieldColor(id) { return fieldColors.get(id) || makeDyndStage.FIELD_COLORS[0]; }
  // Beneath the items: each field's region (tint and outlines), then its arrows.
  function drawBeneath(d, ov) {
    for (const f of fieldsOf(d)) {
      const at = point(f.position), region = at && ov.regions ? makeDyndStage.region(f.region) : null;
      if (region) drawRegion(region, f.region, at, fieldColor(f.id));
    }
    if (ov.fields) for (const f of fieldsOf(d)) drawSamples(f.samples, fieldColor(f.id));
  }
  function drawRegion(region, raw, at, color) {
    const key = JSON.stringify(raw) + "@" + at[0] + "," + at[1];
    if (!tints.has(key)) {
      if (tints.size >= 32) tints.clear();
      tints.set(key, tintPath(region, at));
    }
    const tint = tints.get(key);
    if (tint) { g.globalAlpha = 0.14; g.fillStyle = color; g.fill(tint); g.globalAlpha = 1; }
    const [x, y] = toScreen(at[0], at[1]);
    g.strokeStyle = color; g.lineWidth = 1.25; g.setLineDash([6, 4]);
    for (const leaf of region.leaves) {
      const [w, h] = leaf.size ? leaf.size : [2 * leaf.radius, 2 * leaf.radius];
      if (!(w * scale < 1e6 && h * scale < 1e6)) continue;  // an edge nowhere near the canvas
      g.beginPath();
      if (leaf.size) g.rect(x - w / 2 * scale, y - h / 2 * scale, w * scale, h * scale);
      else g.arc(x, y, leaf.radius * scale, 0, 2 * Math.PI);
      g.stroke();
    }
    g.setLineDash([]); g.lineWidth = 1;
  }
  // The cells of the canvas whose centre the region holds, as runs along each row; null when
  // it holds none or all of them.
  function tintPath(region, at) {
    const cell = 6, path = new Path2D();
    let some = false, all = true;
    for (let py = 0; py < canvas.height; py += cell) {
      let run = -1;
      for (let px = 0; px < canvas.width + cell; px += cell) {
        const [x, y] = toReference(px + cell / 2, py + cell / 2);
        const inside = px < canvas.width && region.contains(x - at[0], y - at[1]);
        if (inside) { some = true; if (run < 0) run = px; continue; }
        if (px < canvas.width) all = false;
        if (run >= 0) { path.rect(run, py, px - run, cell); run = -1; }
      }
    }
    return some && !all ? path : null;
  }
  function drawSamples(samples, color) {
    const points = [], forces = [];
    for (const s of Array.isArray(samples) ? samples : []) {
      if (!Array.isArray(s) || s.length < 4 || !s.slice(0, 4).every(Number.isFinite)) continue;
      const m = Math.hypot(s[2], s[3]);
      if (Number.isFinite(m)) { points.push(s); forces.push(m); }
    }
    let big = 0, small = Infinity;
    for (const m of forces) if (m > 0) { big = Math.max(big, m); small = Math.min(small, m); }
    if (!(big > 0)) return;
    const log = big / small > 10;
    const longest = Math.min(80, 0.9 * gridCell(points));
    // All shafts in one path, all heads in another: one stroke and one fill per field.
    const shafts = new Path2D(), heads = new Path2D();
    points.forEach((s, i) => {
      const m = forces[i];
      if (!(m > 0)) return;
      const f = log ? Math.max(0.15, 1 + Math.log10(m / big) / 3) : m / big;
      const [px, py] = toScreen(s[0], s[1]);
      fieldArrow(shafts, heads, px, py, s[2] / m, s[3] / m, f * longest);
    });
    g.strokeStyle = color; g.fillStyle = color; g.lineWidth = 1.5;
    g.stroke(shafts); g.fill(heads); g.lineWidth = 1;
  }
  // The samples' grid cell in canvas pixels: the median distance to the nearest other
  // sample (of the first 256); 24 with a single sample.
  function gridCell(points) {
    const n = Math.min(points.length, 256), xs = new Float64Array(n), ys = new Float64Array(n);
    for (let i = 0; i < n; i++) { xs[i] = points[i][0]; ys[i] = points[i][1]; }
    const nearest = [];
    for (let i = 0; i < n; i++) {
      let best = Infinity;
      for (let j = 0; j < n; j++) {
        const dx = xs[i] - xs[j], dy = ys[i] - ys[j], d2 = dx * dx + dy * dy;
        if (d2 > 1e-18 && d2 < best) best = d2;
      }
      if (Number.isFinite(best)) nearest.push(Math.sqrt(best));
    }
    if (!nearest.length) return 24;
    nearest.sort((a, b) => a - b);
    return nearest[nearest.length >> 1] * scale;
  }
  // An arrow of `length` pixels along the unit vector (ux, uy), centred on (px, py): its
  // shaft added to `shafts`, its head to `heads`.
  function fieldArrow(shafts, heads, px, py, ux, uy, length) {
    const head = Math.min(6, 0.45 * length), side = 0.6 * head;
    const tx = px + ux * length / 2, ty = py + uy * length / 2;
    shafts.moveTo(px - ux * length / 2, py - uy * length / 2);
    shafts.lineTo(tx - ux * head, ty - uy * head);
    heads.moveTo(tx, ty);
    heads.lineTo(tx - ux * head - uy * side, ty - uy * head + ux * side);
    heads.lineTo(tx - ux * head + uy * side, ty - uy * head - ux * side); heads.closePath();
  }
  function drawGroup(gr, centers, tag) {
    const C = makeDyndStage.COLORS, c = point(gr.center), size = point(gr.size);
    if (!c || !size || size[0] < 0 || size[1] < 0) return;
    const angle = Number.isFinite(gr.angle) ? gr.angle : 0;
    for (const id of Array.isArray(gr.items) ? gr.items : []) {
      if (typeof id === "string" && centers[id]) segment(c, centers[id], C.group, 1);
    }
    const [x, y] = toScreen(c[0], c[1]), w = size[0] * scale, h = size[1] * scale;
    g.fillStyle = C.group; g.beginPath(); g.arc(x, y, 3, 0, 2 * Math.PI); g.fill();
    g.save(); g.translate(x, y); g.rotate(angle);
    g.strokeStyle = C.group; g.lineWidth = 1.5; g.setLineDash([9, 3, 2, 3]);
    g.strokeRect(-w / 2, -h / 2, w, h); g.restore();
    // Its id above the corner that is top left before the rotation.
    const cos = Math.cos(angle), sin = Math.sin(angle);
    label(gr.id + tag, x - w / 2 * cos + h / 2 * sin, y - w / 2 * sin - h / 2 * cos - 3, C.group);
  }
  // A ring and cross at the field's position, "id (short label)" beside it; `row` counts the
  // fields drawn before at the same position, whose labels this one goes above.
  function fieldMark(f, tag, row) {
    const at = point(f.position);
    if (!at) return;
    const color = fieldColor(f.id), [x, y] = toScreen(at[0], at[1]);
    const kind = makeDyndStage.FIELD_KINDS[f.kind];
    g.strokeStyle = color; g.lineWidth = 1.5; g.beginPath(); g.arc(x, y, 5, 0, 2 * Math.PI);
    g.moveTo(x - 9, y); g.lineTo(x + 9, y); g.moveTo(x, y - 9); g.lineTo(x, y + 9); g.stroke();
    g.lineWidth = 1;
    label(f.id + " (" + (kind ? kind[1] : String(f.kind)) + ")" + tag, x + 8, y - 6 - 12 * row, color);
  }

  function drawDebug(d, ov, centers, slot, tag) {
    const C = makeDyndStage.COLORS;
    if (ov.boundaries) for (const b of d.boundaries || []) {
      if (b.rect) {
        const [x, y] = toScreen(b.rect[0], b.rect[1]);
        g.setLineDash([5, 4]); g.strokeStyle = C.collisionBounds;
        g.strokeRect(x, y, b.rect[2] * scale, b.rect[3] * scale); g.setLineDash([]);
      } else if (b.points && b.points.length) {
        for (let i = 1; i < b.points.length; i++) segment(b.points[i - 1], b.points[i], C.boundary, 2.5);
        const [x, y] = toScreen(b.points[0][0], b.points[0][1]);
        if (b.id) label(b.id, x + 3, y - 3, C.boundary);
      }
    }
    if (ov.attachments) for (const a of d.attachments || []) {
      if (a.kind === "sliding") { rail(a); continue; }
      const color = a.spring ? C.spring : C.rigid;
      if (a.spring) spring(a.item_point, a.to_point, color); else segment(a.item_point, a.to_point, color, 1.5);
      const [ix, iy] = toScreen(a.item_point[0], a.item_point[1]);
      g.fillStyle = color; g.beginPath(); g.arc(ix, iy, 2.5, 0, 2 * Math.PI); g.fill();
      if (a.to === null || a.to === undefined) {
        const [x, y] = toScreen(a.to_point[0], a.to_point[1]);
        g.strokeStyle = color; g.beginPath(); g.arc(x, y, 4, 0, 2 * Math.PI); g.stroke();
      }
    }
    if (ov.snaps) for (const s of d.snaps || []) {
      const [x, y] = toScreen(s.point[0], s.point[1]);
      g.strokeStyle = C.snap; g.lineWidth = 2; g.strokeRect(x - 5, y - 5, 10, 10); g.lineWidth = 1;
    }
    if (ov.pushes) for (const p of d.pushes || []) if (p.active) for (const id of p.items) {
      if (centers[id]) arrow(...toScreen(centers[id][0], centers[id][1]), p.vector, 36, C.push);
    }
    if (ov.gravity) (d.gravity || []).forEach((gr, i) => {
      const [x, y] = toScreen(bounds[0], bounds[1]);
      const px = x + 22 + (slot * (d.gravity.length) + i) * 64, py = y + 24;
      const m = Math.hypot(gr.vector[0], gr.vector[1]);
      arrow(px, py, gr.vector, 22, C.gravity);
      label("g " + (Math.round(m * 100) / 100) + tag, px - 16, py - 10, C.gravity);
    });
    if (ov.contacts) for (const c of d.contacts || []) if (c.point) {
      const [x, y] = toScreen(c.point[0], c.point[1]);
      g.fillStyle = C.contact; g.beginPath(); g.arc(x, y, 4, 0, 2 * Math.PI); g.fill();
    }
    if (ov.groups) for (const gr of groupsOf(d)) drawGroup(gr, centers, tag);
    const rows = new Map();
    if (ov.fields) for (const f of fieldsOf(d)) {
      const key = String(f.position), row = rows.get(key) || 0;
      fieldMark(f, tag, row);
      rows.set(key, row + 1);
    }
  }

  function legend(opts) {
    opts = opts || {};
    const C = makeDyndStage.COLORS;
    const kinds = opts.kinds ? new Set(opts.kinds) : null;
    const has = key => !kinds || kinds.has(key);
    const out = [];
    if (opts.traces) opts.traces.forEach((t, i) =>
      out.push({ key: "trace-" + i, label: t.label, color: t.color, mark: "fill" }));
    else out.push({ key: "item", label: "item: translucent fill and outline, its name on it (large items fainter, beneath)",
      color: PALETTE[0], mark: "fill" });
    if (opts.dragged !== false) out.push({ key: "dragged", label: "dragged item: thick outline, drawn on top", color: "#495057", mark: "outline" });
    if (opts.finger !== false) out.push({ key: "finger", label: "finger: where the gesture touches now", color: "#343a40", mark: "ring" });
    out.push({ key: "bounds", label: "bounds (the screen); outside them is off screen, faded", color: "#343a40", mark: "bounds" });
    if (opts.zones && opts.zones.length) out.push({ key: "zone", label: "tap zone: where a tap does something (" +
      opts.zones.map(z => String(z.label).replace("\n", " ")).join(", ") + ")", color: "#495057", mark: "zone" });
    if (opts.offstage) out.push({ key: "offstage", label: "off screen: an item wholly outside the bounds, " +
      "the arrow points at it, with its distance", color: PALETTE[0], mark: "offstage" });
    const rows = [
      ["boundary", "boundaries", "boundary (a named line or path)", C.boundary, "line"],
      ["collision-bounds", "boundaries", "bounds as a collision boundary (after insets)", C.collisionBounds, "dash"],
      ["rigid", "attachments", "attachment, rigid (dot: its point on the item; ring: an anchor)", C.rigid, "line"],
      ["spring", "attachments", "attachment, spring", C.spring, "spring"],
      ["rail", "attachments", "attachment, sliding: the rail its item runs on (square: its point on the item)", C.rail, "rail"],
      ["snap", "snaps", "snap point", C.snap, "square"],
      ["push", "pushes", "push, active (its direction)", C.push, "arrow"],
      ["gravity", "gravity", "gravity (its direction; g: magnitude, × 1000 pt/s²)", C.gravity, "arrow"],
      ["contact", "contacts", "contact: where a touching pair met", C.contact, "dot"],
    ];
    for (const [key, overlay, text, color, mark] of rows)
      if (has(key)) out.push({ key, overlay, label: text, color, mark });
    if (met.fields.length && has("field")) {
      out.push({ key: "field", overlay: "fields", label: "field arrows: the force on a still probe " +
        "(mass 1, charge 1); longest ≈ the samples' spacing, log scale when forces span over 10×",
        color: "#495057", mark: "arrow" });
      for (const f of met.fields) {
        const kind = makeDyndStage.FIELD_KINDS[f.kind];
        out.push({ key: "field-" + f.id, overlay: "fields", color: fieldColor(f.id), mark: "arrow",
          label: "field " + f.id + ": " + (kind ? kind[0] : f.kind) });
      }
    }
    if (opts.landing) {
      out.push({ key: "detent", label: "detent: a height the sheet rests at (its top edge there), named; solid: the one chosen", color: C.detent, mark: "dash" });
      out.push({ key: "projection", label: "projection: where the release would coast to (the item's center; dotted: its edge)", color: C.projection, mark: "cross" });
      out.push({ key: "landing", label: "landing: where the spring or decay brings the item to rest (dashed outline)", color: C.landing, mark: "landing" });
    }
    if (kinds ? kinds.has("region") : met.region)
      out.push({ key: "region", overlay: "regions", label: "region: where its field acts, tinted " +
        "in the field's colour; dashed: its circles and rectangles", color: "#495057", mark: "region" });
    if (kinds ? kinds.has("group") : met.group)
      out.push({ key: "group", overlay: "groups", label: "group: items moving as one body " +
        "(its rectangle and id; lines to its members)", color: makeDyndStage.COLORS.group, mark: "group" });
    return out;
  }
  function legendElement(opts) {
    opts = opts || {};
    const list = document.createElement("ul");
    list.className = "dynd-legend";
    list.style.cssText = "list-style:none;margin:0;padding:0;font:12px system-ui,sans-serif";
    fillLegend(list, opts);
    liveLegends.push({ list, opts });
    return list;
  }
  function fillLegend(list, opts) {
    list.textContent = "";
    const toggled = {};
    for (const entry of legend(opts)) {
      const li = document.createElement("li");
      li.dataset.key = entry.key;
      li.style.cssText = "display:flex;align-items:center;gap:6px;margin:3px 0";
      if (opts.toggles && entry.overlay && !(entry.overlay in toggled)) {
        const box = document.createElement("input");
        box.type = "checkbox"; box.checked = opts.toggles[entry.overlay] !== false;
        box.dataset.overlay = entry.overlay;
        box.onchange = () => opts.onToggle && opts.onToggle(entry.overlay, box.checked);
        toggled[entry.overlay] = box;
        li.appendChild(box);
      } else if (opts.toggles) {
        const gap = document.createElement("span"); gap.style.cssText = "display:inline-block;width:13px";
        li.appendChild(gap);
      }
      const sw = document.createElement("canvas");
      sw.width = 26; sw.height = 14; swatch(sw.getContext("2d"), entry);
      li.appendChild(sw);
      const text = document.createElement("span"); text.textContent = entry.label;
      li.appendChild(text);
      list.appendChild(li);
    }
  }
  function swatch(c, e) {
    c.strokeStyle = e.color; c.fillStyle = e.color; c.lineWidth = 2;
    c.beginPath();
    switch (e.mark) {
      case "fill": c.globalAlpha = 0.4; c.fillRect(2, 2, 22, 10); c.globalAlpha = 1; c.lineWidth = 1.5; c.strokeRect(2, 2, 22, 10); break;
      case "outline": c.lineWidth = 3.5; c.strokeRect(3, 3, 20, 8); break;
      case "ring": c.arc(13, 7, 5, 0, 2 * Math.PI); c.stroke(); break;
      case "bounds": c.fillStyle = "#e9ecef"; c.fillRect(0, 0, 26, 14); c.fillStyle = "#f8f9fa"; c.fillRect(4, 2, 18, 10); c.lineWidth = 1.5; c.strokeRect(4, 2, 18, 10); break;
      case "dash": c.setLineDash([4, 3]); c.lineWidth = 1; c.moveTo(1, 7); c.lineTo(25, 7); c.stroke(); break;
      case "spring": c.lineWidth = 1; c.moveTo(1, 7); for (let i = 1; i < 8; i++) c.lineTo(1 + i * 3, i % 2 ? 3 : 11); c.lineTo(25, 7); c.stroke(); break;
      case "square": c.strokeRect(8, 2, 10, 10); break;
      case "arrow": c.moveTo(2, 7); c.lineTo(18, 7); c.stroke(); c.beginPath(); c.moveTo(25, 7); c.lineTo(17, 2); c.lineTo(17, 12); c.fill(); break;
      case "dot": c.arc(13, 7, 4, 0, 2 * Math.PI); c.fill(); break;
      case "region": c.globalAlpha = 0.2; c.fillRect(2, 2, 22, 10); c.globalAlpha = 1; c.lineWidth = 1; c.setLineDash([4, 3]); c.strokeRect(2, 2, 22, 10); break;
      case "zone": c.fillStyle = "rgba(134,142,150,0.16)"; c.fillRect(4, 2, 18, 10); c.lineWidth = 1.5; c.setLineDash([2, 3]); c.strokeRect(4, 2, 18, 10); break;
      case "offstage": c.moveTo(13, 1); c.lineTo(22, 12); c.lineTo(4, 12); c.closePath(); c.fill(); break;
      case "group": c.lineWidth = 1.5; c.setLineDash([6, 2, 2, 2]); c.strokeRect(2, 2, 22, 10); break;
      case "rail": c.lineWidth = 1; c.moveTo(1, 5); c.lineTo(25, 5); c.moveTo(1, 10); c.lineTo(25, 10); c.stroke(); c.fillRect(9, 4, 7, 7); break;
      case "cross": c.moveTo(8, 2); c.lineTo(18, 12); c.moveTo(18, 2); c.lineTo(8, 12); c.stroke(); break;
      case "landing": c.setLineDash([4, 3]); c.lineWidth = 2; c.strokeRect(3, 2, 20, 10); break;
      default: c.moveTo(1, 7); c.lineTo(25, 7); c.stroke();
    }
  }

  return { canvas, scale, view, toScreen, toReference, fromEvent, draw, clear, layer, finish,
    legend, legendElement, fieldColor };
}
makeDyndStage.PALETTE = ["#e8590c", "#1c7ed6", "#2f9e44", "#ae3ec9", "#f08c00", "#0c8599"];
makeDyndStage.OVERLAYS = ["boundaries", "attachments", "snaps", "pushes", "gravity", "contacts",
  "fields", "regions", "groups"];
makeDyndStage.COLORS = { boundary: "#212529", collisionBounds: "#495057", rigid: "#1864ab",
  spring: "#c92a2a", snap: "#2b8a3e", push: "#f08c00", gravity: "#5f3dc4", contact: "#e03131",
  group: "#087f5b", rail: "#1864ab", detent: "#495057", projection: "#c2255c", landing: "#2b8a3e" };
// Fields' colours: none of the items' nor the other overlays'.
makeDyndStage.FIELD_COLORS = ["#d6336c", "#66a80f", "#3b5bdb", "#9c6644", "#15aabf"];
makeDyndStage.FIELD_KINDS = { linear_gravity: ["linear gravity", "lin g"],
  radial_gravity: ["radial gravity", "radial g"], drag: ["drag", "drag"], velocity: ["velocity", "vel"],
  noise: ["noise", "noise"], turbulence: ["turbulence", "turb"], spring: ["spring", "spring"],
  electric: ["electric", "elec"], magnetic: ["magnetic", "mag"], vortex: ["vortex", "vortex"] };
makeDyndStage.region = function (r) {
  const leaves = [];
  function compile(r, depth) {
    if (!r || typeof r !== "object" || Array.isArray(r) || depth > 32) return null;
    if (r.infinite === true) return () => true;
    if ("radius" in r) {
      const q = r.radius;
      if (!(Number.isFinite(q) && q >= 0)) return null;
      leaves.push({ radius: q });
      return (x, y) => x * x + y * y <= q * q;
    }
    if ("size" in r) {
      const s = r.size;
      if (!Array.isArray(s) || s.length !== 2 || !s.every(v => Number.isFinite(v) && v >= 0)) return null;
      leaves.push({ size: [s[0], s[1]] });
      return (x, y) => Math.abs(x) <= s[0] / 2 && Math.abs(y) <= s[1] / 2;
    }
    if ("inverse" in r) {
      const a = compile(r.inverse, depth + 1);
      return a && ((x, y) => !a(x, y));
    }
    for (const op of ["union", "intersection", "difference"]) if (op in r) {
      const pair = r[op];
      if (!Array.isArray(pair) || pair.length !== 2) return null;
      const a = compile(pair[0], depth + 1), b = compile(pair[1], depth + 1);
      if (!a || !b) return null;
      if (op === "union") return (x, y) => a(x, y) || b(x, y);
      if (op === "intersection") return (x, y) => a(x, y) && b(x, y);
      return (x, y) => a(x, y) && !b(x, y);
    }
    return null;
  }
  const contains = compile(r, 0);
  return contains ? { contains, leaves } : null;
};
// Whether a region has something to draw: a circle or a rectangle to outline.
makeDyndStage.drawsRegion = function (r) {
  const region = makeDyndStage.region(r);
  return !!region && region.leaves.length > 0;
};
// Where a transition answers a tap (PROTOCOL.md section 11): lock-screen's camera grabber,
// the grabber_size square at the screen's bottom-right corner.
makeDyndStage.tapZones = function (transition, params) {
  if (transition !== "lock-screen") return [];
  const size = params && Number.isFinite(params.grabber_size) ? params.grabber_size : 80;
  return [{ item: "screen", corner: [1, 1], size: [size, size], label: "camera grabber\n(tap)" }];
};
makeDyndStage.fillAlpha = function (size, bounds) {
  return size.w * size.h >= 0.5 * bounds[2] * bounds[3] ? 0.2 : 0.4;
};
makeDyndStage.kindsIn = function (debugs) {
  const kinds = new Set();
  for (const d of debugs) if (d) {
    for (const b of d.boundaries || []) kinds.add(b.rect ? "collision-bounds" : "boundary");
    for (const a of d.attachments || []) kinds.add(a.kind === "sliding" ? "rail" : a.spring ? "spring" : "rigid");
    if ((d.snaps || []).length) kinds.add("snap");
    if ((d.pushes || []).some(p => p.active)) kinds.add("push");
    if ((d.gravity || []).length) kinds.add("gravity");
    if ((d.contacts || []).some(c => c.point)) kinds.add("contact");
    const fields = Array.isArray(d.fields) ? d.fields.filter(f => f && typeof f.id === "string") : [];
    if (fields.length) kinds.add("field");
    if (fields.some(f => makeDyndStage.drawsRegion(f.region))) kinds.add("region");
    if (Array.isArray(d.groups) && d.groups.some(gr => gr && typeof gr.id === "string")) kinds.add("group");
  }
  return kinds;
};
makeDyndStage.fieldsIn = function (debugs) {
  const seen = new Map();
  for (const d of debugs) if (d && Array.isArray(d.fields)) for (const f of d.fields) {
    if (f && typeof f.id === "string" && !seen.has(f.id)) seen.set(f.id, { id: f.id, kind: String(f.kind) });
  }
  return Array.from(seen.values());
};
