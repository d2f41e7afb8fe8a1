import Dynamics
import DynamicsScenes
import Primitives
import Testing

/// The seed scenes the tour shows, checked against what the seeds describe.
@Suite("Seed scenes")
struct SceneTests {
  /// A short pull closes with a bounce: at least two floor contacts, at rest where it started
  /// (1 pt lower, on the floor 1 pt below the edge, ±0.5 pt), never rotated or moved sideways.
  @Test func lockScreenDropBouncesAndRests() {
    let drop = LockScreenDrop(pull: 120)
    let recorder = Recorder()
    drop.animator.delegate = recorder
    let t = runUntilRest(drop.animator)
    #expect(t < 3)
    #expect(recorder.boundaryContacts(.began).filter { $0 == "floor" }.count >= 2)
    #expect(abs(drop.screen.center.y - 285) <= 0.5)
    #expect(drop.screen.center.x == 160 && drop.screen.angle == 0)
  }

  /// The release velocity is handed over exactly (to Float precision: < 0.001 pt/s).
  @Test func lockScreenDropTakesTheReleaseVelocity() {
    let drop = LockScreenDrop(pull: 300, releaseVelocity: 1234.567)
    drop.animator.step(0)  // nothing simulated yet: the velocity is the handed-over one
    let material = drop.animator.behaviors.compactMap { $0 as? DynamicItemBehavior }.first!
    #expect(abs(material.linearVelocity(for: drop.screen).dy - 1234.567) < 0.001)
  }

  @Test func snakeFollowsTheFingerAndTouchesTheEdge() {
    let snake = SnakeScene()
    let recorder = Recorder()
    snake.animator.delegate = recorder
    var finger = Point(x: 160, y: 410)
    for _ in 0..<120 {  // drag left and up over 2 s
      finger = finger + Vector(dx: -1.2, dy: -1.5)
      snake.drag(to: finger)
      snake.animator.step(1.0 / 60)
    }
    snake.release()
    runUntilRest(snake.animator)
    #expect(snake.orange.angle == 0)
    #expect(snake.orange.center.x < 120)
    #expect(recorder.boundaryContacts(.began).contains { $0 == nil })
  }

  @Test func snapGoesToEachTap() {
    let scene = SnapScene()
    for point in [Point(x: 80, y: 400), Point(x: 250, y: 150)] {
      scene.tap(point)
      runUntilRest(scene.animator)
      #expect(scene.label.center.distance(to: point) < 0.5)
      #expect(abs(scene.label.angle) < 0.005)
    }
  }
}
