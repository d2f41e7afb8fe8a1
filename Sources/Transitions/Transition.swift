import Dynamics

/// Something a transition tells its watchers besides frames.
public enum TransitionEvent: Equatable, Sendable {
  /// A gesture ended and the dynamics took over: the finger's velocity and the item's, which
  /// must be equal.
  case handoff(item: String, gestureVelocity: Vector, itemVelocity: Vector)
  /// The gesture cycle finished with this outcome (`closed`, `opened`, `bounced`, …).
  case done(outcome: String)
}

/// Directions of a swipe.
public enum SwipeDirection: String, Sendable, CaseIterable {
  case left
  case right
  case up
  case down
}

/// A named transition: items and behaviors of `Dynamics`, retuned by gestures.
///
/// Subclasses create their scene in `init` and override the gesture hooks. The session calls
/// `handle`, `tap` or `swipe` for input, `afterStep` after each frame's steps, and forwards
/// `takeEvents()` to its watchers.
open class Transition {
  /// The name clients open it by.
  open class var name: String { fatalError("subclasses name themselves") }
  /// Every tunable constant, with its default and source.
  open class var parameters: [TransitionParameter] { [] }

  public let animator: DynamicAnimator
  public let bounds: Rect
  /// The items reported on the wire, in this order.
  public internal(set) var items: [DynamicItem] = []
  public internal(set) var tracker = GestureTracker()
  private var pending: [TransitionEvent] = []

  /// Creates the transition in `bounds` with validated parameters.
  public required init(parameters: ParameterValues, bounds: Rect) throws {
    self.bounds = bounds
    animator = DynamicAnimator(referenceBounds: bounds)
  }

  /// Extra numbers reported with frames and `done` (e.g. `background_alpha`), sorted by name.
  open var values: [(name: String, value: Double)] { [] }

  /// Feeds a pan event; `now` stands in for the client's timestamp when it sent none.
  public final func handle(_ event: GestureEvent, now: Double) {
    let t = event.time ?? now
    switch event.phase {
    case .began:
      tracker.record(.began, event.point, at: t)
      panBegan(at: event.point)
    case .changed:
      if !tracker.isActive {
        tracker.record(.began, event.point, at: t)
        panBegan(at: event.point)
      }
      tracker.record(.changed, event.point, at: t)
      panChanged(at: event.point, velocity: tracker.velocity)
    case .ended:
      if tracker.isActive { tracker.record(.ended, event.point, at: t) }
      let velocity = event.velocity ?? tracker.velocity
      panEnded(at: event.point, velocity: velocity)
      tracker.reset()
    case .cancelled:
      panCancelled()
      tracker.reset()
    }
  }

  open func panBegan(at point: Point) {}
  open func panChanged(at point: Point, velocity: Vector) {}
  open func panEnded(at point: Point, velocity: Vector) {}
  open func panCancelled() {}
  open func tap(at point: Point) {}
  open func swipe(_ direction: SwipeDirection, at point: Point?, velocity: Vector?) {}
  /// Called after each frame's steps, to notice outcomes.
  open func afterStep() {}

  /// Queues an event for the watchers.
  public final func emit(_ event: TransitionEvent) { pending.append(event) }

  /// Events queued since the last call.
  public final func takeEvents() -> [TransitionEvent] {
    defer { pending = [] }
    return pending
  }

  /// Adds a spring of rest length zero from the touched point of `item` to the finger at
  /// `point`. It pulls only once the finger moves, so grabbing a moving item catches it as it is
  /// (position and velocity), with no jump.
  public final func grab(
    _ item: DynamicItem, at point: Point, frequency: Double, damping: Double
  ) -> AttachmentBehavior {
    let spring = try! AttachmentBehavior(
      item: item, offsetFromCenter: (point - item.center).rotated(by: -item.angle),
      attachedToAnchor: point)
    spring.length = 0
    spring.frequency = frequency
    spring.damping = damping
    animator.addBehavior(spring)
    return spring
  }

  /// Gives `item` exactly `velocity` through `behavior` and reports the handoff.
  public final func handOff(
    _ item: DynamicItem, velocity: Vector, via behavior: DynamicItemBehavior
  ) {
    behavior.addLinearVelocity(velocity - behavior.linearVelocity(for: item), for: item)
    emit(
      .handoff(
        item: item.identifier, gestureVelocity: velocity,
        itemVelocity: behavior.linearVelocity(for: item)))
  }
}

/// The transitions dynd knows, by name.
public enum TransitionRegistry {
  public static let all: [Transition.Type] = [
    LockScreen.self, WavePop.self, SidebarMenu.self, SnapTransition.self, DragTransition.self,
    SnakeTransition.self, HeavyTransition.self, SpringyList.self, Toss.self,
    NotificationCenterSheet.self,
  ]

  public static var names: [String] { all.map { $0.name } }

  public static func type(named name: String) -> Transition.Type? {
    all.first { $0.name == name }
  }
}
