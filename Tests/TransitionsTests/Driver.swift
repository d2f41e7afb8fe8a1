import Dynamics
import Primitives

@testable import Transitions

/// Drives a transition on the manual clock, as a test script would through the daemon. Every
/// transition test builds its transition here and sends its input and frames through it.
///
/// Each input and frame returns the events the transition reported for it, and also keeps them
/// until `takeEvents()` (as a session forwards them to its watchers), so a test may look at
/// either. The contacts of the whole run are recorded.
final class Driver<T: Transition> {
  let t: T
  var contacts: [ContactEvent] { recorder.contacts }
  private let recorder = ContactRecorder()
  private var pending: [TransitionEvent] = []

  /// One frame of the 60 Hz clock.
  static var frameTime: Double { 1.0 / 60 }

  /// `type` in `bounds` (the standard 320 × 568 unless given) with `overrides` validated as the
  /// daemon validates them, in those bounds.
  init(
    _ type: T.Type, _ overrides: [String: ParameterValue] = [:],
    bounds: Rect = TransitionBounds.standard
  ) throws {
    t = try type.init(
      parameters: ParameterValues(overrides, declared: type.parameters, in: bounds.size),
      bounds: bounds)
    t.animator.delegate = recorder
  }

  func item(_ id: String) -> DynamicItem { t.items.first { $0.identifier == id }! }

  /// The events reported since the last call.
  func takeEvents() -> [TransitionEvent] {
    defer { pending = [] }
    return pending
  }

  private func keep(_ events: [TransitionEvent]) -> [TransitionEvent] {
    pending += events
    return events
  }

  // MARK: input

  /// Feeds one pan event, `now` standing in for the client's clock.
  @discardableResult
  func send(_ event: GestureSample, now: Double = 0) -> [TransitionEvent] {
    keep(t.handle(event, now: now))
  }

  @discardableResult
  func began(at point: Point, time: Double? = 0) -> [TransitionEvent] {
    send(GestureSample(phase: .began, point: point, time: time))
  }

  @discardableResult
  func moved(to point: Point, time: Double?) -> [TransitionEvent] {
    send(GestureSample(phase: .changed, point: point, time: time))
  }

  @discardableResult
  func ended(at point: Point, time: Double?, velocity: Vector? = nil) -> [TransitionEvent] {
    send(GestureSample(phase: .ended, point: point, time: time, velocity: velocity))
  }

  @discardableResult
  func cancelled(at point: Point, time: Double?) -> [TransitionEvent] {
    send(GestureSample(phase: .cancelled, point: point, time: time))
  }

  /// Whether the transition took the tap.
  @discardableResult
  func tap(at point: Point) -> Bool {
    t.tap(at: point)
  }

  /// Whether the transition took the swipe.
  @discardableResult
  func swipe(_ direction: SwipeDirection) -> Bool {
    t.swipe(direction, at: nil, velocity: nil)
  }

  // MARK: time

  /// One 60 Hz frame as the session runs it: the animator's step, then `afterStep`.
  @discardableResult
  func frame() -> [TransitionEvent] {
    stepEngine()
    return afterStep()
  }

  /// The animator's step alone, without `afterStep`: nothing is asked of the transition.
  func stepEngine() {
    t.animator.step(Self.frameTime)
  }

  /// What the session calls after a frame's steps.
  @discardableResult
  func afterStep() -> [TransitionEvent] {
    keep(t.afterStep())
  }

  // MARK: scripts

  /// A straight pan sampled and stepped at 60 Hz, released with `release` (or the estimate):
  /// `began` at 0, then per frame the frame and the next sample; `ended` at the last sample's
  /// time. Takes the events and returns the handoffs.
  @discardableResult
  func pan(
    from: Point, to: Point, duration: Double, release: Vector? = nil
  ) -> [(String, Vector, Vector)] {
    let frames = max(1, Int((duration * 60).rounded()))
    began(at: from, time: 0)
    for i in 1...frames {
      frame()
      let f = Double(i) / Double(frames)
      moved(
        to: Point(x: from.x + (to.x - from.x) * f, y: from.y + (to.y - from.y) * f),
        time: Double(i) / 60)
    }
    ended(at: to, time: Double(frames) / 60, velocity: release)
    return takeEvents().compactMap {
      if case .handoff(let h) = $0 { (h.item, h.gestureVelocity, h.itemVelocity) } else { nil }
    }
  }

  /// A straight pan whose every sample, `began` included, is followed by a step of the engine
  /// alone (`Int(duration × 60)` + 1 samples); `ended` one frame after the last sample.
  func panStepping(from: Point, to: Point, duration: Double, release: Vector? = nil) {
    let frames = Int(duration * 60)
    for i in 0...frames {
      let f = Double(i) / Double(frames)
      let p = Point(x: from.x + (to.x - from.x) * f, y: from.y + (to.y - from.y) * f)
      send(GestureSample(phase: i == 0 ? .began : .changed, point: p, time: Double(i) / 60))
      stepEngine()
    }
    ended(at: to, time: Double(frames + 1) / 60, velocity: release)
  }

  /// Runs frames until a `done` (or `limit` seconds), taking the events; the outcomes seen.
  func runUntilDone(limit: Double = 20) -> [String] {
    var outcomes: [String] = []
    for _ in 0..<Int(limit * 60) {
      frame()
      for case .done(let o) in takeEvents() { outcomes.append(o) }
      if !outcomes.isEmpty { break }
    }
    return outcomes
  }

  /// The contacts against `boundary` (nil: the reference bounds) that began, from the
  /// `since`-th contact recorded on.
  func bounces(against boundary: String?, since: Int = 0) -> Int {
    contacts.dropFirst(since).filter {
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
