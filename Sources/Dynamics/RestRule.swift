/// When the animator pauses by itself. UIKit says only that a dynamic animator pauses once its
/// items are at rest; the numbers are Box2D's sleep tolerances, plus a clause for drift.
///
/// At every internal step each awake item is still or not, and the animator pauses once every
/// item has been still for `DynamicAnimator.restDuration` (0.5 s, b2_timeToSleep) without a
/// break. An item is still when it turns slower than `restAngularSpeed` (2°/s,
/// b2_angularSleepTolerance) and either
/// - moves slower than `restSpeed` (1 pt/s, b2_linearSleepTolerance at 100 pt per metre), or
/// - only drifts: it moves slower than `driftSpeed` (2 pt/s), no behavior but gravity, collision
///   and item properties acts on it, and it has not sped up since the still run began (by more
///   than `driftTolerance`).
///
/// Why drift: the solver's rounding can leave an item gliding at a steady speed just above
/// 1 pt/s, and such a scene animates for ever. Before the shim kept a flat item's contact with a
/// static face flat, 50×50 boxes and 60 pt squares dropped flat on a frictionless floor with
/// elasticity 0.5–0.9 left their first bounce at 1.0–1.34 pt/s and never paused (`dynbench
/// drift`: 10 of 200 drops). Every drop of that matrix now stays under 0.001 pt/s, but other
/// contacts (item on item, a polygon rocking) keep Box2D's rounding. 2 pt/s clears the worst
/// glide measured by half again, and is slower than anything meant to be seen moving: it crosses
/// a 320 pt screen in 160 s. What the clause leaves running: an item a push, an attachment (a
/// drag, a spring), a snap or any other behavior acts on, however slowly it moves; an item that
/// speeds up (falling, sliding down a slope, being shoved by a neighbour), and one that turns.
struct RestRule {
  /// What the rule finds after a step.
  enum Verdict {
    /// Some item moves; the still run, if any, is over.
    case moving
    /// Every item is still, not yet for `restDuration`.
    case still
    /// Every item has been still for `restDuration`: the animator pauses.
    case rested
    /// Box2D has put every item to sleep itself.
    case asleep
  }

  /// How much faster than at the start of the still run a drifting item may move: the rounding
  /// noise of a glide, far below what gravity or a neighbour adds in 0.5 s.
  static let driftTolerance = 0.01

  /// Each drifting item's reference speed in the current still run: its speed when the run
  /// began, or `restSpeed` if it was slower then.
  private var runSpeeds: [ObjectIdentifier: Double] = [:]

  /// Judges one step. `stillTime` is how long every item has been still (0 after any change);
  /// `behaviors` is the flattened behavior tree, read only when an item is in the drift band.
  mutating func judge(
    _ bodies: [ItemBody], behaviors: [DynamicBehavior], stillTime: inout Double
  ) -> Verdict {
    let runStarts = stillTime == 0
    if runStarts { runSpeeds.removeAll(keepingCapacity: true) }
    var driven: Set<ObjectIdentifier>?
    var asleep = true
    var still = true
    for body in bodies where body.isDynamic && (body.state.isAwake || body.motionInFlight) {
      asleep = false
      // A spring or decay still on its way (however slowly) keeps the animator running.
      guard !body.motionInFlight else {
        still = false
        break
      }
      let speed = body.state.velocity.length
      guard abs(body.state.angularVelocity) < DynamicAnimator.restAngularSpeed else {
        still = false
        break
      }
      if speed < DynamicAnimator.restSpeed { continue }
      guard speed < DynamicAnimator.driftSpeed, body.grips == 0 else {
        still = false
        break
      }
      // Only an item in the drift band needs the behavior tree walked (once per step at most):
      // a moving scene never pays for it.
      let id = ObjectIdentifier(body.item)
      if driven == nil { driven = Self.drivenItems(behaviors) }
      guard !driven!.contains(id) else {
        still = false
        break
      }
      if runStarts { runSpeeds[id] = speed }
      let reference = runSpeeds[id] ?? DynamicAnimator.restSpeed
      guard speed <= reference + Self.driftTolerance else {
        still = false
        break
      }
    }
    if asleep { return .asleep }
    stillTime = still ? stillTime + DynamicAnimator.stepInterval : 0
    guard still else { return .moving }
    return stillTime >= DynamicAnimator.restDuration - 1e-9 ? .rested : .still
  }

  /// Items some behavior other than gravity, collision or item properties acts on.
  static func drivenItems(_ behaviors: [DynamicBehavior]) -> Set<ObjectIdentifier> {
    var driven = Set<ObjectIdentifier>()
    for behavior in behaviors {
      let passive =
        behavior is GravityBehavior || behavior is CollisionBehavior
        || behavior is DynamicItemBehavior
      if passive { continue }
      for item in behavior.behaviorItems { driven.insert(ObjectIdentifier(item)) }
    }
    return driven
  }
}
