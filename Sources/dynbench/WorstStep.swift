import ArgumentParser
import BenchFixtures
import Dynamics
import JSON
import SceneBuilding
import Wire

/// The costliest internal steps valid scenes make (issue 39): each of `WorstScenes` built as a
/// session builds it, with a session's engine bounds (`SceneBuilder.applyStepBounds`), then
/// stepped one internal step (1/120 s) at a time, each timed.
struct WorstStep: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "worst-step",
    abstract: "Time the internal steps of the costliest valid scenes.")

  @Option(help: "Internal steps timed per scene (1/120 s each).")
  var steps: Int = 240

  @Option(help: "Scenes to run, comma-separated (default: all).")
  var scenes: String?

  @Flag(help: "Without the session's engine bounds (Box2D's own broad phase limits only).")
  var unbounded = false

  @Option(help: "A contact limit in place of the session's.")
  var contactLimit: Int?

  @Option(help: "A pair search limit in place of the session's.")
  var pairSearchLimit: Int?

  @Flag(help: "Print a Markdown table.")
  var markdown = false

  func validate() throws {
    guard steps >= 1, steps <= 100_000 else { throw ValidationError("steps must be in 1 … 100000") }
  }

  func run() throws {
    let asked = scenes.map { Set($0.split(separator: ",").map(String.init)) }
    let chosen = WorstScenes.all.filter { asked?.contains($0.name) ?? true }
    guard !chosen.isEmpty else {
      throw ValidationError(
        "--scenes takes names among " + WorstScenes.all.map(\.name).joined(separator: ", "))
    }
    if markdown {
      print(
        "| scene | first step ms | worst step ms | p99 ms | mean ms | bound ms "
          + "| contacts at the end | shapes deferred |")
      print("|---|---:|---:|---:|---:|---:|---:|---:|")
    }
    for scene in chosen {
      let spec = try SceneSpec(json: JSONParser().parse(scene.json))
      let built = try SceneBuilder.build(spec)
      let animator = built.animator
      if !unbounded { SceneBuilder.applyStepBounds(animator) }
      if let contactLimit { animator.contactLimit = contactLimit }
      if let pairSearchLimit { animator.pairSearchLimit = pairSearchLimit }
      var samples: [Double] = []
      for _ in 0..<steps {
        let start = now()
        _ = animator.step(DynamicAnimator.stepInterval)
        samples.append((now() - start) / 1000)
      }
      let first = samples[0]
      let sorted = samples.sorted()
      let p99 = sorted[min(sorted.count - 1, Int(Double(sorted.count) * 0.99))]
      let mean = samples.reduce(0, +) / Double(samples.count)
      let bound = animator.stepCostBound.seconds * 1000
      let figures = [first, sorted.last!, p99, mean, bound].map { String(format: "%.2f", $0) }
      let counts = ["\(animator.contactCount)", "\(animator.deferredShapeCount)"]
      if markdown {
        print("| \(scene.title) | " + (figures + counts).joined(separator: " | ") + " |")
      } else {
        print(
          "\(scene.name): first \(figures[0]) ms, worst \(figures[1]) ms, p99 \(figures[2]) ms, "
            + "mean \(figures[3]) ms, bound \(figures[4]) ms, contacts \(counts[0]), "
            + "shapes deferred \(counts[1])")
      }
    }
  }
}
