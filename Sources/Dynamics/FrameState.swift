import Primitives

/// What a frame that ends between two internal steps shows: each item as it is at the frame's
/// own time (`DynamicAnimator.time`), `lead` seconds after the last internal step.
///
/// The world steps in fixed internal steps of 1/120 s and is never stepped past a frame's time,
/// so that a gesture, a contact, an action or a pause is never ahead of the frame that reports
/// it. Between two steps:
/// - an item a spring or a decay moves is at its closed form at that time (`ExactMotionTracks`);
/// - any other body goes on from the last step the way the coming step takes it, as Box2D's
///   semi-implicit Euler integrator does (the velocity changes by Δv, then the body moves at the
///   new velocity): at x + lead·(v + Δv), Δv being the change of velocity the last step made,
///   when the step before it made about the same (a steady force: gravity, a field, resistance,
///   a joint's pull); otherwise (a contact's or a limit's impulse) at x + lead·v. Under a steady
///   force this is the straight line between the two steps around the frame's time, the line
///   Fiedler's "Fix Your Timestep!" interpolates along, drawn without stepping ahead;
/// - a held item's anchor glides at an even pace so that it arrives at the frame's time
///   (`glideFraction`); a gripped item that nothing stopped shows its held point there, an item
///   on a rigid rod to the anchor its point at the rod's length (`AttachmentBehavior`);
/// - a body asleep, or at the end of its spring or decay, where it is.
///
/// A velocity given or an item moved between two steps (a release's handoff, `set_item`) is
/// given at the frame's time: the body is put, at the last step's time, in the state that the
/// coming step carries to the new one at the frame's time (`rebase`), and a spring or a decay
/// that starts then starts from the shown state at that time. The grid of internal steps never
/// moves, so a client changing the world at every frame still lets it step.
extension DynamicAnimator {
  /// How far two successive steps' changes of velocity may differ, relative to the larger, for
  /// the force behind them to count as steady.
  static let steadyChange = 0.5

  /// Shows every item at `time` (nothing to do when it is the last step's).
  func showFrameState() {
    let lead = pendingSteps * Self.stepInterval
    guard lead > 0 else { return }
    prepare()  // a frame without a step may follow a change of the behaviors
    // A spring's or a decay's items are shown by their behavior, which may start their motion
    // now from what they showed at the last frame.
    for body in bodyOrder where body.isDynamic && body.state.isAwake && body.motionOwner == nil {
      body.showBetweenSteps(carried(body, by: lead), lead: lead)
    }
    for behavior in flattened { behavior.showFrameState(self, lead: lead) }
    // Every other body (asleep, or at the end of its motion) shows where it is: a velocity
    // given it now is given at this time too.
    for body in bodyOrder where body.isDynamic && !body.isShown(lead: lead) {
      body.showBetweenSteps(body.state, lead: lead)
    }
    isShowingFrame = true
  }

  /// The change of velocity the coming step makes: the last step's when the force is steady,
  /// else none; for a body not stepped yet, what gravity gives it, and for a body stepped once,
  /// its one change.
  func comingChange(_ body: ItemBody) -> (linear: Vector, angular: Double) {
    if body.changesRecorded == 0 { return (steadyChange(of: body), 0) }
    if body.changesRecorded == 1 {
      return (body.velocityChange.last, body.angularVelocityChange.last)
    }
    let change = body.velocityChange
    let steady =
      (change.last - change.before).length
      <= Self.steadyChange * max(change.last.length, change.before.length)
    let turn = body.angularVelocityChange
    let steadyTurn =
      abs(turn.last - turn.before) <= Self.steadyChange * max(abs(turn.last), abs(turn.before))
    return (steady ? change.last : .zero, steadyTurn ? turn.last : 0)
  }

  /// The change of velocity the behaviors' steady accelerations (gravity's) make in a step.
  func steadyChange(of body: ItemBody) -> Vector {
    flattened.reduce(Vector.zero) { $0 + $1.steadyAcceleration(of: body.item) }
      * Self.stepInterval
  }

  /// `body`'s state `lead` seconds after the last internal step, as the coming step takes it.
  func carried(_ body: ItemBody, by lead: Double) -> BodyState {
    var s = body.state
    let change = comingChange(body)
    let part = lead / Self.stepInterval
    s.center = s.center + (s.velocity + change.linear) * lead
    s.angle += (s.angularVelocity + change.angular) * lead
    s.velocity = s.velocity + change.linear * part
    s.angularVelocity += change.angular * part
    return s
  }

  /// Between two steps: puts `body`, at the last step's time, in the state that the coming step
  /// carries to `shown` at the frame's time under the behaviors' steady accelerations (what
  /// held the body before, a finger's grip, may have let go of it), and shows `shown`. Done
  /// again when the next frame begins (`rebaseGiven`), under the accelerations then in force
  /// (a release sets the velocity, then gravity). Other forces act from the last step's time
  /// for the rest of that step.
  func rebase(_ body: ItemBody, to shown: BodyState) {
    if !body.awaitsRebase {
      body.awaitsRebase = true
      rebased.append(body)
    }
    let lead = body.shownLead
    let change = (linear: steadyChange(of: body), angular: 0.0)
    let part = lead / Self.stepInterval
    let next = shown.velocity + change.linear * (1 - part)
    let nextTurn = shown.angularVelocity + change.angular * (1 - part)
    let center = shown.center - next * lead
    let angle = shown.angle - nextTurn * lead
    world.setTransform(body.handle, center: center, angle: angle)
    world.setVelocity(
      body.handle, shown.velocity - change.linear * part,
      angular: shown.angularVelocity - change.angular * part)
    world.wake(body.handle)
    let stored = world.state(body.handle)
    body.state.center = center
    body.state.angle = angle
    body.state.velocity = stored.velocity
    body.state.angularVelocity = stored.angularVelocity
    body.state.pose = stored.pose
    body.state.isAwake = true
    // What Box2D stored (Float) carried to the frame's time: what callers see is what will be
    // simulated.
    var given = shown
    given.velocity = stored.velocity + change.linear * part
    given.angularVelocity = stored.angularVelocity + change.angular * part
    body.showBetweenSteps(given, lead: lead)
  }

  /// At the start of a frame: the bodies given a state between two steps take it again under
  /// the accelerations in force now.
  func rebaseGiven() {
    guard !rebased.isEmpty else { return }
    prepare()  // the behaviors added with the change (gravity at a release) act on it
    let given = rebased
    for body in given where bodies[ObjectIdentifier(body.item)] === body {
      if let shown = body.shownBetweenSteps { rebase(body, to: shown) }
    }
    for body in rebased { body.awaitsRebase = false }
    rebased.removeAll()
  }
}
