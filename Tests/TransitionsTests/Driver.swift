import Dynamics
import Primitives

@testable import Transitions

/// Drives a transition on the manual clock, as a test script would through the daemon.
struct Driver {
  let t: Transition
  var contacts: [ContactEvent] { recorder.contacts }
  private let recorder = ContactRecorder()

  init(_ type: Transition.Type, _ overrides: [String: ParameterValue] = [:]) throws {
    t = try type.init(
      parameters: ParameterValues(overrides, declared: type.parameters),
      bounds: Rect(x: 0, y: 0, width: 320, height: 568))
    t.animator.delegate = recorder
  }

  func item(_ id: String) -> DynamicItem { t.items.first { $0.identifier == id }! }

  /// A straight pan sampled and stepped at 60 Hz, released with `release` (or the estimate).
  /// Returns the handoffs of the release.
  @discardableResult
  func pan(
    from: Point, to: Point, duration: Double, release: Vector? = nil
  ) -> [(String, Vector, Vector)] {
    let frames = max(1, Int((duration * 60).rounded()))
    t.handle(GestureEvent(phase: .began, point: from, time: 0), now: 0)
    for i in 1...frames {
      t.animator.step(1.0 / 60)
      t.afterStep()
      let f = Double(i) / Double(frames)
      let p = Point(x: from.x + (to.x - from.x) * f, y: from.y + (to.y - from.y) * f)
      t.handle(GestureEvent(phase: .changed, point: p, time: Double(i) / 60), now: 0)
    }
    t.handle(
      GestureEvent(phase: .ended, point: to, time: Double(frames) / 60, velocity: release), now: 0)
    return t.takeEvents().compactMap {
      if case .handoff(let h) = $0 { (h.item, h.gestureVelocity, h.itemVelocity) } else { nil }
    }
  }

  /// Steps 60 Hz frames until a `done` (or `limit` seconds); the outcomes seen.
  func runUntilDone(limit: Double = 20) -> [String] {
    var outcomes: [String] = []
    for _ in 0..<Int(limit * 60) {
      t.animator.step(1.0 / 60)
      t.afterStep()
      for case .done(let o) in t.takeEvents() { outcomes.append(o) }
      if !outcomes.isEmpty { break }
    }
    return outcomes
  }

  func bounces(against boundary: String?) -> Int {
    contacts.filter {
      if $0.phase == .began, case .boundary(let id) = $0.other { id == boundary } else { false }
    }.count
  }
}

final class ContactRecorder: DynamicAnimatorDelegate {
  var contacts: [ContactEvent] = []
  func dynamicAnimator(_ animator: DynamicAnimator, didReport contact: ContactEvent) {
    contacts.append(contact)
  }
}
