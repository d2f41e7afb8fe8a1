import Primitives

/// Carries its items to a target along the exact solution of a damped spring, as SwiftUI's
/// `Spring`, Android's `SpringAnimation`, Flutter's `SpringSimulation`, libadwaita's
/// `AdwSpringAnimation` and Rebound do (`SpringParameters` converts their parameters).
///
/// Each item's center follows `SpringMotion` evaluated at the animator's time, not integrated,
/// so it is exact at any frame rate; while the spring moves an item nothing else does (gravity,
/// pushes, snaps, attachments, fields, collisions: its body is kinematic), and it does not turn.
/// An item starts the first internal step the spring acts on it, with `initialVelocity` if one
/// was given, else with its own velocity then; a finger's grip keeps the spring off the item,
/// which starts afresh at the release with the velocity the release gave it. At rest
/// (`SpringMotion.restDistance`, `restSpeed`) the item lands exactly on the target and stays
/// there; the animator may then pause. When several springs or decays hold an item, the last
/// in the behavior tree moves it.
public final class SpringBehavior: ExactMotionBehavior<SpringMotion> {
  /// Where every item is carried.
  public private(set) var target: Point
  public private(set) var parameters: SpringParameters

  /// Throws for a non-finite target or velocity, or constants whose solution is not finite
  /// (`SpringParameters.hasFiniteSolution`).
  public init(
    items: [DynamicItem] = [], target: Point, parameters: SpringParameters = .swiftUIDefault,
    initialVelocity: Vector? = nil
  ) throws {
    try Self.validate(target: target, parameters: parameters)
    self.target = target
    self.parameters = parameters
    try super.init(items: items, initialVelocity: initialVelocity, kind: "spring")
  }

  /// Changes the target and, if given, the constants of the running spring. Every item the
  /// spring moves starts afresh at the next internal step from its position and velocity then,
  /// so neither jumps. Throws as `init`; nothing changes then.
  public func retarget(to target: Point, parameters: SpringParameters? = nil) throws {
    try Self.validate(target: target, parameters: parameters ?? self.parameters)
    self.target = target
    if let parameters { self.parameters = parameters }
    restartAll()
  }

  override func motion(from position: Point, velocity: Vector) -> SpringMotion {
    SpringMotion(parameters, from: position, velocity: velocity, to: target)
  }

  private static func validate(target: Point, parameters: SpringParameters) throws {
    guard target.isFinite else {
      throw DynamicsError(.nonFinite, "spring target \(target) is not finite")
    }
    guard parameters.hasFiniteSolution else {
      throw DynamicsError(
        .outOfRange,
        "spring mass \(parameters.mass), stiffness \(parameters.stiffness) and damping "
          + "\(parameters.damping) need mass and stiffness > 0 and damping ≥ 0, finite")
    }
  }
}
