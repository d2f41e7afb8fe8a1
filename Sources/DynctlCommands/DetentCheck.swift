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
  /// How far a frame may be from the spring's closed form: the wire's rounding of the frame
  /// (0.001) and of the release's position and velocity it starts from, and the engine's 32-bit
  /// positions (2⁻¹⁴ pt near 1 000 pt).
  static let springSlack = 0.005

  let detent: String
  let projection: Point
  /// The item's center at the release (`get`, before any step), and the session's time then.
  let release: Point
  let releaseTime: Double
  let decelerationRate: Double
  /// Each detent and the item's center y resting on it, lowest detent first.
  let detents: [(name: String, centerY: Double)]

  /// Reads the session at the release; nil when the handoff names no detent (not a sheet).
  static func atRelease(_ h: HandoffReport, session: String, _ client: DaemonClient)
    throws(Failure) -> DetentCheck?
  {
    guard let detent = h.detent, let projection = h.projection else { return nil }
    let reply = try client.request(Op(GetRequest(session: session)), quietReply: true)
    guard case .get(let t, _, let items, let details) = reply,
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
      detent: detent, projection: projection, release: item.center, releaseTime: t,
      decelerationRate: rate,
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

  /// Steps the session until `done` (at most `limit` seconds) and checks that every frame on the
  /// way is the handoff's spring's closed form from the release (position and item velocity
  /// then) to the detent, that `done` names the detent, and that the item rests on it. Frame k
  /// after the release is k/60 s after it (manual clock, 60 fps). Returns the failures, and
  /// whether frames were measured against the spring (the motion after the release verified).
  func checkLanding(
    _ h: HandoffReport, session: String, _ client: DaemonClient, limit: Double = 20
  ) throws(Failure) -> (failures: [String], verified: Bool) {
    guard let target = detents.first(where: { $0.name == detent }) else {
      return (["the session has no detent \(detent)"], false)
    }
    // The spring's closed form toward the detent, followed as any named spring's.
    let landing: FollowedLanding
    var failures: [String] = []
    var verified = false
    if let spring = h.spring {
      let check = SpringCheck(
        spring: spring, target: Point(x: release.x, y: target.centerY), release: release,
        releaseTime: releaseTime)
      let followed = try check.follow(h, session: session, client, limit: limit, toward: false)
      (landing, failures, verified) = (followed.landing, followed.failures, followed.verified)
    } else {
      landing = try FollowedLanding.follow(
        h.item, session: session, releaseTime: releaseTime, limit: limit, closedForm: nil, client)
    }
    guard let outcome = landing.outcome else {
      return (failures + ["no done within \(format(limit)) s"], verified)
    }
    guard let state = landing.rest else {
      return (failures + ["the item \(h.item) is gone after done"], verified)
    }
    let gap = abs(state.center.y - target.centerY)
    client.output.note(
      "  done \(outcome); at rest at center y \(format(state.center.y)), \(format(gap)) pt from "
        + "\(detent)'s \(format(target.centerY)), velocity "
        + pair((state.velocity.dx, state.velocity.dy)))
    if outcome != detent { failures.append("done says \(outcome), not \(detent)") }
    if gap > Self.landingSlack { failures.append("it rests \(format(gap)) pt off \(detent)") }
    return (failures, verified)
  }
}
