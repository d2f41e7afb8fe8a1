import Wire

/// The gesture `play` and `record` perform: a pan, a recorded stroke, a tap or a swipe.
struct GesturePlan {
  let drag: PanOptions
  let other: TapSwipeOptions

  /// The gesture options given, of --pan, --samples, --tap and --swipe.
  var given: [String] {
    [
      (drag.pan != nil, "--pan"), (drag.recorded.samples != nil, "--samples"),
      (other.tap != nil, "--tap"), (other.swipe != nil, "--swipe"),
    ].filter(\.0).map(\.1)
  }

  /// Performs the gesture; every event goes to `onEvent` as well as to the output.
  func perform(
    on session: String, _ client: DaemonClient, pacing: GestureCommand.Pace,
    onEvent: (Message) -> Void
  ) throws(Failure) {
    if drag.given {
      try drag.perform(on: session, client, pacing: pacing).forEach(onEvent)
    } else if let tap = other.tap {
      try client.request(Op(TapRequest(session: session, point: tap.point)), onEvent: onEvent)
    } else if let swipe = other.swipe {
      let request = SwipeRequest(
        session: session, direction: swipe.direction, point: other.at?.point,
        velocity: other.velocity?.vector)
      try client.request(Op(request), onEvent: onEvent)
    }
  }
}

extension GesturePlan {
  /// Performs the gesture on `session` and follows it until its `done` (or `maxSeconds` of
  /// animation): stepping a manual-clock session, watching a realtime one.
  func follow(
    _ session: String, _ client: DaemonClient, manual: Bool, maxSeconds: Double
  ) throws(Failure) -> (outcome: String?, handoffs: [HandoffReport]) {
    var handoffs: [HandoffReport] = []
    var outcome: String?
    let notice = { (event: Message) in
      if let h = HandoffReport(event) { handoffs.append(h) }
      if case .event(.done(session, let reported, _)) = event.content, outcome == nil {
        outcome = reported
      }
    }
    try perform(on: session, client, pacing: manual ? .step : .realtime, onEvent: notice)
    let deadline = monotonicSeconds() + maxSeconds
    var animated = 0.0
    while outcome == nil {
      if manual {
        guard animated < maxSeconds else { break }
        try client.request(
          Op(StepRequest(session: session, count: 60)), quietReply: true, onEvent: notice)
        animated += 1
      } else {
        guard case .message(let event) = try client.connection.receive(deadline: deadline)
        else { break }
        client.trace?.received(event)
        client.output.event(event)
        notice(event)
      }
    }
    return (outcome, handoffs)
  }
}
