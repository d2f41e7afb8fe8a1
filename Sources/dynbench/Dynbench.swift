import ArgumentParser

/// dynd's benchmark: measures what BENCHMARKS.md reports. Run it from a release build.
@main
struct Dynbench: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "dynbench",
    abstract: "Measure dynd's engine and daemon costs (run from a release build).",
    subcommands: [
      StepCost.self, Accuracy.self, DropDrift.self, EncodeCost.self, LatencyBenchmark.self,
      SessionLoadBenchmark.self, IdleCostBenchmark.self, GestureLatencyBenchmark.self,
      TrackingBenchmark.self, FieldAccuracy.self, MotionAccuracy.self, MotionCost.self,
      DocumentCost.self, FrameRates.self, WorstStep.self, EchoServerCommand.self,
    ])
}
