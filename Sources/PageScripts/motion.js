/* exported dyndMotion */
/* dyndMotion: springs and decays as dynd computes them (Sources/Primitives/Motion), for the
   pages: a spring's five parameter sets, its constants in every platform's terms, and the
   closed forms of a spring and of a decay. Written once, here; both pages include it, and
   their browser tests check it against what dynd reports (`behaviors`, the `handoff` event's
   `spring` and `projection`, the frames after a release).

   dyndMotion.SPRING_SETS: [{key, fields, label}], the five sets `spring` and `set_behavior`
     take (PROTOCOL.md §6, Springs), in the order of the protocol's table.
   dyndMotion.springSetOf(fields) → the key of the set whose fields `fields` holds, or null.
   dyndMotion.springFrom(key, values) → {mass, stiffness, damping}: the set converted as its
     platform does (SpringParameters' constructors).
   dyndMotion.springValues(spring) → every value of the spring: mass, stiffness, damping,
     damping_ratio, response, duration, bounce (SpringParameters' derived values), tension and
     friction (Origami's, Rebound's OrigamiValueConverter inverted, for the same motion at
     mass 1).
   dyndMotion.springSetValues(key, spring) → {field: value} of the set `key` that gives this
     spring's motion (each rounded to 6 decimals, as dynd reports numbers).
   dyndMotion.platformLines(spring) → [{platform, line}]: copy-ready lines for SwiftUI,
     Android, Flutter and Origami with this spring's motion.
   dyndMotion.springState(spring, x0, v0, t) → [x, v]: displacement from the target and
     velocity, t seconds after displacement x0 and velocity v0 (SpringSolution).
   dyndMotion.decayOf(model) → {field, value, rate (λ, 1/s), stopSpeed (pt/s), name} for a
     `decay` object ({deceleration_rate} | {friction} | {drag}), or null (DecayModel).
   dyndMotion.decayState(decay, v0, t) → [x, v]: displacement from the start and velocity, held
     at rest once the speed passes under the stop speed.
   dyndMotion.decayRest(decay, v0) → the displacement where it comes to rest.
   dyndMotion.number(v, decimals) → v rounded to `decimals` (6) with no trailing zeros, as text.
   dyndMotion.detents(params, bounds) → [{name, height, y}], lowest first: each number
     parameter NAME_detent (a sheet's), the height shown above the bounds' bottom edge, and
     the y of the item's top edge there.
   dyndMotion.landing(handoff, {center, bounds, params, size}) → where a release goes, from a
     `handoff` event with `spring` or `decay` and the item's center at the release (`size`: the
     item's [w, h]), or null: {kind ("spring" | "decay"), spring, decay, projection, detent,
     target (the center it comes to rest at), at(t) (the closed form's center t s after the
     release), stop (s after the release the decay stops; null for a spring), rows
     ([[field, heading, text]]: the projection, the landing, the motion's constants), lines
     (platformLines of the spring, [] for a decay), stage (makeDyndStage's `landing`)}. */
const dyndMotion = (() => {
  "use strict";
  const SPRING_SETS = [
    { key: "response", fields: ["response", "damping_ratio"], label: "response + damping ratio (SwiftUI)" },
    { key: "duration", fields: ["duration", "bounce"], label: "duration + bounce (SwiftUI, Flutter)" },
    { key: "stiffness_ratio", fields: ["stiffness", "damping_ratio", "mass"],
      label: "stiffness + damping ratio (Android, libadwaita)" },
    { key: "stiffness_damping", fields: ["stiffness", "damping", "mass"],
      label: "stiffness + damping (Flutter SpringDescription)" },
    { key: "origami", fields: ["tension", "friction"], label: "tension + friction (Origami)" },
  ];
  const number = (v, decimals) => {
    const d = decimals === undefined ? 6 : decimals, f = Math.pow(10, d);
    const r = Math.round(v * f) / f;
    return String(r === 0 ? 0 : r);
  };
  const round6 = v => Number(number(v, 6));
  // k = m·(2π / period)²
  const stiffnessOf = (period, mass) => mass * Math.pow(2 * Math.PI / period, 2);
  const withRatio = (k, ratio, m) => ({ mass: m, stiffness: k, damping: 2 * ratio * Math.sqrt(m * k) });

  function springSetOf(fields) {
    const has = name => fields && fields[name] !== undefined && fields[name] !== null;
    if (has("tension") || has("friction")) return "origami";
    if (has("duration") || has("bounce")) return "duration";
    if (has("response")) return "response";
    if (has("stiffness") && has("damping")) return "stiffness_damping";
    if (has("stiffness")) return "stiffness_ratio";
    return null;
  }
  function springFrom(key, v) {
    const m = v.mass === undefined || v.mass === null ? 1 : v.mass;
    switch (key) {
      case "response": return withRatio(stiffnessOf(v.response, 1), v.damping_ratio, 1);
      case "duration":
        return withRatio(stiffnessOf(v.duration, 1), v.bounce > 0 ? 1 - v.bounce : 1 / (1 + v.bounce), 1);
      case "stiffness_ratio": return withRatio(v.stiffness, v.damping_ratio, m);
      case "stiffness_damping": return { mass: m, stiffness: v.stiffness, damping: v.damping };
      case "origami":
        return { mass: 1, stiffness: v.tension === 0 ? 0 : (v.tension - 30) * 3.62 + 194,
          damping: v.friction === 0 ? 0 : (v.friction - 8) * 3 + 25 };
      default: throw new Error("no spring parameter set '" + key + "'");
    }
  }
  function springValues(s) {
    const ratio = s.damping / (2 * Math.sqrt(s.mass * s.stiffness));
    const response = 2 * Math.PI * Math.sqrt(s.mass / s.stiffness);
    // The same motion at mass 1 (what Origami and Android describe): k/m and c/m.
    const k1 = s.stiffness / s.mass, c1 = s.damping / s.mass;
    return { mass: s.mass, stiffness: s.stiffness, damping: s.damping, damping_ratio: ratio,
      response, duration: response, bounce: ratio < 1 ? 1 - ratio : 1 / ratio - 1,
      tension: (k1 - 194) / 3.62 + 30, friction: (c1 - 25) / 3 + 8 };
  }
  function springSetValues(key, spring) {
    const all = springValues(spring), set = SPRING_SETS.find(s => s.key === key), out = {};
    for (const field of set.fields) out[field] = round6(all[field]);
    return out;
  }
  function platformLines(spring) {
    const v = springValues(spring), n = x => number(x, 6);
    const android = "SpringForce().setStiffness(" + n(spring.stiffness / spring.mass) + "f).setDampingRatio(" +
      n(v.damping_ratio) + "f)";
    const origami = v.tension > 0 && v.friction > 0 ? "tension " + n(v.tension) + ", friction " + n(v.friction)
      : "no Origami spring: tension " + n(v.tension) + ", friction " + n(v.friction) + " (both must be above 0)";
    return [
      { platform: "SwiftUI", line: "Spring(duration: " + n(v.duration) + ", bounce: " + n(v.bounce) + ")" },
      { platform: "Android", line: android },
      { platform: "Flutter", line: "SpringDescription(mass: " + n(spring.mass) + ", stiffness: " +
        n(spring.stiffness) + ", damping: " + n(spring.damping) + ")" },
      { platform: "Origami", line: origami },
    ];
  }
  /* SpringSolution: x(t) = C·x₀ + S·(v₀ + σx₀), v(t) = C·v₀ − S·(σv₀ + ω₀²x₀). */
  function springState(s, x0, v0, t) {
    const sigma = s.damping / (2 * s.mass), w0sq = s.stiffness / s.mass, w0 = Math.sqrt(w0sq);
    const difference = (w0 - sigma) * (w0 + sigma), omega = Math.sqrt(Math.abs(difference));
    let c, sn;
    if (difference > 0) {
      const e = Math.exp(-sigma * t);
      c = e * Math.cos(omega * t); sn = e * Math.sin(omega * t) / omega;
    } else if (difference < 0) {
      const slow = w0sq / (sigma + omega), fast = sigma + omega, slowDecay = Math.exp(-slow * t);
      c = (slowDecay + Math.exp(-fast * t)) / 2; sn = slowDecay * -Math.expm1(-2 * omega * t) / (2 * omega);
    } else {
      const e = Math.exp(-sigma * t);
      c = e; sn = e * t;
    }
    return [c * x0 + sn * (v0 + sigma * x0), c * v0 - sn * (sigma * v0 + w0sq * x0)];
  }
  /* DecayModel: λ and the stop speed of each platform. */
  function decayOf(model) {
    if (!model || typeof model !== "object") return null;
    if (typeof model.deceleration_rate === "number") {
      const rate = -1000 * Math.log(model.deceleration_rate);
      return { field: "deceleration_rate", value: model.deceleration_rate, rate, stopSpeed: 0.5 * rate,
        name: "UIScrollView decelerationRate" };
    }
    if (typeof model.friction === "number")
      return { field: "friction", value: model.friction, rate: 4.2 * model.friction, stopSpeed: 46.875,
        name: "Android FlingAnimation friction" };
    if (typeof model.drag === "number")
      return { field: "drag", value: model.drag, rate: -Math.log(model.drag), stopSpeed: 1e-3,
        name: "Flutter FrictionSimulation drag" };
    return null;
  }
  function decayRest(d, v0) {
    const speed = Math.abs(v0);
    return speed > d.stopSpeed ? (speed - d.stopSpeed) / d.rate * Math.sign(v0) : 0;
  }
  function decayState(d, v0, t) {
    const speed = Math.abs(v0), stop = speed > d.stopSpeed ? Math.log(speed / d.stopSpeed) / d.rate : 0;
    if (t >= stop) return [decayRest(d, v0), 0];
    const e = Math.exp(-d.rate * t);
    return [v0 * -Math.expm1(-d.rate * t) / d.rate, v0 * e];
  }
  function detents(params, bounds) {
    const out = [];
    for (const [k, v] of Object.entries(params || {})) {
      const m = /^(.+)_detent$/.exec(k);
      if (m && typeof v === "number" && Number.isFinite(v)) out.push({ name: m[1], height: v, y: bounds[1] + bounds[3] - v });
    }
    return out.sort((a, b) => a.height - b.height);
  }
  function landing(h, o) {
    if (!h || !Array.isArray(h.item_velocity) || !Array.isArray(o.center)) return null;
    const v0 = h.item_velocity, c0 = o.center, bounds = o.bounds, pt = p => "(" + number(p[0], 3) + ", " + number(p[1], 3) + ")";
    const all = detents(o.params, bounds), rows = [];
    const chosen = h.detent ? all.find(d => d.name === h.detent) : null;
    const decay = decayOf(h.decay);
    const spring = h.spring && h.spring.stiffness > 0 && h.spring.mass > 0
      ? { mass: h.spring.mass, stiffness: h.spring.stiffness, damping: h.spring.damping } : null;
    let target, at, stop = null, kind;
    if (spring) {
      kind = "spring";
      // A sheet's spring takes its center to the detent (Sheet.center(showing:)); another
      // spring (a document's release rule) to the projection.
      target = chosen ? [c0[0], bounds[1] + bounds[3] - chosen.height + bounds[3] / 2]
        : Array.isArray(h.projection) ? h.projection.slice() : null;
      if (!target) return null;
      at = t => [0, 1].map(i => target[i] + springState(spring, c0[i] - target[i], v0[i], t)[0]);
    } else if (decay) {
      kind = "decay";
      // dynd's own resting point when the handoff gives it (`projection`).
      target = Array.isArray(h.projection) ? h.projection.slice() : [0, 1].map(i => c0[i] + decayRest(decay, v0[i]));
      at = t => [0, 1].map(i => c0[i] + decayState(decay, v0[i], t)[0]);
      stop = Math.max(...v0.map(v => Math.abs(v) > decay.stopSpeed ? Math.log(Math.abs(v) / decay.stopSpeed) / decay.rate : 0));
    } else return null;
    const rate = o.params && typeof o.params.deceleration_rate === "number" ? o.params.deceleration_rate : null;
    if (Array.isArray(h.projection)) rows.push(["projection", "Projection", pt(h.projection) +
      (chosen ? ": the center where the release would coast" + (rate !== null ? " (UIScrollView, deceleration rate " + rate + " per ms)" : "") +
        ", showing " + number(bounds[1] + bounds[3] + bounds[3] / 2 - h.projection[1], 3) + " pt"
        : decay ? ": where the decay stops the center" : ": the spring's target")]);
    rows.push(["landing", "Landing", (chosen ? "detent " + chosen.name + " (" + number(chosen.height, 3) + " pt shown): center "
      : h.detent ? "detent " + h.detent + ": center " : "center ") + pt(target) +
      (stop !== null ? ", at rest " + number(stop, 3) + " s after the release" : "")]);
    if (spring) {
      const v = springValues(spring);
      rows.push(["motion", "Spring", "mass " + number(v.mass) + ", stiffness " + number(v.stiffness) + ", damping " +
        number(v.damping) + "; damping ratio " + number(v.damping_ratio) + ", response " + number(v.response) +
        " s, duration " + number(v.duration) + " s, bounce " + number(v.bounce)]);
    } else {
      rows.push(["motion", "Decay", decay.name + " " + decay.value + ": λ " + number(decay.rate) + " /s, stops under " +
        number(decay.stopSpeed) + " pt/s; v(t) = v₀·e^(−λt)"]);
    }
    const size = Array.isArray(o.size) ? o.size : [0, 0];
    const stage = {
      detents: all.map(d => Object.assign({ chosen: !!chosen && d.name === chosen.name }, d)),
      projection: Array.isArray(h.projection) && (chosen || !decay) ? { at: h.projection.slice(),
        edge: chosen ? h.projection[1] - size[1] / 2 : null, width: size[0], label: "projection" } : null,
      target: { item: h.item, center: target, label: "landing" + (chosen ? ": " + chosen.name : "") },
    };
    if (decay && Array.isArray(h.projection)) stage.target.label = "landing = projection";
    return { kind, spring, decay, projection: h.projection || null, detent: h.detent || null, target, at, stop,
      rows, lines: spring ? platformLines(spring) : [], stage };
  }
  return { SPRING_SETS, springSetOf, detents, landing, springFrom, springValues, springSetValues, platformLines,
    springState, decayOf, decayState, decayRest, number };
})();
