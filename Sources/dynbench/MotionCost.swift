import ArgumentParser
import Dynamics
import Primitives

/// What a spring or a decay costs per frame against a gravity behavior on the same items.
struct MotionCost: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "motion-cost",
    abstract: "Time a 60 Hz frame of N items under one spring, one decay or one gravity.")

  @Option(help: "Item counts to measure, comma-separated (at most the heavy scene's capacity).")
  var items: String = "10,100,400"

  @Option(help: "Independent runs per count and behavior; each builds fresh items.")
  var runs: Int = 5

  @Option(help: "Simulated seconds per run (every item moves throughout).")
  var seconds: Double = 1

  func validate() throws {
    guard runs >= 1, seconds > 0, seconds <= 60 else {
      throw ValidationError("runs must be ≥ 1 and seconds in (0, 60]")
    }
    guard counts != nil else {
      throw ValidationError("--items takes counts from 1 to \(BouncingScene.heavyCapacity)")
    }
  }

  private var counts: [Int]? {
    let counts = items.split(separator: ",").compactMap { Int($0) }
    let bad = counts.contains { $0 < 1 || $0 > BouncingScene.heavyCapacity }
    return counts.isEmpty || bad ? nil : counts
  }

  /// The behavior under test, over `items`; none of them rests within a run.
  private enum Kind: String, CaseIterable {
    case gravity
    /// One spring holding every item, all drawn to one point (they meet and overlap).
    case spring
    /// A spring per item, each to the point 400 pt below it: parallel paths, as gravity's.
    case springs = "spring per item"
    case decay

    func behavior(_ items: [DynamicItem]) throws -> DynamicBehavior {
      let parameters = SpringParameters.response(3, dampingRatio: 0.2)
      switch self {
      case .gravity: return GravityBehavior(items: items)
      case .spring:
        return try SpringBehavior(
          items: items, target: Point(x: 160, y: 284), parameters: parameters,
          initialVelocity: Vector(dx: 300, dy: -200))
      case .springs:
        let all = DynamicBehavior()
        for item in items {
          all.addChildBehavior(
            try SpringBehavior(
              items: [item], target: item.center + Vector(dx: 0, dy: 400), parameters: parameters))
        }
        return all
      case .decay:
        return try DecayBehavior(
          items: items, model: .fling(friction: 0.05), initialVelocity: Vector(dx: 300, dy: -200))
      }
    }
  }

  func run() throws {
    print("| items | behavior | frames timed | mean µs | p50 µs | p99 µs | p50 × gravity's |")
    print("|---:|---|---:|---:|---:|---:|---:|")
    for count in counts! {
      // Runs of the kinds interleave, so that the machine's load drifts over all of them alike.
      var samples = [[Double]](repeating: [], count: Kind.allCases.count)
      for _ in 0..<runs {
        for (k, kind) in Kind.allCases.enumerated() { samples[k] += try frames(kind, count: count) }
      }
      var gravityMedian = 0.0
      for (kind, var times) in zip(Kind.allCases, samples) {
        times.sort()
        let mean = times.reduce(0, +) / Double(times.count)
        let p50 = times[times.count / 2]
        let p99 = times[min(times.count - 1, Int(Double(times.count) * 0.99))]
        if kind == .gravity { gravityMedian = p50 }
        print(
          "| \(count) | \(kind.rawValue) | \(times.count) | \(fmt(mean)) | \(fmt(p50)) | "
            + "\(fmt(p99)) | \(r(p50 / gravityMedian, 2)) |")
      }
    }
  }

  /// The time of each 60 Hz frame of one run: `count` items of the heavy bouncing scene's
  /// grid (12 pt squares, none touching), under `kind` only.
  private func frames(_ kind: Kind, count: Int) throws -> [Double] {
    let items = try BouncingScene.heavy(items: count).spec.items.map {
      try DynamicItem(identifier: $0.id, center: $0.center, size: $0.size)
    }
    let animator = DynamicAnimator()
    animator.addBehavior(try kind.behavior(items))
    var samples: [Double] = []
    for _ in 0..<Int((seconds * 60).rounded()) {
      let start = now()
      animator.step(1.0 / 60)
      samples.append(now() - start)
    }
    precondition(animator.isRunning, "\(kind) came to rest within the run")
    return samples
  }
}
