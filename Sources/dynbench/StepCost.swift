import ArgumentParser
import Dynamics
import DynamicsScenes
import Glibc

/// Cost of one internal step (1/120 s) of the shared pile scene while everything moves.
struct StepCost: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "step",
    abstract: "Time one engine step of a moving scene of N items.")

  @Option(help: "Item counts to measure, comma-separated.")
  var items: String = "10,100"

  @Option(help: "Independent runs per count; each builds a fresh scene.")
  var runs: Int = 5

  @Option(help: "Simulated seconds per run (the pile is still falling and bouncing).")
  var seconds: Double = 1.5

  @Flag(help: "Print a Markdown table instead of plain text.")
  var markdown = false

  func validate() throws {
    guard runs >= 1, seconds > 0, seconds <= 60 else {
      throw ValidationError("runs must be ≥ 1 and seconds in (0, 60]")
    }
    guard parseCounts() != nil else { throw ValidationError("--items takes counts like 10,100") }
  }

  func parseCounts() -> [Int]? {
    let counts = items.split(separator: ",").compactMap { Int($0) }
    return counts.isEmpty || counts.contains { $0 < 1 || $0 > 2000 } ? nil : counts
  }

  func run() throws {
    let counts = parseCounts()!
    if markdown {
      print("| items | steps timed | mean µs | p50 µs | p99 µs | max µs |")
      print("|---:|---:|---:|---:|---:|---:|")
    }
    for count in counts {
      var samples: [Double] = []
      for _ in 0..<runs {
        let (animator, _) = Scenes.pile(count: count)
        let steps = Int(seconds / DynamicAnimator.stepInterval)
        for _ in 0..<steps {
          let start = now()
          animator.step(DynamicAnimator.stepInterval)
          samples.append(now() - start)
        }
      }
      samples.sort()
      let mean = samples.reduce(0, +) / Double(samples.count)
      let p50 = samples[samples.count / 2]
      let p99 = samples[min(samples.count - 1, Int(Double(samples.count) * 0.99))]
      let row = [count, samples.count].map(String.init) + [mean, p50, p99, samples.last!].map(fmt)
      if markdown {
        print("| " + row.joined(separator: " | ") + " |")
      } else {
        print(
          "\(count) items: \(samples.count) steps, mean \(row[2]) µs, p50 \(row[3]) µs, "
            + "p99 \(row[4]) µs, max \(row[5]) µs")
      }
    }
  }
}

/// Monotonic time in microseconds.
func now() -> Double {
  var ts = timespec()
  clock_gettime(CLOCK_MONOTONIC, &ts)
  return Double(ts.tv_sec) * 1e6 + Double(ts.tv_nsec) / 1e3
}

func fmt(_ v: Double) -> String {
  let r = (v * 10).rounded() / 10
  return String(r)
}
