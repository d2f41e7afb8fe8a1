import JSON
import Primitives
import Wire

/// What `dynctl handoff` checks besides the velocity when a spring the transition names
/// receives the release (the handoff names a `spring` and its target as the `projection`, but no
/// detent: a document's release rule): every frame until `done` is that spring's closed form
/// from the item's center and velocity at the release, and an item at rest rests on the target.
struct SpringCheck {
  let spring: SpringParameters
  let target: Point
  /// The item's center at the release (`get`, before any step), and the session's time then.
  let release: Point
  let releaseTime: Double

  /// Reads the session at the release; nil when the handoff names no such spring.
  static func atRelease(_ h: HandoffReport, session: String, _ client: DaemonClient)
    throws(Failure) -> SpringCheck?
  {
    guard h.detent == nil, let spring = h.spring, let target = h.projection else { return nil }
    let reply = try client.request(Op(GetRequest(session: session)), quietReply: true)
    guard case .get(let t, _, let items, _) = reply,
      let item = items.first(where: { $0.id == h.item })
    else { throw .verdictWritten("FAIL: the session does not report \(h.item) (get)") }
    return SpringCheck(spring: spring, target: target, release: item.center, releaseTime: t)
  }

  /// Steps the session until `done` (at most `limit` s) and checks every frame on the way
  /// against the spring's closed form, and the rest on its target when the item is at rest
  /// then. Returns the failures, and whether frames were measured against the spring.
  func checkLanding(
    _ h: HandoffReport, session: String, _ client: DaemonClient, limit: Double = 20
  ) throws(Failure) -> (failures: [String], verified: Bool) {
    let followed = try follow(h, session: session, client, limit: limit)
    let (landing, verified) = (followed.landing, followed.verified)
    var failures = followed.failures
    guard let outcome = landing.outcome else {
      return (failures + ["no done within \(format(limit)) s"], verified)
    }
    guard let state = landing.rest else {
      return (failures + ["the item \(h.item) is gone after done"], verified)
    }
    let still = state.velocity.length < 0.001
    let gap = state.center.distance(to: target)
    client.output.note(
      "  done \(outcome); " + (still ? "at rest" : "still moving")
        + " at \(pair((state.center.x, state.center.y))), \(format(gap)) pt from the target")
    if still, gap > DetentCheck.landingSlack {
      failures.append("it rests \(format(gap)) pt off its spring's target")
    }
    return (failures, verified)
  }

  /// Steps the session until `done` (at most `limit` s), measuring every frame against the
  /// spring's closed form from the release (position and item velocity then): the frames
  /// followed, the failures, and whether frames were measured within the tolerance. Shared
  /// with `DetentCheck`, whose spring's target is its detent (which it names itself: `toward`
  /// false leaves the target out of the line).
  func follow(
    _ h: HandoffReport, session: String, _ client: DaemonClient, limit: Double,
    toward: Bool = true
  ) throws(Failure) -> (landing: FollowedLanding, failures: [String], verified: Bool) {
    let exact = SpringMotion(
      spring, from: release, velocity: Vector(dx: h.itemVelocity.0, dy: h.itemVelocity.1),
      to: target)
    let landing = try FollowedLanding.follow(
      h.item, session: session, releaseTime: releaseTime, limit: limit,
      closedForm: { exact.position(at: $0) }, client)
    let (worst, measured) = (landing.worst, landing.measured)
    var failures: [String] = []
    client.output.note(
      "  on the way: \(measured) frames, each within \(format(worst)) pt of the spring's closed "
        + "form" + (toward ? " toward \(pair((target.x, target.y)))" : "")
        + " (tolerance \(DetentCheck.springSlack))")
    if worst > DetentCheck.springSlack {
      failures.append("the item strays \(format(worst)) pt from its spring's closed form")
    }
    return (landing, failures, measured > 0 && worst <= DetentCheck.springSlack)
  }
}
