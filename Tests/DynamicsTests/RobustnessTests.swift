import Dynamics
import Glibc
import Primitives
import Testing

@Suite("Robustness")
struct RobustnessTests {
  /// Densities from 1e-6 to 1e6 colliding in a closed box: every number stays finite and every
  /// item inside the bounds (with the 0.5 pt tolerance of Box2D's contact slop, plus 2 pt).
  @Test func extremeDensitiesStayFiniteAndInside() {
    let a = DynamicAnimator(referenceBounds: screen)
    var items: [DynamicItem] = []
    var behaviors: [DynamicItemBehavior] = []
    for (i, density) in [1e-6, 1e-3, 1, 1e3, 1e6].enumerated() {
      let it = item("d\(i)", x: 40 + Double(i) * 60, y: 100 + Double(i) * 50, w: 40, h: 40)
      items.append(it)
      let b = properties([it]) {
        $0.density = density
        $0.elasticity = 0.9
      }
      behaviors.append(b)
    }
    for b in behaviors { a.addBehavior(b) }
    a.addBehavior(GravityBehavior(items: items))
    a.addBehavior(bounds(items))
    behaviors[0].addLinearVelocity(Vector(dx: 3000, dy: -2000), for: items[0])
    behaviors[4].addLinearVelocity(Vector(dx: -2000, dy: 1500), for: items[4])
    for _ in 0..<600 {
      a.step(frame60)
      for it in items { check(it) }
    }
  }

  /// 1e5 pt/s is beyond Box2D's per-step travel limit (2 m = 200 pt per step, 24 000 pt/s);
  /// continuous collision still keeps such items inside.
  @Test func extremeSpeedsStayInside() {
    let a = DynamicAnimator(referenceBounds: screen)
    let items = (0..<4).map { item("s\($0)", x: 60 + Double($0) * 60, y: 284, w: 20, h: 20) }
    let b = properties(items) { $0.elasticity = 1 }
    a.addBehavior(b)
    a.addBehavior(bounds(items))
    for (i, it) in items.enumerated() {
      let angle = Double(i) * 1.3
      b.addLinearVelocity(Vector(dx: 1e5 * cos(angle), dy: 1e5 * sin(angle)), for: it)
    }
    for _ in 0..<300 {
      a.step(frame60)
      for it in items { check(it) }
    }
  }

  func check(_ it: DynamicItem, sourceLocation: SourceLocation = #_sourceLocation) {
    let finite =
      it.center.isFinite && it.velocity.isFinite && it.angle.isFinite
      && it.angularVelocity.isFinite
    #expect(finite, "\(it.identifier) went non-finite", sourceLocation: sourceLocation)
    let inside =
      it.center.x > -2.5 && it.center.x < 322.5 && it.center.y > -2.5 && it.center.y < 570.5
    #expect(inside, "\(it.identifier) escaped to \(it.center)", sourceLocation: sourceLocation)
  }
}
