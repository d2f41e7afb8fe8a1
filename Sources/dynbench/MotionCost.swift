import ArgumentParser
import Dynamics
import Foundation
import Primitives

/// What a spring or a decay costs per frame against a gravity behavior on the same items.
struct MotionCost: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "motion-cost",
    abstract: "Time a frame (60 Hz unless --hz) of N items under springs, a decay or gravity.")

  @Option(help: "Item counts to measure, comma-separated (at most the heavy scene's capacity).")
  var items: String = "10,100,400"

  @Option(help: "Independent runs per count and behavior; each builds fresh items.")
  var runs: Int = 5

  @Option(help: "Simulated seconds per run (every item moves throughout).")
  var seconds: Double = 1

  @Option(help: "Display rate, Hz: frames of 1/Hz (144 and 240 Hz end between internal steps).")
  var hz: Double = 60

  @Option(
    help: ArgumentHelp(
      "Behaviors to time, comma-separated (default: all, each with its baseline).",
      valueName: "names"))
  var behaviors: String?

  func validate() throws {
    guard runs >= 1, seconds > 0, seconds <= 60 else {
      throw ValidationError("runs must be ≥ 1 and seconds in (0, 60]")
    }
    guard hz.isFinite, (1...240).contains(hz) else { throw ValidationError("--hz is 1…240") }
    guard counts != nil else {
      throw ValidationError("--items takes counts from 1 to \(BouncingScene.heavyCapacity)")
    }
    guard kinds != nil else {
      let names = Kind.allCases.map { "'\($0.rawValue)'" }.joined(separator: ", ")
      throw ValidationError("--behaviors takes names among \(names)")
    }
  }

  /// The kinds asked for and their baselines, in the table's order.
  private var kinds: [Kind]? {
    guard let behaviors else { return Kind.allCases }
    let asked = behaviors.split(separator: ",").map {
      Kind(rawValue: $0.trimmingCharacters(in: .whitespaces))
    }
    guard !asked.isEmpty, !asked.contains(nil) else { return nil }
    // Every baseline is gravity's or has gravity's for its own.
    let wanted = Set(asked.compactMap { $0 }.flatMap { [$0, $0.baseline, .gravity] })
    return Kind.allCases.filter(wanted.contains)
  }

  private var counts: [Int]? {
    let counts = items.split(separator: ",").compactMap { Int($0) }
    let bad = counts.contains { $0 < 1 || $0 > BouncingScene.heavyCapacity }
    return counts.isEmpty || bad ? nil : counts
  }

  /// The behavior under test, over `items`; none of them rests within a run.
  private enum Kind: String, CaseIterable {
    case gravity
    /// One spring holding every item, drawn to a point so far below that they keep their
    /// spacing (the formation shrinks by under 1 % in a second), about as fast as gravity.
    case spring
    case decay
    /// One spring drawing every item to one point near them: they meet and overlap.
    case springToOnePoint = "spring to one point"
    /// A gravity behavior per item: the baseline of the spring per item.
    case gravities = "gravity per item"
    /// A spring per item, each to the point 400 pt below it: parallel paths, as gravity's.
    case springs = "spring per item"

    /// The kind whose median the table divides by: the same number of behaviors.
    var baseline: Kind { self == .springs ? .gravities : .gravity }

    func behavior(_ items: [DynamicItem]) throws -> DynamicBehavior {
      let parameters = SpringParameters.response(3, dampingRatio: 0.2)
      switch self {
      case .gravity: return GravityBehavior(items: items)
      case .spring:
        return try SpringBehavior(
          items: items, target: Point(x: 160, y: 100_000),
          parameters: .response(60, dampingRatio: 0.2))
      case .decay:
        return try DecayBehavior(
          items: items, model: .fling(friction: 0.05), initialVelocity: Vector(dx: 300, dy: -200))
      case .springToOnePoint:
        return try SpringBehavior(
          items: items, target: Point(x: 160, y: 284), parameters: parameters,
          initialVelocity: Vector(dx: 300, dy: -200))
      case .gravities:
        let all = DynamicBehavior()
        for item in items { all.addChildBehavior(GravityBehavior(items: [item])) }
        return all
      case .springs:
        let all = DynamicBehavior()
        for item in items {
          all.addChildBehavior(
            try SpringBehavior(
              items: [item], target: item.center + Vector(dx: 0, dy: 400), parameters: parameters))
        }
        return all
      }
    }
  }

  func run() throws {
    print("| items | behavior | frames timed | mean µs | p50 µs | p99 µs | p50 × baseline's |")
    print("|---:|---|---:|---:|---:|---:|---:|")
    let kinds = self.kinds!  // validate() checked both
    for count in counts! {
      // Runs of the kinds interleave, so that the machine's load drifts over all of them alike.
      var samples = [[Double]](repeating: [], count: kinds.count)
      for _ in 0..<runs {
        for (k, kind) in kinds.enumerated() { samples[k] += try frames(kind, count: count) }
      }
      var medians: [Kind: Double] = [:]
      for (kind, var times) in zip(kinds, samples) {
        times.sort()
        let mean = times.reduce(0, +) / Double(times.count)
        let p50 = times[times.count / 2]
        let p99 = times[min(times.count - 1, Int(Double(times.count) * 0.99))]
        medians[kind] = p50
        print(
          "| \(count) | \(kind.rawValue) | \(times.count) | \(fmt(mean)) | \(fmt(p50)) | "
            + "\(fmt(p99)) | \(r(p50 / medians[kind.baseline]!, 2)) (\(kind.baseline.rawValue)) |")
      }
    }
  }

  /// The time of each frame of 1/`hz` of one run: `count` items of the heavy bouncing scene's
  /// grid (12 pt squares, none touching), under `kind` only.
  private func frames(_ kind: Kind, count: Int) throws -> [Double] {
    let items = try BouncingScene.heavy(items: count).spec.items.map {
      try DynamicItem(identifier: $0.id, center: $0.center, size: $0.size)
    }
    let animator = DynamicAnimator()
    animator.addBehavior(try kind.behavior(items))
    var samples: [Double] = []
    for _ in 0..<Int((seconds * hz).rounded()) {
      let start = now()
      animator.step(1 / hz)
      samples.append(now() - start)
    }
    precondition(animator.isRunning, "\(kind) came to rest within the run")
    return samples
  }
}
