import Dynamics
import Primitives

/// `pip-corners` (the picture-in-picture demo of WWDC 2015's “What's New in UIKit Dynamics and
/// Visual Effects”, Apple's StickyCorners sample): a small video window that sits in a corner of
/// the screen, `margin` from both edges. A pan that begins on it drags it by the touched point
/// (it never turns). On release it goes to the corner its velocity projects it toward and stays
/// there: `done` `top_left`, `top_right`, `bottom_left` or `bottom_right` once at rest.
///
/// - Projection: the window's center plus the release velocity's travel under UIScrollView's
///   deceleration, v × d / (1000 (1 − d)) with `deceleration_rate` d per millisecond (0.998, the
///   normal rate: 0.499 s × v). The corner is the one whose quarter of the bounds (split at the
///   midlines between the corner targets) holds the projected point, which is also the nearest
///   corner target. A slow release thus goes to the nearest corner.
/// - Fields: one spring field per corner, at the corner's target (the window's center there),
///   each acting in its quarter (a `Region.size` box centered on the target, reaching the
///   midlines: StickyCorners' layout). The window's density gives it mass 1 whatever its size,
///   so `spring_strength` k is ω² (ω = 15 rad/s by default) and `resistance` r sets the damping
///   ratio r / 2ω (1.2: overdamped, no overshoot).
/// - Travel: a release may leave the window in another corner's quarter, so from the release
///   until the window is in its corner's quarter, the chosen corner's field acts everywhere and
///   the other three let go of the window; then all four act in their quarters again.
/// - While the finger holds the window no field acts on it. The bounds are walls, so a fling
///   faster than the damping can stop (about 26/s × the distance to the target, per axis) ends
///   against the screen edge, at most `margin` past the target, and comes back.
/// - The release velocity is handed over exactly. A tap does nothing.
public final class PipCorners: Transition {
  override public class var name: String { "pip-corners" }

  /// What clients may set, in the order they see it.
  struct Parameters: ParameterSet {
    let windowWidth = Parameter(
      "window_width", 160, from: 10, to: "width - 80", unit: "pt",
      source: "dynd: a 16:9 video half as wide as the 320 pt screen; at most what the widest "
        + "margins leave")
    let windowHeight = Parameter(
      "window_height", 90, from: 10, to: "height - 168", unit: "pt", source: "dynd: 16:9")
    let margin = Parameter(
      "margin", 28, 0...40, unit: "pt",
      source: "StickyCorners: half of a tenth of the screen's longer side")
    let springStrength = Parameter(
      "spring_strength", 225, 1...10_000, unit: "N/m on mass 1 (ω² in 1/s²)",
      source: "dynd: ω = 15 rad/s, done within 1.5 s of a fling")
    let resistance = Parameter(
      "resistance", 36, 0...1000, unit: "1/s",
      source: "dynd: damping ratio 1.2 with the default spring, no overshoot")
    let decelerationRate = Parameter.decelerationRate
  }

  override public class var parameters: [TransitionParameter] { Parameters.declarations }

  /// A corner of the bounds; the raw values are the `done` outcomes.
  public enum Corner: String, CaseIterable, Sendable {
    case topLeft = "top_left"
    case topRight = "top_right"
    case bottomLeft = "bottom_left"
    case bottomRight = "bottom_right"

    var isLeft: Bool { self == .topLeft || self == .bottomLeft }
    var isTop: Bool { self == .topLeft || self == .topRight }
  }

  private enum Phase: Equatable {
    case resting
    case dragging
    /// Released toward `corner`; `reached` once the window is in its corner's quarter.
    case settling(Corner, reached: Bool)
  }

  public let window: DynamicItem
  /// Where the window's center rests in each corner.
  public let targets: [Corner: Point]
  private let p: ParameterReader<Parameters>
  private let material: DynamicItemBehavior
  private var fields: [Corner: FieldBehavior] = [:]
  private var quarters: [Corner: Region] = [:]
  private var grip: AttachmentBehavior?
  private var phase = Phase.resting

  public required init(parameters: ParameterValues, bounds: Rect) throws {
    p = ParameterReader(parameters)
    let size = Size(width: p.windowWidth, height: p.windowHeight)
    let dx = p.margin + size.width / 2
    let dy = p.margin + size.height / 2
    var targets: [Corner: Point] = [:]
    for corner in Corner.allCases {
      targets[corner] = Point(
        x: corner.isLeft ? bounds.minX + dx : bounds.maxX - dx,
        y: corner.isTop ? bounds.minY + dy : bounds.maxY - dy)
    }
    self.targets = targets
    window = try DynamicItem(identifier: "window", center: targets[.bottomRight]!, size: size)
    material = DynamicItemBehavior(items: [window])
    // Mass 1 whatever the size, so that the spring's strength is ω² and the damping ratio
    // does not change with the window's size.
    material.density = 10_000 / (size.width * size.height)
    material.resistance = p.resistance
    material.friction = 0
    material.allowsRotation = false
    try super.init(parameters: parameters, bounds: bounds)
    items = [window]
    let walls = CollisionBehavior(items: [window])
    try walls.setTranslatesReferenceBoundsIntoBoundary(true)
    animator.addBehavior(material)
    animator.addBehavior(walls)
    let center = bounds.center
    for corner in Corner.allCases {
      let target = targets[corner]!
      // A box centered on the target reaching the midlines, and at least the margin outward
      // (where the walls let the window go past the target).
      let quarter = Region.size(
        Size(
          width: 2 * max(abs(center.x - target.x), p.margin),
          height: 2 * max(abs(center.y - target.y), p.margin)))
      let field = FieldBehavior(kind: .spring, items: [window])
      field.position = target
      field.strength = p.springStrength
      field.region = quarter
      fields[corner] = field
      quarters[corner] = quarter
      animator.addBehavior(field)
    }
  }

  /// The corner whose quarter holds `point`: left of the vertical midline is left, above the
  /// horizontal one is top (a point on a midline goes right or down).
  func corner(of point: Point) -> Corner {
    let left = point.x < bounds.center.x
    let top = point.y < bounds.center.y
    switch (left, top) {
    case (true, true): return .topLeft
    case (false, true): return .topRight
    case (true, false): return .bottomLeft
    case (false, false): return .bottomRight
    }
  }

  /// Where the window would stop, decelerating from `velocity` as a scroll view does.
  func projection(of velocity: Vector) -> Point {
    let d = p.decelerationRate
    return window.center + velocity * (d / (1000 * (1 - d)))
  }

  override public func panBegan(at point: Point) {
    guard window.frame.contains(point) || phase == .dragging else { return }
    for corner in Corner.allCases { fields[corner]!.removeItem(window) }
    if let grip { animator.removeBehavior(grip) }
    grip = grab(window, at: point)
    phase = .dragging
  }

  override public func panChanged(at point: Point, velocity: Vector) {
    grip?.anchorPoint = point
  }

  override public func panEnded(at point: Point, velocity: Vector) -> [TransitionEvent] {
    guard phase == .dragging else { return [] }
    let handoff = release(velocity)
    return [handoff]
  }

  override public func panCancelled() {
    guard phase == .dragging else { return }
    _ = release(.zero)
  }

  /// Lets go of the window with `velocity` and sends it to the corner that projects.
  private func release(_ velocity: Vector) -> TransitionEvent {
    if let grip { animator.removeBehavior(grip) }
    grip = nil
    let chosen = corner(of: projection(of: velocity))
    // In a fixed order (a dictionary's varies from run to run).
    for corner in Corner.allCases {
      fields[corner]!.region = corner == chosen ? .infinite : quarters[corner]!
    }
    fields[chosen]!.addItem(window)
    phase = .settling(chosen, reached: false)
    return handOff(window, velocity: velocity, via: material)
  }

  override public func afterStep() -> [TransitionEvent] {
    guard case .settling(let chosen, let reached) = phase else { return [] }
    if !reached, isOnlyIn(chosen) {
      // In its corner's quarter: every field back to its own quarter.
      fields[chosen]!.region = quarters[chosen]!
      for corner in Corner.allCases where corner != chosen { fields[corner]!.addItem(window) }
      phase = .settling(chosen, reached: true)
    }
    guard !animator.isRunning else { return [] }
    phase = .resting
    return [.done(outcome: chosen.rawValue)]
  }

  /// Whether the window's center is in `corner`'s quarter and in no other.
  private func isOnlyIn(_ corner: Corner) -> Bool {
    Corner.allCases.allSatisfy { c in
      quarters[c]!.contains(window.center - targets[c]!) == (c == corner)
    }
  }
}
