import Dynamics
import Primitives
import Testing

@Suite("Snap")
struct SnapTests {
  @Test(arguments: [0.0, 0.5, 1.0])
  func snapEndsAtThePointWithNoRotation(damping: Double) {
    let a = DynamicAnimator()
    let label = item(x: 50, y: 60, w: 95, h: 47, angle: 0.7)
    let snap = SnapBehavior(item: label, snapTo: Point(x: 220, y: 400))
    snap.damping = damping
    a.addBehavior(snap)
    let t = runUntilRest(a)
    #expect(t < 10)
    #expect(label.center.distance(to: Point(x: 220, y: 400)) < 0.5)
    #expect(abs(label.angle) < 0.005)
  }

  /// Damping 1 barely overshoots (under 1% of the distance); damping 0 clearly does.
  @Test func dampingOneBarelyOvershoots() {
    func overshoot(_ damping: Double) -> Double {
      let a = DynamicAnimator()
      let label = item(x: 0, y: 100, w: 95, h: 47)
      let snap = SnapBehavior(item: label, snapTo: Point(x: 200, y: 100))
      snap.damping = damping
      a.addBehavior(snap)
      var most = 0.0
      for _ in 0..<(4 * 120) {
        a.step(DynamicAnimator.stepInterval)
        most = max(most, label.center.x - 200)
      }
      return most
    }
    #expect(overshoot(1) < 2)
    #expect(overshoot(0) > 20)
    #expect(overshoot(0.5) < overshoot(0))
  }

  @Test func movingTheSnapPointResumesAndRetargets() {
    let a = DynamicAnimator()
    let label = item(x: 0, y: 0, w: 95, h: 47)
    let snap = SnapBehavior(item: label, snapTo: Point(x: 100, y: 100))
    a.addBehavior(snap)
    runUntilRest(a)
    #expect(!a.isRunning)
    snap.snapPoint = Point(x: 10, y: 300)
    #expect(a.isRunning)
    runUntilRest(a)
    #expect(label.center.distance(to: Point(x: 10, y: 300)) < 0.5)
  }
}
