/* global DYND_ESTIMATOR */
/* exported makeDyndFingerVelocity */
/* makeDyndFingerVelocity() → {record(phase, x, y, t), velocity() → [vx, vy]}: Android's
   lsq2 and Flutter's VelocityTracker, as dynd's GestureTracker runs them. Samples are the
   began and changed points; a gap over 40 ms forgets what came before; the newest 20 of the
   last 100 ms are fitted per axis by a least-squares parabola (a line with two samples)
   whose slope at the newest sample is the velocity; ended adds no sample, and a lift-off
   more than 40 ms after the newest sample gives zero. */
function makeDyndFingerVelocity() {
  "use strict";
  // Swift's constants (VelocityEstimator), given to the page before this script.
  const HORIZON = DYND_ESTIMATOR.horizon, HISTORY = DYND_ESTIMATOR.history_size;
  const STOPPED = DYND_ESTIMATOR.stopped_after, SLACK = DYND_ESTIMATOR.slack;
  let moves = [], liftOff = null;
  function record(phase, x, y, t) {
    if (phase === "began") { moves = []; liftOff = null; }
    if (phase === "ended") { liftOff = t; return; }
    if (phase !== "began" && phase !== "changed") return;
    liftOff = null;
    const newest = moves[moves.length - 1];
    if (newest) {
      if (t < newest.t) return;
      if (t === newest.t) moves.pop();
      else if (t - newest.t > STOPPED + SLACK) moves = [];
    }
    moves.push({ t, x, y });
    moves = moves.filter(s => s.t >= t - HORIZON - SLACK).slice(-HISTORY);
  }
  function velocity() {
    const newest = moves[moves.length - 1];
    if (!newest || moves.length < 2) return [0, 0];
    if (liftOff !== null && liftOff - newest.t > STOPPED + SLACK) return [0, 0];
    const times = moves.map(s => s.t - newest.t);
    const slopes = slopesAtZero(times, [moves.map(s => s.x - newest.x), moves.map(s => s.y - newest.y)],
      Math.min(2, moves.length - 1));
    return slopes || [0, 0];
  }
  // Least squares by modified Gram–Schmidt, as PolynomialFit.slopesAtZero.
  function slopesAtZero(times, series, degree) {
    const m = times.length, n = degree + 1, dot = (u, v) => u.reduce((s, a, i) => s + a * v[i], 0);
    const a = [times.map(() => 1)];
    for (let j = 1; j < n; j++) a.push(a[j - 1].map((v, h) => v * times[h]));
    const q = [], r = Array.from({ length: n }, () => new Array(n).fill(0));
    for (let j = 0; j < n; j++) {
      const v = a[j].slice();
      for (let i = 0; i < j; i++) {
        const p = dot(q[i], v);
        r[i][j] = p;
        for (let h = 0; h < m; h++) v[h] -= p * q[i][h];
      }
      const length = Math.sqrt(dot(v, v));
      if (!(length > DYND_ESTIMATOR.dependence * Math.sqrt(dot(a[j], a[j]))) || !Number.isFinite(length)) return null;
      r[j][j] = length;
      q.push(v.map(x => x / length));
    }
    return series.map(y => {
      const c = new Array(n).fill(0);
      for (let i = n - 1; i >= 0; i--) {
        let sum = dot(q[i], y);
        for (let k = i + 1; k < n; k++) sum -= r[i][k] * c[k];
        c[i] = sum / r[i][i];
      }
      return c[1];
    });
  }
  return { record, velocity };
}
