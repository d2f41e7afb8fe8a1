import Primitives
import Wire

/// What `dynctl handoff` checks besides the velocity when the handoff names a detent (`sheet`):
/// the projection is the scroll view's, the detent is the one nearest to it, and the item comes
/// to rest on it with `done` naming it.
///
/// The detents are read from the session's parameters: each number parameter `NAME_detent` is
/// the detent NAME, the height of the item shown above the bounds' bottom edge (PROTOCOL.md,
/// “sheet”).
struct DetentCheck {
  /// The wire's rounding of positions and velocities (0.001), carried through the projection's
  /// 0.4995 s: what a projection recomputed from the reported numbers may differ by.
  static let projectionSlack = 0.003
  /// The wire's rounding of a position, and the landing's tolerance.
  static let landingSlack = 0.0011

  let detent: String
  let projection: Point
  /// The item's center at the release (`get`, before any step).
  let release: Point
  let decelerationRate: Double
  /// Each detent and the item's center y resting on it, lowest detent first.
  let detents: [(name: String, centerY: Double)]

  /// Reads the session at the release; nil when the handoff names no detent (not a sheet).
  static func atRelease(_ h: HandoffReport, session: String, _ client: DaemonClient)
    throws(Failure) -> DetentCheck?
  {
    guard let detent = h.detent, let projection = h.projection else { return nil }
    let reply = try client.request(.get(session: session), quietReply: true)
    guard case .get(_, _, let items, let details) = reply,
      let item = items.first(where: { $0.id == h.item }), let bounds = details.bounds,
      let params = details.params, case .number(let rate)? = params["deceleration_rate"]
    else { throw .verdictWritten("FAIL: the session does not tell its detents (get)") }
    var detents: [(name: String, centerY: Double)] = []
    for entry in params.entries where entry.name.hasSuffix("_detent") {
      guard case .number(let height) = entry.value else { continue }
      let centerY = bounds.maxY - height + item.size.height / 2
      detents.append((String(entry.name.dropLast("_detent".count)), centerY))
    }
    return DetentCheck(
      detent: detent, projection: projection, release: item.center, decelerationRate: rate,
      detents: detents.sorted { $0.centerY > $1.centerY })
  }

  /// The release: the projection is where UIScrollView's deceleration at the session's
  /// `deceleration_rate` stops the item (`DecayMotion`) from its center and velocity at the
  /// release, and the detent named is the nearest to it. Returns the failures.
  func checkRelease(_ h: HandoffReport, _ output: Output) -> [String] {
    var failures: [String] = []
    let velocity = Vector(dx: h.itemVelocity.0, dy: h.itemVelocity.1)
    let coast = DecayMotion(
      .scrollView(decelerationRate: decelerationRate), from: release, velocity: velocity)
    let expected = (coast.restingPoint.x, coast.restingPoint.y)
    let gap = distance(expected, (projection.x, projection.y))
    output.note(
      "  projection \(pair((projection.x, projection.y))): UIScrollView's deceleration "
        + "(rate \(format(decelerationRate)) per ms) from \(pair((release.x, release.y))) at the "
        + "item velocity stops at \(pair(expected)), off by \(format(gap)) pt")
    if gap > Self.projectionSlack {
      failures.append("the projection is not the scroll view's (off by \(format(gap)) pt)")
    }
    for (name, y) in detents {
      output.note(
        "  detent \(name): center y \(format(y)), \(format(abs(y - projection.y))) pt away")
    }
    let nearest = detents.min { abs($0.centerY - projection.y) < abs($1.centerY - projection.y) }
    output.note("  detent chosen: \(detent); nearest to the projection: \(nearest?.name ?? "none")")
    if let s = h.spring {
      output.note(
        "  spring to \(detent): mass \(format(s.mass)), stiffness \(format(s.stiffness)), damping "
          + "\(format(s.damping)) (damping ratio \(format(s.dampingRatio)), response "
          + "\(format(s.response)) s, bounce \(format(s.bounce))), from the item velocity")
    }
    if nearest?.name != detent {
      failures.append(
        "the sheet went to \(detent), not to \(nearest?.name ?? "a detent"), the nearest")
    }
    return failures
  }

  /// Steps the session until `done` (at most `limit` seconds) and checks that it names the
  /// detent and that the item rests on it. Returns the failures.
  func checkLanding(item: String, session: String, _ client: DaemonClient, limit: Double = 20)
    throws(Failure) -> [String]
  {
    var outcome: String?
    var frames = 0
    while outcome == nil, frames < Int(limit * 60) {
      try client.request(.step(StepRequest(session: session, count: 60)), quietReply: true) {
        event in
        if case .event(.done(_, let o, _)) = event.content, outcome == nil { outcome = o }
      }
      frames += 60
    }
    guard let outcome else { return ["no done within \(format(limit)) s of the release"] }
    let reply = try client.request(.get(session: session), quietReply: true)
    guard case .get(_, _, let items, _) = reply, let state = items.first(where: { $0.id == item }),
      let target = detents.first(where: { $0.name == detent })
    else { return ["the item \(item) is gone after done"] }
    let gap = abs(state.center.y - target.centerY)
    client.output.note(
      "  done \(outcome); at rest at center y \(format(state.center.y)), \(format(gap)) pt from "
        + "\(detent)'s \(format(target.centerY)), velocity "
        + pair((state.velocity.dx, state.velocity.dy)))
    var failures: [String] = []
    if outcome != detent { failures.append("done says \(outcome), not \(detent)") }
    if gap > Self.landingSlack { failures.append("it rests \(format(gap)) pt off \(detent)") }
    return failures
  }
}
