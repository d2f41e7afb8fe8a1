import Dynamics
import Testing
import Transitions

@Suite("Gesture tracker")
struct GestureTrackerTests {
  /// A finger at a constant speed, sampled at 60 Hz: the estimate is that speed (to 1e-6).
  @Test(arguments: [Vector(dx: 0, dy: -800), Vector(dx: 350, dy: 120), Vector(dx: -2500, dy: 0)])
  func recoversAConstantSpeed(v: Vector) {
    var tracker = GestureTracker()
    for i in 0..<30 {
      let t = Double(i) / 60
      tracker.record(i == 0 ? .began : .changed, Point(x: 100 + v.dx * t, y: 300 + v.dy * t), at: t)
    }
    #expect(abs(tracker.velocity.dx - v.dx) < 1e-6 && abs(tracker.velocity.dy - v.dy) < 1e-6)
  }

  /// Only the last 100 ms count: a finger that stopped reads zero, one that sped up its new speed
  /// (within 5%).
  @Test func looksBackOneHundredMilliseconds() {
    var tracker = GestureTracker()
    var x = 0.0
    for i in 0..<60 {
      x += (i < 30 ? 100.0 : 1000.0) / 60
      tracker.record(i == 0 ? .began : .changed, Point(x: x, y: 0), at: Double(i) / 60)
    }
    #expect(abs(tracker.velocity.dx - 1000) < 50)
    for i in 60..<80 { tracker.record(.changed, Point(x: x, y: 0), at: Double(i) / 60) }
    #expect(abs(tracker.velocity.dx) < 1e-9)
  }

  @Test func jitteryTimestampsAndFewSamples() {
    var tracker = GestureTracker()
    tracker.record(.began, Point(x: 0, y: 0), at: 1)
    #expect(tracker.velocity == .zero)
    tracker.record(.changed, Point(x: 10, y: 0), at: 1)  // same time: replaces
    #expect(tracker.velocity == .zero)
    tracker.record(.changed, Point(x: 20, y: 0), at: 1.02)
    #expect(abs(tracker.velocity.dx - 500) < 1e-6)
    tracker.reset()
    #expect(!tracker.isActive)
  }
}
