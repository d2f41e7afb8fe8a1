import JSON
import Primitives
import Wire

/// What `dynctl handoff` checks besides the velocity when a decay receives the release (the
/// handoff names a `decay`: `fling`): the projection is that decay's resting point from the
/// item's center and velocity at the release, every frame on the way is the decay's closed form,
/// and the item comes to rest on the projection.
struct DecayCheck {
  /// The wire's rounding of a position, and the landing's tolerance.
  static let landingSlack = 0.0011

  let model: DecayModel
  let projection: Point
  /// The item's center at the release (`get`, before any step), and the session's time then.
  let release: Point
  let releaseTime: Double

  /// How far a recomputed position may be from the daemon's: the wire's rounding (0.0005) of
  /// the frame's position and of the release's, and of the release velocity carried through
  /// the decay's whole travel, 0.0005·(1 − e^(−λt))/λ ≤ 0.0005/λ.
  var slack: Double { 0.0011 + 0.0006 / model.decayRate }

  /// Reads the session at the release; nil when the handoff names no decay.
  static func atRelease(_ h: HandoffReport, session: String, _ client: DaemonClient)
    throws(Failure) -> DecayCheck?
  {
    guard let model = h.decay, let projection = h.projection else { return nil }
    let reply = try client.request(Op(GetRequest(session: session)), quietReply: true)
    guard case .get(let t, _, let items, _) = reply,
      let item = items.first(where: { $0.id == h.item })
    else { throw .verdictWritten("FAIL: the session does not report \(h.item) (get)") }
    return DecayCheck(model: model, projection: projection, release: item.center, releaseTime: t)
  }

  /// The decay's motion from the release, at the item velocity the handoff reported.
  func motion(_ h: HandoffReport) -> DecayMotion {
    DecayMotion(model, from: release, velocity: Vector(dx: h.itemVelocity.0, dy: h.itemVelocity.1))
  }

  /// The release: the projection is the decay's resting point. Returns the failures.
  func checkRelease(_ h: HandoffReport, _ output: Output) -> [String] {
    let (field, value) = (model.parameter.field.rawValue, model.parameter.value)
    let expected = motion(h).restingPoint
    let gap = expected.distance(to: projection)
    output.note(
      "  projection \(pair((projection.x, projection.y))): the decay (\(field) \(format(value))) "
        + "from \(pair((release.x, release.y))) at the item velocity stops at "
        + "\(pair((expected.x, expected.y))), off by \(format(gap)) pt")
    return gap > slack
      ? ["the projection is not the decay's resting point (off by \(format(gap)) pt)"] : []
  }

  /// Steps the session until `done` (at most 2 s after the decay stops) and checks every frame
  /// on the way against the decay's closed form from the release, and that the item rests on
  /// the projection. Frame k after the release is k/60 s after it (manual clock, 60 fps).
  /// Returns the failures, and whether frames were measured against the decay.
  func checkLanding(_ h: HandoffReport, session: String, _ client: DaemonClient) throws(Failure)
    -> (failures: [String], verified: Bool)
  {
    let exact = motion(h)
    let limit = exact.stopTime + 2
    let landing = try FollowedLanding.follow(
      h.item, session: session, releaseTime: releaseTime, limit: limit,
      closedForm: { exact.position(at: $0) }, client)
    let (worst, measured) = (landing.worst, landing.measured)
    var failures: [String] = []
    client.output.note(
      "  on the way: \(measured) frames, each within \(format(worst)) pt of the decay's closed "
        + "form (tolerance \(JSONValue.number((slack * 1e4).rounded() / 1e4).jsonText))")
    if worst > slack {
      failures.append("the item strays \(format(worst)) pt from its decay's closed form")
    }
    let verified = measured > 0 && worst <= slack
    guard let outcome = landing.outcome else {
      return (failures + ["no done within \(format(limit)) s"], verified)
    }
    guard let state = landing.rest else {
      return (failures + ["the item \(h.item) is gone after done"], verified)
    }
    let gap = state.center.distance(to: projection)
    client.output.note(
      "  done \(outcome); at rest at \(pair((state.center.x, state.center.y))), \(format(gap)) pt "
        + "from the projection, velocity \(pair((state.velocity.dx, state.velocity.dy)))")
    if gap > Self.landingSlack { failures.append("it rests \(format(gap)) pt off the projection") }
    return (failures, verified)
  }
}
