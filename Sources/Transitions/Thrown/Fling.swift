import Dynamics
import Primitives

/// `fling`: a card dragged 1:1 by the point touched (it does not turn), released into a decay
/// started with the release velocity exactly: it coasts and stops where the platform whose decay
/// the parameters name stops it — UIScrollView's deceleration by default, Android
/// `FlingAnimation`'s friction or Flutter `FrictionSimulation`'s drag when given (PROTOCOL.md
/// section 6, *Decay*). The `handoff` reports that resting point as `projection`; `done`
/// `stopped` once the card rests there. Nothing bounds it: a hard fling carries it off screen,
/// as it would carry a map or a canvas. Touching the coasting card catches it where it is.
public final class Fling: Transition {
  override public class var name: String { "fling" }

  /// What clients may set, in the order they see it. The decay is given by at most one of
  /// `deceleration_rate`, `friction` and `drag`; none given: `deceleration_rate`'s default.
  struct Parameters: ParameterSet {
    let decelerationRate = Parameter.decelerationRate
    let friction = Parameter(
      "friction", 1, 0.01...100, unit: "",
      source: "Android FlingAnimation.setFriction: its default, 1")
    // At most the decay's own largest drag (0.988071: `DecayField`), the slowest a decay goes.
    let drag = Parameter(
      "drag", 0.135, 0.0001...DecayField.drag.range.upperBound, unit: "per s",
      source: "Flutter FrictionSimulation: the drag of its documentation's example")
    let cardWidth = Parameter(
      "card_width", 160, from: 10, to: "width", unit: "pt", source: "dynd")
    let cardHeight = Parameter(
      "card_height", 100, from: 10, to: "height", unit: "pt", source: "dynd")
  }

  override public class var parameters: [TransitionParameter] { Parameters.declarations }

  public let card: DynamicItem
  /// The decay a release hands the card to.
  public let model: DecayModel
  private let material: DynamicItemBehavior
  private var grip: AttachmentBehavior?
  private var coast: DecayBehavior?

  public required init(parameters: ParameterValues, bounds: Rect) throws {
    let p = ParameterReader<Parameters>(parameters)
    model = try Self.model(p)
    card = try DynamicItem(
      identifier: "card", center: bounds.center,
      size: Size(width: p.cardWidth, height: p.cardHeight))
    material = DynamicItemBehavior(items: [card])
    material.allowsRotation = false
    try super.init(parameters: parameters, bounds: bounds)
    items = [card]
    animator.addBehavior(material)
  }

  /// The decay the client chose (`GivenMotion.decay`): UIScrollView's default rate when none
  /// is given; throws when more than one is.
  override public var motionInForce: MotionInForce? { MotionInForce(decay: model) }

  static func model(_ p: ParameterReader<Parameters>) throws -> DecayModel {
    try GivenMotion.decay(given: p.given) { p[dynamicMember: parameter($0)] }
  }

  private static func parameter(_ field: DecayField) -> KeyPath<Parameters, Parameter<Double>> {
    switch field {
    case .decelerationRate: \.decelerationRate
    case .friction: \.friction
    case .drag: \.drag
    }
  }

  override public func panBegan(at point: Point) {
    if let coast { animator.removeBehavior(coast) }
    coast = nil
    if let grip { animator.removeBehavior(grip) }
    grip = grab(card, at: point)
  }

  override public func panChanged(at point: Point, velocity: Vector) {
    grip?.anchorPoint = point
  }

  override public func panEnded(at point: Point, velocity: Vector) -> [TransitionEvent] {
    guard let grip else { return [] }
    animator.removeBehavior(grip)
    self.grip = nil
    let handoff = handOff(card, velocity: velocity, via: material)
    // Without an initial velocity the decay starts from the card's: the one just handed over.
    // Its parameter was validated with the transition's, so the decay accepts it.
    let decay = try! DecayBehavior(items: [card], model: model)
    animator.addBehavior(decay)
    coast = decay
    return [handoff]
  }

  override public func panCancelled() {
    if let grip { animator.removeBehavior(grip) }
    grip = nil
  }

  override public func afterStep() -> [TransitionEvent] {
    guard let coast, coast.isAtRest(card) else { return [] }
    animator.removeBehavior(coast)
    self.coast = nil
    return [.done(outcome: "stopped")]
  }
}
