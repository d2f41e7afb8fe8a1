import Primitives
import Wire

/// A release followed to its end, for `dynctl handoff`'s checks of where it lands (a sheet's
/// spring, a decay): each frame's item against a closed form, the outcome, the item at rest.
struct FollowedLanding {
  /// What `done` said; nil when none came within the limit.
  var outcome: String?
  /// The largest distance of a frame's item center from the closed form, and the frames
  /// measured (none without a closed form).
  var worst = 0.0
  var measured = 0
  /// The item after `done` (`get`); nil when no `done` came or the item is gone.
  var rest: ItemState?

  /// Steps `session` 60 frames at a time until `done` (at most `limit` seconds), measuring
  /// `item` in every frame against `closedForm`, its position `t` seconds after the release at
  /// the session's time `releaseTime` (frame k after it is k/60 s after it: manual clock, 60
  /// fps), then reads the item.
  static func follow(
    _ item: String, session: String, releaseTime: Double, limit: Double,
    closedForm: ((Double) -> Point)?, _ client: DaemonClient
  ) throws(Failure) -> FollowedLanding {
    var landing = FollowedLanding()
    var frames = 0
    while landing.outcome == nil, frames < Int(limit * 60) {
      try client.request(Op(StepRequest(session: session, count: 60)), quietReply: true) {
        event in
        guard case .event(let e) = event.content else { return }
        switch e {
        case .done(_, let o, _) where landing.outcome == nil: landing.outcome = o
        case .frame(let f):
          guard let closedForm, let state = f.items.first(where: { $0.id == item }) else { return }
          let k = ((f.t - releaseTime) * 60).rounded()
          landing.worst = max(landing.worst, state.center.distance(to: closedForm(k / 60)))
          landing.measured += 1
        default: break
        }
      }
      frames += 60
    }
    guard landing.outcome != nil else { return landing }
    let reply = try client.request(Op(GetRequest(session: session)), quietReply: true)
    if case .get(_, _, let items, _) = reply { landing.rest = items.first { $0.id == item } }
    return landing
  }
}
