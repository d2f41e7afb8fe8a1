/// The finger's velocity as dynd's default estimator (`platform`, `GestureTracker` in
/// Sources/Transitions/Gesture.swift) sees it while a pan goes on, for pages that plot it: the
/// same rules and constants, in JavaScript. The inspector's browser test checks that the page's
/// estimate at the lift-off equals the `handoff` event's `gesture_velocity`.
public enum FingerVelocityScript {
  /// `finger-velocity.js`, embedded at build time.
  public static let source = embeddedScript(PackageResources.finger_velocity_js)
}
