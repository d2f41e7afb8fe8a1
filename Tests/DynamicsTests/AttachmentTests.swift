import Dynamics
import Glibc
import Primitives
import Testing

@Suite("Attachment")
struct AttachmentTests {
  /// Times of downward zero crossings of x(t) − rest, sampled every internal step.
  func crossings(_ a: DynamicAnimator, _ box: DynamicItem, rest: Double, seconds: Double)
    -> [Double]
  {
    var out: [Double] = []
    var previous = box.center.x - rest
    for _ in 0..<Int(seconds * 120) {
      a.step(DynamicAnimator.stepInterval)
      let x = box.center.x - rest
      if previous > 0 && x <= 0 { out.append(a.elapsedTime) }
      previous = x
    }
    return out
  }

  /// A 1 Hz spring with damping 0 oscillates with a 1 s period (±2%).
  @Test func springOscillatesAtItsFrequency() throws {
    let a = DynamicAnimator()
    let box = item(x: 300, y: 0)
    let spring = try AttachmentBehavior(item: box, attachedToAnchor: Point(x: 0, y: 0))
    spring.length = 200
    spring.frequency = 1
    spring.damping = 0
    a.addBehavior(spring)
    let times = crossings(a, box, rest: 200, seconds: 4.2)
    #expect(times.count >= 3)
    let periods = zip(times.dropFirst(), times).map { $0 - $1 }
    for p in periods { #expect(abs(p - 1) < 0.02) }
  }

  /// Damping ratio 1 (critical) comes to the rest length without overshooting (0.1 pt).
  @Test func criticalDampingDoesNotOvershoot() throws {
    let a = DynamicAnimator()
    let box = item(x: 300, y: 0)
    let spring = try AttachmentBehavior(item: box, attachedToAnchor: Point(x: 0, y: 0))
    spring.length = 200
    spring.frequency = 2
    spring.damping = 1
    a.addBehavior(spring)
    var minimum = Double.infinity
    for _ in 0..<(3 * 120) {
      a.step(DynamicAnimator.stepInterval)
      minimum = min(minimum, box.center.x)
    }
    #expect(minimum > 200 - 0.1)
    #expect(abs(box.center.x - 200) < 0.5)
  }

  /// The default attachment is a rigid rod of the initial distance: a pendulum keeps it (0.5 pt).
  @Test func defaultAttachmentKeepsItsLength() throws {
    let a = DynamicAnimator()
    let bob = item(x: 250, y: 100, w: 20, h: 20)
    let anchor = Point(x: 100, y: 100)
    let rod = try AttachmentBehavior(item: bob, attachedToAnchor: anchor)
    #expect(rod.length == 150 && rod.frequency == 0 && rod.kind == .distance)
    a.addBehavior(rod)
    a.addBehavior(GravityBehavior(items: [bob]))
    var worst = 0.0
    var lowest = 0.0
    for _ in 0..<240 {
      a.step(frame60)
      worst = max(worst, abs(bob.center.distance(to: anchor) - 150))
      lowest = max(lowest, bob.center.y)
    }
    #expect(worst < 0.5)
    #expect(lowest > 245)  // it swung down through the bottom of the arc
  }

  @Test func movingTheAnchorDragsTheItem() throws {
    let a = DynamicAnimator()
    let box = item(x: 100, y: 100)
    let spring = try AttachmentBehavior(
      item: box, offsetFromCenter: Vector(dx: 41, dy: 0.5),
      attachedToAnchor: Point(x: 141, y: 100.5))
    spring.frequency = 3
    spring.damping = 1
    #expect(spring.length == 0)
    a.addBehavior(spring)
    runUntilRest(a)
    spring.anchorPoint = Point(x: 241, y: 300.5)
    #expect(a.isRunning)
    runUntilRest(a)
    let attached = box.center + Vector(dx: 41, dy: 0.5).rotated(by: box.angle)
    #expect(attached.distance(to: Point(x: 241, y: 300.5)) < 1)
  }

  @Test func itemToItemAttachmentKeepsDistanceAndDoesNotCollide() throws {
    let a = DynamicAnimator(referenceBounds: screen)
    let head = item("head", x: 100, y: 100, w: 60, h: 20)
    let tail = item("tail", x: 150, y: 100, w: 60, h: 20)  // overlapping: attached items ignore it
    let link = try AttachmentBehavior(
      item: head, offsetFromCenter: Vector(dx: 25, dy: 0), attachedTo: tail,
      offsetFromCenter: Vector(dx: -25, dy: 0))
    #expect(abs(link.length - 0) < 1e-9)
    let recorder = Recorder()
    a.delegate = recorder
    a.addBehavior(link)
    a.addBehavior(bounds([head, tail]))
    a.addBehavior(GravityBehavior(items: [head, tail]))
    run(a, seconds: 2)
    let p = head.center + Vector(dx: 25, dy: 0).rotated(by: head.angle)
    let q = tail.center + Vector(dx: -25, dy: 0).rotated(by: tail.angle)
    #expect(p.distance(to: q) < 1)
    #expect(
      !recorder.contacts.contains { if case .item = $0.other { return true } else { return false } }
    )
  }

  @Test func slidingKeepsTheAxisAndTheAngle() throws {
    let a = DynamicAnimator()
    let box = item(x: 100, y: 100)
    let slide = try AttachmentBehavior.sliding(
      item: box, anchor: Point(x: 100, y: 100), axis: Vector(dx: 0, dy: 1))
    slide.attachmentRange = FloatRange(minimum: -50, maximum: 80)
    a.addBehavior(slide)
    a.addBehavior(GravityBehavior(items: [box]))
    let push = PushBehavior(items: [box], mode: .instantaneous)
    push.pushDirection = Vector(dx: 3, dy: 0)
    push.setTargetOffsetFromCenter(Vector(dx: 0, dy: 30), for: box)
    a.addBehavior(push)
    run(a, seconds: 1.5)
    #expect(abs(box.center.x - 100) < 0.1)
    #expect(abs(box.angle) < 0.001)
    #expect(abs(box.center.y - 180) < 0.5)  // stopped by the range's upper end
  }

  @Test func limitIsARope() throws {
    let a = DynamicAnimator()
    let top = item("top", x: 100, y: 100, w: 20, h: 20)
    let bottom = item("bottom", x: 100, y: 160, w: 20, h: 20)
    a.addBehavior(properties([top]) { $0.anchored = true })
    let rope = try AttachmentBehavior.limit(item: bottom, attachedTo: top)
    #expect(abs(rope.length - 60) < 1e-9)
    rope.length = 100
    a.addBehavior(rope)
    a.addBehavior(GravityBehavior(items: [bottom]))
    var worst = 0.0
    for _ in 0..<120 {
      a.step(frame60)
      worst = max(worst, bottom.center.distance(to: top.center))
    }
    #expect(worst < 100.5)
    #expect(worst > 99)  // it fell until the rope went taut
  }

  @Test func fixedFusesAndPinHinges() throws {
    let a = DynamicAnimator()
    let base = item("base", x: 100, y: 100, w: 40, h: 40)
    let fused = item("fused", x: 140, y: 100, w: 40, h: 40)
    let hinged = item("hinged", x: 100, y: 140, w: 40, h: 40)
    a.addBehavior(properties([base]) { $0.anchored = true })
    a.addBehavior(
      try AttachmentBehavior.fixed(item: fused, attachedTo: base, anchor: Point(x: 120, y: 100)))
    a.addBehavior(
      try AttachmentBehavior.pin(item: hinged, attachedTo: base, anchor: Point(x: 120, y: 120)))
    a.addBehavior(GravityBehavior(items: [fused, hinged]))
    run(a, seconds: 1)
    #expect(fused.center.distance(to: Point(x: 140, y: 100)) < 1)
    #expect(abs(fused.angle) < 0.02)
    let hingePoint = Point(x: 120, y: 120)
    #expect(abs(hinged.center.distance(to: hingePoint) - (20 * 2.0.squareRoot())) < 0.5)
    #expect(abs(hinged.angle) > 0.1)  // it swung about the pin
  }

  @Test func cannotAttachAnItemToItself() {
    let box = item()
    #expect(throws: DynamicsError.self) { try AttachmentBehavior(item: box, attachedTo: box) }
    #expect(throws: DynamicsError.self) {
      try AttachmentBehavior(item: box, attachedToAnchor: Point(x: .nan, y: 0))
    }
    #expect(throws: DynamicsError.self) {
      try AttachmentBehavior.sliding(item: box, anchor: .zero, axis: .zero)
    }
  }
}
