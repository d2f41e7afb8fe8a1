import ArgumentParser
import Dynamics
import Glibc
import Primitives

/// Springs and decays run through the engine against their closed forms (issue 29).
struct MotionAccuracy: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "motion",
    abstract: "Measure springs and decays through the engine against their closed forms.")

  @Option(help: "Simulated seconds per run.")
  var seconds = 2.0

  func validate() throws {
    guard seconds > 0, seconds <= 60 else { throw ValidationError("seconds must be in (0, 60]") }
  }

  static let start = Point(x: 60, y: 100)
  static let target = Point(x: 260, y: 460)
  static let launch = Vector(dx: -1500, dy: 2500)

  /// One spring per parameter set (and an over-damped one).
  static let springs: [(String, SpringParameters)] = [
    ("response 0.5, damping_ratio 0.7", .response(0.5, dampingRatio: 0.7)),
    ("duration 0.5, bounce 0.3", .duration(0.5, bounce: 0.3)),
    ("duration 0.5, bounce -0.5", .duration(0.5, bounce: -0.5)),
    ("stiffness 1500, damping_ratio 0.5", .stiffness(1500, dampingRatio: 0.5)),
    ("stiffness 100, damping 10, mass 2", .stiffness(100, damping: 10, mass: 2)),
    ("tension 40, friction 7", .origami(tension: 40, friction: 7)),
  ]

  static let decays: [(String, DecayModel)] = [
    ("deceleration_rate 0.998", .scrollView(decelerationRate: 0.998)),
    ("deceleration_rate 0.99", .scrollView(decelerationRate: 0.99)),
    ("friction 1", .fling(friction: 1)),
    ("drag 0.135", .frictionSimulation(drag: 0.135)),
  ]

  func run() throws {
    conversions()
    print("\nworst |engine − closed form| over \(seconds) s, gravity on the same item, while the")
    print("motion runs and once it has landed at rest; stored = Box2D's 32-bit body position")
    print(
      "| motion | fps | position (pt) | velocity (pt/s) | landed: position | landed: velocity "
        + "| stored position (pt) | rests after (s) |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for (name, parameters) in Self.springs {
      for fps in [60.0, 120.0] {
        let motion = SpringMotion(
          parameters, from: Self.start, velocity: Self.launch, to: Self.target)
        let behavior = try SpringBehavior(
          target: Self.target, parameters: parameters, initialVelocity: Self.launch)
        try row(name, fps, behavior, { motion.state(at: $0) }, { behavior.isAtRest($0) })
      }
    }
    for (name, model) in Self.decays {
      for fps in [60.0, 120.0] {
        let motion = DecayMotion(model, from: Self.start, velocity: Self.launch)
        let behavior = try DecayBehavior(model: model, initialVelocity: Self.launch)
        try row(name, fps, behavior, { motion.state(at: $0) }, { behavior.isAtRest($0) })
      }
    }
    restingPoints()
  }

  /// One motion at one frame rate: the worst gaps between the engine and the closed form.
  private func row(
    _ name: String, _ fps: Double, _ behavior: DynamicBehavior,
    _ exact: (Double) -> (position: Point, velocity: Vector), _ atRest: (DynamicItem) -> Bool
  ) throws {
    let animator = DynamicAnimator()
    let item = try DynamicItem(
      identifier: "item", center: Self.start, size: Size(width: 40, height: 40))
    (behavior as? SpringBehavior)?.addItem(item)
    (behavior as? DecayBehavior)?.addItem(item)
    animator.addBehavior(behavior)
    animator.addBehavior(GravityBehavior(items: [item]))
    // Worst gaps while the motion runs ([0]) and once it rests on its end point ([1]).
    var position = [0.0, 0.0]
    var velocity = [0.0, 0.0]
    var stored = 0.0
    var restedAt: Double?
    for _ in 0..<Int((seconds * fps).rounded()) {
      animator.step(1 / fps)
      let state = exact(animator.elapsedTime)
      if restedAt == nil, atRest(item) { restedAt = animator.elapsedTime }
      let phase = restedAt == nil ? 0 : 1
      position[phase] = max(position[phase], (item.center - state.position).length)
      velocity[phase] = max(velocity[phase], (item.velocity - state.velocity).length)
      stored = max(stored, (animator.storedCenter(of: item)! - state.position).length)
    }
    let rest = restedAt.map { r($0, 3) } ?? "—"
    var gaps = [position[0], velocity[0], position[1], velocity[1], stored].map(e)
    if restedAt == nil { (gaps[2], gaps[3]) = ("—", "—") }
    print("| \(name) | \(Int(fps)) | " + gaps.joined(separator: " | ") + " | \(rest) |")
  }

  /// The conversions SwiftUI documents, and each spring's derived constants.
  private func conversions() {
    print("| spring | mass | stiffness | damping | damping_ratio | response | duration | bounce |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    let documented: [(String, SpringParameters)] = [
      ("SwiftUI doc: duration 0.5, bounce 0.3", .duration(0.5, bounce: 0.3)),
      ("SwiftUI doc: mass 1, stiffness 100, damping 10", .stiffness(100, damping: 10)),
      ("SwiftUI default Spring()", .swiftUIDefault),
    ]
    for (name, p) in documented + Self.springs {
      let values = [
        p.mass, p.stiffness, p.damping, p.dampingRatio, p.response, p.duration, p.bounce,
      ]
      print("| \(name) | " + values.map { r($0, 4) }.joined(separator: " | ") + " |")
    }
  }

  /// Each decay's resting point (engine, 120 fps) against its platform's own formula.
  private func restingPoints() {
    let v = Self.launch.dy
    print("\nresting displacement along y for v₀ = \(r(v, 1)) pt/s:")
    print("| model | engine | closed form | platform formula | which |")
    print("|---|---:|---:|---:|---|")
    for (name, model) in Self.decays {
      let engine = try? engineRest(model, velocity: v)
      let closed = model.restingDisplacement(initialVelocity: v)
      let (formula, which): (Double, String)
      switch model {
      case .scrollView(let rate):
        (formula, which) = (v / 1000 * rate / (1 - rate), "Apple WWDC18 project(): v/1000·r/(1−r)")
      case .fling(let friction):
        (formula, which) = ((v - 46.875) / (4.2 * friction), "Android: stops at |v| = 46.875")
      case .frictionSimulation(let drag):
        (formula, which) = (-v / log(drag), "Flutter finalX: −v/ln(drag)")
      }
      print(
        "| \(name) | \(engine.map { r($0, 4) } ?? "—") | \(r(closed, 4)) | \(r(formula, 4)) | \(which) |"
      )
    }
  }

  /// Where an item thrown down at `velocity` stops under `model`, through the engine.
  private func engineRest(_ model: DecayModel, velocity: Double) throws -> Double {
    let animator = DynamicAnimator()
    let item = try DynamicItem(identifier: "item", center: .zero, size: Size(width: 40, height: 40))
    let decay = try DecayBehavior(
      items: [item], model: model, initialVelocity: Vector(dx: 0, dy: velocity))
    animator.addBehavior(decay)
    while animator.isRunning, animator.elapsedTime < 600 { animator.step(1.0 / 120) }
    return item.center.y
  }

  /// A small error in scientific notation (1 significant digit), "0" when exact.
  private func e(_ v: Double) -> String {
    guard v > 0 else { return "0" }
    var exponent = Int(floor(log10(v)))
    var mantissa = (v / pow(10, Double(exponent)) * 10).rounded() / 10
    if mantissa >= 10 { (mantissa, exponent) = (mantissa / 10, exponent + 1) }
    return "\(mantissa)e\(exponent)"
  }
}
