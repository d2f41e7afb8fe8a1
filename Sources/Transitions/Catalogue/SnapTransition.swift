import Dynamics
import Primitives

/// `snap` (seed 000, BepBop's "Snappy!" label): a tap snaps the label to the tap point with
/// `damping`, replacing the previous snap; `done` `snapped` when it rests there, upright.
public final class SnapTransition: Transition {
  override public class var name: String { "snap" }

  /// What clients may set, in the order they see it.
  struct Parameters: ParameterSet {
    let damping = Parameter(
      "damping", 0.5, 0...1, unit: "0 most oscillation … 1 least",
      source: "seed 000: the damping slider, UISnapBehavior's default 0.5")
    let labelWidth = Parameter(
      "label_width", 95, 1...320, unit: "pt", source: "seed 000: the \"Snappy!\" label 95×47")
    let labelHeight = Parameter("label_height", 47, 1...568, unit: "pt", source: "seed 000")
  }

  override public class var parameters: [TransitionParameter] { Parameters.declarations }

  public let label: DynamicItem
  private let p: ParameterReader<Parameters>
  private var snap: SnapBehavior?
  /// A snap is under way and its `done` not yet reported.
  private var snapping = false

  public required init(parameters: ParameterValues, bounds: Rect) throws {
    p = ParameterReader(parameters)
    let size = Size(width: p.labelWidth, height: p.labelHeight)
    // Near the storyboard's frame (112, 80) (SnapScene): top at y = 80, centered on x = 160 so
    // that any label_width stays centered.
    label = try DynamicItem(
      identifier: "label",
      center: Point(x: bounds.minX + 160, y: bounds.minY + 80 + size.height / 2),
      size: size)
    try super.init(parameters: parameters, bounds: bounds)
    items = [label]
  }

  override public func tap(at point: Point) -> [TransitionEvent] {
    if let snap { animator.removeBehavior(snap) }
    let s = SnapBehavior(item: label, snapTo: point)
    s.damping = p.damping
    animator.addBehavior(s)
    snap = s
    snapping = true
    return []
  }

  override public func afterStep() -> [TransitionEvent] {
    guard snapping, !animator.isRunning else { return [] }
    snapping = false
    return [.done(outcome: "snapped")]
  }
}
