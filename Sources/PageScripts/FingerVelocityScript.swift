import Primitives

/// The finger's velocity as dynd's default estimator (`platform`, `GestureTracker` in
/// Sources/Transitions/Model/Gesture.swift) sees it while a pan goes on, for pages that plot it: the
/// same rules and constants, in JavaScript. The inspector's browser test checks that the page's
/// estimate at the lift-off equals the `handoff` event's `gesture_velocity`.
public enum FingerVelocityScript {
  /// `finger-velocity.js`, embedded at build time, after the constants it runs with: Swift's own
  /// (`VelocityEstimator`), so that the script holds no copy of them.
  public static let source =
    "const DYND_ESTIMATOR = {horizon: \(VelocityEstimator.horizon), history_size: "
    + "\(VelocityEstimator.historySize), stopped_after: \(VelocityEstimator.stoppedAfter), "
    + "slack: \(VelocityEstimator.slack), dependence: \(VelocityEstimator.dependence)};\n"
    + embeddedScript(PackageResources.finger_velocity_js)
}
