import Dynamics
import Primitives

/// The iPhone 5 screen the seeds were written for.
let screen = Rect(x: 0, y: 0, width: 320, height: 568)
let frame60 = 1.0 / 60

func item(
  _ id: String = "item", x: Double = 160, y: Double = 100, w: Double = 100, h: Double = 100,
  angle: Double = 0, shape: CollisionShape = .rectangle
) -> DynamicItem {
  try! DynamicItem(
    identifier: id, center: Point(x: x, y: y), size: Size(width: w, height: h), angle: angle,
    shape: shape)
}

/// Steps `seconds` of 60 Hz frames (two internal steps each).
func run(_ animator: DynamicAnimator, seconds: Double) {
  for _ in 0..<Int((seconds * 60).rounded()) { animator.step(frame60) }
}

/// Steps frames until the animator pauses or `limit` seconds pass; returns the time taken.
@discardableResult
func runUntilRest(_ animator: DynamicAnimator, limit: Double = 30) -> Double {
  var t = 0.0
  while animator.isRunning && t < limit {
    animator.step(frame60)
    t += frame60
  }
  return t
}

/// Records delegate calls.
final class Recorder: DynamicAnimatorDelegate {
  var pauses: [Double] = []
  var resumes: [Double] = []
  var contacts: [ContactEvent] = []
  func dynamicAnimatorWillResume(_ animator: DynamicAnimator) {
    resumes.append(animator.elapsedTime)
  }
  func dynamicAnimatorDidPause(_ animator: DynamicAnimator) { pauses.append(animator.elapsedTime) }
  func dynamicAnimator(_ animator: DynamicAnimator, didReport contact: ContactEvent) {
    contacts.append(contact)
  }
  func boundaryContacts(_ phase: ContactEvent.Phase) -> [String?] {
    contacts.compactMap { c in
      guard c.phase == phase, case .boundary(let id) = c.other else { return nil }
      return .some(id)
    }
  }
}

/// A collision behavior holding the reference bounds as boundary.
func bounds(_ items: [DynamicItem], mode: CollisionMode = .everything) -> CollisionBehavior {
  let c = CollisionBehavior(items: items)
  try! c.setTranslatesReferenceBoundsIntoBoundary(true)
  c.collisionMode = mode
  return c
}

func properties(_ items: [DynamicItem], _ set: (DynamicItemBehavior) -> Void) -> DynamicItemBehavior
{
  let b = DynamicItemBehavior(items: items)
  set(b)
  return b
}
