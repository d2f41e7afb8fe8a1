import Dynamics
import DynamicsScenes
import Primitives

/// `snap` (seed 000, BepBop's "Snappy!" label: the `SnapScene`): a tap snaps the label to the tap point with
/// `damping`, replacing the previous snap; `done` `snapped` when it rests there, upright.
public final class SnapTransition: Transition {
  override public class var name: String { "snap" }

  /// What clients may set, in the order they see it.
  struct Parameters: ParameterSet {
    let damping = Parameter(
      "damping", SnapScene.defaultDamping, 0...1, unit: "0 most oscillation … 1 least",
      source: "seed 000: the damping slider, UISnapBehavior's default 0.5")
    let labelWidth = Parameter(
      "label_width", .fixed(SnapScene.labelSize.width), from: 1, to: "width", unit: "pt",
      source: "seed 000: the \"Snappy!\" label 95×47")
    let labelHeight = Parameter(
      "label_height", .fixed(SnapScene.labelSize.height), from: 1, to: "height", unit: "pt",
      source: "seed 000")
  }

  override public class var parameters: [TransitionParameter] { Parameters.declarations }

  public let label: DynamicItem
  private let scene: SnapScene
  /// A snap is under way and its `done` not yet reported.
  private var snapping = false

  public required init(parameters: ParameterValues, bounds: Rect) throws {
    let p = ParameterReader<Parameters>(parameters)
    scene = try SnapScene(
      bounds: bounds, labelSize: Size(width: p.labelWidth, height: p.labelHeight))
    scene.damping = p.damping
    label = scene.label
    super.init(animator: scene.animator, bounds: bounds)
    items = [label]
  }

  override public func tap(at point: Point) -> Bool {
    scene.tap(point)
    snapping = true
    return true
  }

  override public func afterStep() -> [TransitionEvent] {
    guard snapping, !animator.isRunning else { return [] }
    snapping = false
    return [.done(outcome: "snapped")]
  }
}
