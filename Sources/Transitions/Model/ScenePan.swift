import Dynamics
import Primitives

/// The pan of a scene session (issue 37): what a `gesture` does to a scene a client built. The
/// finger grips the topmost item under it (the last in the scene's order whose shape's frame,
/// turned with the item, holds the touch; an item of a group grips its group) rigidly, 1:1, as
/// a transition's grip does (`Transition.grab`); the release hands the finger's velocity to it
/// exactly, through the last `dynamic_item` behavior holding it (or one made to carry it), and
/// reports the `handoff`; a cancel lets go without one. A touch on no item grips nothing, and
/// its release reports nothing.
open class ScenePan: Transition {
  override open class var name: String { "scene" }

  /// The item a touch at a point grips, nil for none (the scene's hit test).
  public typealias HitTest = (Point) -> DynamicItem?
  /// The `dynamic_item` behavior a released item's velocity goes through.
  public typealias Carrier = (DynamicItem) -> DynamicItemBehavior

  private let hitTest: HitTest
  private let carrier: Carrier
  private var grip: (item: DynamicItem, attachment: AttachmentBehavior)?

  /// A pan over `animator`; `items` are what frames report, when it drives a transition.
  public init(
    animator: DynamicAnimator, items: [DynamicItem] = [], hitTest: @escaping HitTest,
    carrier: @escaping Carrier
  ) {
    self.hitTest = hitTest
    self.carrier = carrier
    super.init(animator: animator, bounds: animator.referenceBounds ?? TransitionBounds.standard)
    self.items = items
  }

  /// Whether `item`'s shape, turned with it, holds `point` (a rectangle or a path by its frame,
  /// an ellipse by itself): the hit test of a scene's pan.
  public static func holds(_ item: DynamicItem, _ point: Point) -> Bool {
    let local = (point - item.center).rotated(by: -item.angle)
    let (a, b) = (item.size.width / 2, item.size.height / 2)
    if case .ellipse = item.shape {
      return (local.dx * local.dx) / (a * a) + (local.dy * local.dy) / (b * b) <= 1
    }
    return abs(local.dx) <= a && abs(local.dy) <= b
  }

  /// Not opened by name: a scene pan is made over a scene's animator.
  public required init(parameters: ParameterValues, bounds: Rect) throws {
    hitTest = { _ in nil }
    carrier = { DynamicItemBehavior(items: [$0]) }
    try super.init(parameters: parameters, bounds: bounds)
  }

  /// The item held now, if any, and where the grip holds it.
  public var heldItem: DynamicItem? { grip?.item }
  public var heldAnchor: Point? { grip?.attachment.anchorPoint }
  /// Where the pan that holds it began.
  public private(set) var startPoint: Point?

  override open func panBegan(at point: Point) {
    letGo()
    guard let item = item(grippedAt: point) else { return }
    startPoint = point
    willGrip(item, at: point)
    grip = (item, attach(item, at: gripPoint(of: item, touchedAt: point)))
  }

  /// Attaches the finger to `item` at `point`: the rigid 1:1 grip (`grab`; a subclass may hang
  /// it from a spring instead: `grabBySpring`).
  open func attach(_ item: DynamicItem, at point: Point) -> AttachmentBehavior {
    grab(item, at: point)
  }

  /// The point of `item` a touch at `point` grips: that point (a subclass may choose another,
  /// as a pan locked to an axis grips the item on its center line).
  open func gripPoint(of item: DynamicItem, touchedAt point: Point) -> Point { point }

  /// The item a pan that begins at `point` grips: the hit test's (a subclass may choose
  /// otherwise).
  open func item(grippedAt point: Point) -> DynamicItem? { hitTest(point) }

  /// Called when a pan that begins at `point` grips `item`, before the grip is added.
  open func willGrip(_ item: DynamicItem, at point: Point) {}

  override open func panChanged(at point: Point, velocity: Vector) {
    grip?.attachment.anchorPoint = anchor(for: point)
  }

  /// Where the grip's anchor goes for the finger at `point`: there (a subclass may lock it to
  /// an axis).
  open func anchor(for point: Point) -> Point { point }

  override open func panEnded(at point: Point, velocity: Vector) -> [TransitionEvent] {
    guard let item = grip?.item else { return [] }
    letGo()
    return [handOff(item, velocity: velocity, via: carrier(item))]
  }

  override open func panCancelled() {
    letGo()
  }

  /// Removes the grip, if any (also when the scene lost the item: its behaviors went with it).
  public func letGo() {
    if let grip { animator.removeBehavior(grip.attachment) }
    grip = nil
  }
}
