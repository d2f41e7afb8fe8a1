import Primitives

extension Sheet {
  /// The sheet's detents by name, lowest first; `done` reports these words.
  public enum DetentName: String, CaseIterable, Sendable {
    case collapsed
    case medium
    case large
  }

  /// What clients may set, in the order they see it. The spring fields are those of the five
  /// parameter sets (`SpringParameterSet`, `SpringField`); each field's default is SwiftUI's default spring,
  /// `Spring(duration: 0.5, bounce: 0)`, given in that set (rounded to 0.001), so that giving
  /// one field of a set changes only that field of the default spring.
  struct Parameters: ParameterSet {
    let collapsedDetent = Parameter(
      "collapsed_detent", 88, from: 0, to: "height", unit: "pt shown",
      source: "dynd: a 44 pt grabber row over a 44 pt search field")
    let mediumDetent = Parameter(
      "medium_detent", "height * 0.5", from: 0, to: "height", unit: "pt shown",
      source: "UISheetPresentationController.Detent.medium: half the height")
    let largeDetent = Parameter(
      "large_detent", "height - 20", from: 0, to: "height", unit: "pt shown",
      source: "dynd: the screen below the iOS 7 status bar (20 pt)")
    let initialDetent = Parameter(
      "initial_detent", choice: DetentName.collapsed, source: "dynd")
    let decelerationRate = Parameter.decelerationRate
    let response = Parameter(
      "response", 0.5, 0.01...10, unit: "s", source: "SwiftUI Spring(): response")
    let dampingRatio = Parameter(
      "damping_ratio", 1, 0.01...10, unit: "", source: "SwiftUI Spring(): damping ratio")
    let duration = Parameter(
      "duration", 0.5, 0.01...10, unit: "s", source: "SwiftUI Spring(duration: 0.5, bounce: 0)")
    let bounce = Parameter(
      "bounce", 0, -0.99...0.99, unit: "", source: "SwiftUI Spring(duration: 0.5, bounce: 0)")
    let stiffness = Parameter(
      "stiffness", 157.914, 0.1...100_000, unit: "N/m", source: "SwiftUI Spring(): stiffness")
    let damping = Parameter(
      "damping", 25.133, 0.01...10_000, unit: "N·s/m", source: "SwiftUI Spring(): damping")
    let mass = Parameter("mass", 1, 0.01...1000, unit: "kg", source: "SwiftUI Spring(): mass")
    let tension = Parameter(
      "tension", 20.031, 1...1000, unit: "Origami",
      source: "SwiftUI Spring() by Rebound's origamiValueFromTension")
    let friction = Parameter(
      "friction", 8.044, 1...1000, unit: "Origami",
      source: "SwiftUI Spring() by Rebound's origamiValueFromFriction")
  }

  /// The detents the parameters place; throws when two are at the same height.
  static func detents(_ p: ParameterReader<Parameters>) throws -> Detents {
    let heights = [p.collapsedDetent, p.mediumDetent, p.largeDetent]
    guard
      let detents = Detents(
        zip(DetentName.allCases, heights).map { Detent($0.rawValue, height: $1) })
    else {
      throw TransitionError(
        kind: .outOfRange,
        message:
          "collapsed_detent, medium_detent and large_detent must be three different heights, not "
          + heights.map { "\($0)" }.joined(separator: ", "))
    }
    return detents
  }

  /// The spring the client gave (`GivenMotion.spring`): SwiftUI's default spring when none is
  /// given. Throws when the fields given belong to no one set.
  static func spring(_ p: ParameterReader<Parameters>) throws -> GivenMotion.Spring {
    try GivenMotion.spring(given: p.given) { value($0, p) }
  }

  private static func value(_ field: SpringField, _ p: ParameterReader<Parameters>) -> Double {
    switch field {
    case .response: p.response
    case .dampingRatio: p.dampingRatio
    case .duration: p.duration
    case .bounce: p.bounce
    case .stiffness: p.stiffness
    case .damping: p.damping
    case .mass: p.mass
    case .tension: p.tension
    case .friction: p.friction
    }
  }
}
