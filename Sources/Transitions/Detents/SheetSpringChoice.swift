/// Which of the five spring parameter sets a client gave the sheet, with its values: the
/// set is named by the parameters given, as a `spring` behavior's is by its fields.
public enum SheetSpringChoice: Equatable, Sendable {
  /// No spring parameter given: SwiftUI's default spring.
  case standard
  /// SwiftUI `Spring(response:dampingRatio:)`, mass 1.
  case response(Double, dampingRatio: Double)
  /// SwiftUI `Spring(duration:bounce:)`, Flutter `SpringDescription.withDurationAndBounce`.
  case duration(Double, bounce: Double)
  /// Android `SpringForce`, libadwaita `AdwSpringParams`, Flutter `withDampingRatio`.
  case stiffness(Double, dampingRatio: Double, mass: Double)
  /// Flutter `SpringDescription`, SwiftUI `Spring(mass:stiffness:damping:)`.
  case stiffnessDamping(Double, damping: Double, mass: Double)
  /// Origami's tension and friction, converted as Rebound's `fromOrigamiTensionAndFriction`.
  case origami(tension: Double, friction: Double)

  /// The parameter names of each set, in the order a set is preferred when the names given fit
  /// more than one (`damping_ratio` alone is SwiftUI's response set; `stiffness` alone is
  /// Android's set, with its damping ratio).
  public static let sets: [[String]] = [
    ["response", "damping_ratio"],
    ["duration", "bounce"],
    ["stiffness", "damping_ratio", "mass"],
    ["stiffness", "damping", "mass"],
    ["tension", "friction"],
  ]

  /// The index in `sets` of the set holding every name of `given` (the spring parameters a
  /// client gave); nil when `given` is empty. Throws when no one set holds them all.
  static func set(of given: Set<String>) throws -> Int? {
    guard !given.isEmpty else { return nil }
    guard let index = sets.firstIndex(where: { given.isSubset(of: $0) }) else {
      throw TransitionError(
        kind: .unknownParameter,
        message: "the spring is given by one parameter set, not "
          + given.sorted().joined(separator: " with ") + " (the sets: "
          + sets.map { $0.joined(separator: "+") }.joined(separator: ", ") + ")")
    }
    return index
  }
}
