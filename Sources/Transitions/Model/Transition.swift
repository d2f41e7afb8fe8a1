import Dynamics
import Primitives

/// Something a transition tells its watchers besides frames.
public enum TransitionEvent: Equatable, Sendable {
  /// A gesture ended and the dynamics took over.
  case handoff(Handoff)
  /// The gesture cycle finished with this outcome (`closed`, `opened`, `bounced`, …).
  case done(outcome: String)
}

/// A named transition: items and behaviors of `Dynamics`, retuned by gestures.
///
/// Subclasses create their scene in `init` and override the gesture hooks. The session calls
/// `handle`, `tap` or `swipe` for input and `afterStep` after each frame's steps; each returns
/// the events that call caused, which the session forwards to its watchers. Nothing is queued:
/// an event is in the hands of whoever made the call.
open class Transition {
  /// The name clients open it by.
  open class var name: String { fatalError("subclasses name themselves") }
  /// Every tunable constant, with its default and source: a subclass returns its
  /// `ParameterSet`'s `declarations`, and reads the values through a `ParameterReader` of it.
  open class var parameters: [TransitionParameter] { [] }

  /// The name this one was opened by: its class's, or a document's (`DocumentTransition`).
  open var openedName: String { type(of: self).name }
  /// Its parameters' declarations: its class's, or a document's.
  open var declaredParameters: [TransitionParameter] { type(of: self).parameters }

  public let animator: DynamicAnimator
  public let bounds: Rect
  /// The items reported on the wire, in this order.
  public internal(set) var items: [DynamicItem] = []
  public internal(set) var tracker = GestureTracker()

  /// Creates the transition in `bounds` with validated parameters.
  public required init(parameters: ParameterValues, bounds: Rect) throws {
    self.bounds = bounds
    animator = DynamicAnimator(referenceBounds: bounds)
  }

  /// Creates the transition over a scene already built on `animator`, whose reference bounds
  /// are `bounds` (a `DynamicsScenes` scene the transition adds its gestures to).
  public init(animator: DynamicAnimator, bounds: Rect) {
    self.bounds = bounds
    self.animator = animator
  }

  /// Extra numbers reported with frames and `done` (e.g. `background_alpha`), sorted by name.
  open var values: [(name: String, value: Double)] { [] }

  /// Where a transition that sends the released item to a place of its choosing says it goes,
  /// for the `handoff` (the sheet: its projection, detent and spring); nil, the default: the
  /// item coasts, and a decay that moves it says where it stops.
  open func landing(after handoff: Handoff) -> Landing? { nil }

  /// A transition's own landing for the released item (`landing(after:)`).
  public struct Landing: Sendable {
    public var projection: Point
    public var detent: String?
    public var spring: SpringParameters?

    public init(projection: Point, detent: String? = nil, spring: SpringParameters? = nil) {
      self.projection = projection
      self.detent = detent
      self.spring = spring
    }
  }

  /// Feeds a pan event; `now` stands in for the client's timestamp when it sent none. The
  /// event's own `estimator` computes the velocity passed on for it: at every `changed`, and at
  /// `ended` (the release velocity) unless the client gave one. Returns the events it caused
  /// (the handoff of a release, with how its velocity was estimated when it was).
  public final func handle(_ event: GestureSample, now: Double) -> [TransitionEvent] {
    let t = event.time ?? now
    let byClient = event.time != nil
    switch event.phase {
    case .began:
      tracker.record(.began, event.point, at: t, timedByClient: byClient)
      panBegan(at: event.point)
    case .changed:
      if !tracker.isActive {
        tracker.record(.began, event.point, at: t, timedByClient: byClient)
        panBegan(at: event.point)
      }
      tracker.record(.changed, event.point, at: t, timedByClient: byClient)
      panChanged(at: event.point, velocity: limitedEstimate(event.estimator).velocity)
    case .ended:
      if tracker.isActive {
        tracker.record(.ended, event.point, at: t, timedByClient: byClient)
      }
      let estimated = event.velocity == nil ? limitedEstimate(event.estimator) : nil
      let events = panEnded(
        at: event.point, velocity: event.velocity ?? estimated?.velocity ?? .zero)
      tracker.reset()
      return events.map { caused in
        guard case .handoff(let handoff) = caused else { return caused }
        return .handoff(completed(handoff, estimate: estimated?.estimate))
      }
    case .cancelled:
      panCancelled()
      tracker.reset()
    }
    return []
  }

  /// The tracker's estimate by `estimator`, scaled down to `VelocityEstimator.maxSpeed` in its direction
  /// when faster (then its reason is `limited`).
  private func limitedEstimate(_ estimator: VelocityEstimator) -> (
    velocity: Vector, estimate: ReleaseEstimate
  ) {
    var (velocity, estimate) = tracker.estimate(estimator)
    let speed = velocity.length
    if speed > VelocityEstimator.maxSpeed {
      velocity = velocity * (VelocityEstimator.maxSpeed / speed)
      estimate.reason = .limited
    }
    return (velocity, estimate)
  }

  open func panBegan(at point: Point) {}
  open func panChanged(at point: Point, velocity: Vector) {}
  /// The finger lifted with `velocity`; returns the events that caused (its `handOff`).
  open func panEnded(at point: Point, velocity: Vector) -> [TransitionEvent] { [] }
  open func panCancelled() {}
  /// A tap; true when the transition acts on it there (what it causes comes with the frames,
  /// from `afterStep`), false when it ignores it and nothing changed.
  open func tap(at point: Point) -> Bool { false }
  /// A swipe; true when the transition acts on it, false when it ignores it.
  open func swipe(_ direction: SwipeDirection, at point: Point?, velocity: Vector?) -> Bool {
    false
  }
  /// Called after each frame's steps, to notice outcomes; returns them (`done`).
  open func afterStep() -> [TransitionEvent] { [] }
  /// The spring and the decay its parameters give, if they give one (`get`'s `motion`).
  open var motionInForce: MotionInForce? { nil }

  /// Holds the point of `item` under the finger at `point` (a rigid attachment of length 0:
  /// `AttachmentBehavior.holdsPointOnAnchor`); move the grip's `anchorPoint` with the finger.
  /// The item is caught where it is, so touching a moving item stops it without a jump; from
  /// then on the touched point is under the finger at the end of every frame, and the item moves
  /// with the finger's velocity. Rails and boundaries still constrain it.
  public final func grab(_ item: DynamicItem, at point: Point) -> AttachmentBehavior {
    let grip = fingerAttachment(item, at: point)
    animator.addBehavior(grip)
    return grip
  }

  /// Hangs `item` from the finger at `point` by a spring of rest length zero (`frequency` Hz,
  /// `damping` ratio), for transitions whose seed drags through a spring (snake): it pulls only
  /// once the finger moves, and trails the finger as the seed's spring does.
  public final func grabBySpring(
    _ item: DynamicItem, at point: Point, frequency: Double, damping: Double
  ) -> AttachmentBehavior {
    let spring = fingerAttachment(item, at: point)
    spring.frequency = frequency
    spring.damping = damping
    animator.addBehavior(spring)
    return spring
  }

  /// An attachment of length 0 from the point of `item` under `point` to an anchor there.
  private func fingerAttachment(_ item: DynamicItem, at point: Point) -> AttachmentBehavior {
    let attachment = try! AttachmentBehavior(
      item: item, offsetFromCenter: (point - item.center).rotated(by: -item.angle),
      attachedToAnchor: point)
    attachment.length = 0
    return attachment
  }

  /// The handoff of a release as the event reports it, all in one place: what `handOff` gave
  /// the item, how the velocity was estimated, and where the item goes: the transition's own
  /// landing, else the decay that now moves the item (`decayProjection`), else nothing. The
  /// session names it (`Session.event`).
  private func completed(_ given: Handoff, estimate: ReleaseEstimate?) -> Handoff {
    var handoff = given
    handoff.estimate = estimate
    if let landing = landing(after: handoff) {
      handoff.projection = landing.projection
      handoff.detent = landing.detent
      handoff.spring = landing.spring
    } else if let coast = animator.decayProjection(of: handoff.item) {
      (handoff.decay, handoff.projection) = coast
    }
    return handoff
  }

  /// Gives `item` the finger's release `velocity` through `behavior`, as far as the item's
  /// constraints let it move (`DynamicAnimator.allowedVelocity`); returns the handoff to report
  /// (completed by `handle`).
  public final func handOff(
    _ item: DynamicItem, velocity: Vector, via behavior: DynamicItemBehavior
  ) -> TransitionEvent {
    let allowed = animator.allowedVelocity(velocity, for: item)
    behavior.addLinearVelocity(allowed.velocity - behavior.linearVelocity(for: item), for: item)
    let took = behavior.linearVelocity(for: item)
    return .handoff(
      Handoff(
        item: item.identifier, gestureVelocity: velocity, itemVelocity: took,
        constraints: allowed.constraints, velocityError: (took - allowed.velocity).length))
  }
}

/// The transitions dynd knows, by name.
public enum TransitionRegistry {
  public static let all: [Transition.Type] = [
    LockScreen.self, WavePop.self, SidebarMenu.self, SnapTransition.self, DragTransition.self,
    SnakeTransition.self, HeavyTransition.self, SpringyList.self, Toss.self,
    NotificationCenterSheet.self, PipCorners.self, Sheet.self, Fling.self,
  ]

  public static var names: [String] { all.map { $0.name } }

  public static func type(named name: String) -> Transition.Type? {
    all.first { $0.name == name }
  }
}
