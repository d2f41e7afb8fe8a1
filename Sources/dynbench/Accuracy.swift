import ArgumentParser
import Dynamics
import DynamicsScenes
import Primitives

/// The engine against the analytic numbers UIKit documents.
struct Accuracy: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "accuracy",
    abstract: "Measure free fall, push, spring period, bounce, snap and rest against theory.")

  func run() throws {
    let h = DynamicAnimator.stepInterval

    let fall = DynamicAnimator()
    let box = try DynamicItem(
      identifier: "box", center: .zero, size: Size(width: 100, height: 100))
    fall.addBehavior(GravityBehavior(items: [box]))
    for _ in 0..<60 { fall.step(1.0 / 60) }
    let exact = 0.5 * 1000 * 1 * 1
    print(
      "free fall 1 s: \(r(box.center.y)) pt; ½gt² = \(r(exact)) pt; error \(r(box.center.y - exact)) pt "
        + "(bound ½·g·t·h = \(r(0.5 * 1000 * h))); speed \(r(box.velocity.dy)) pt/s (1000)")

    let pushed = DynamicAnimator()
    let wide = try DynamicItem(
      identifier: "wide", center: .zero, size: Size(width: 200, height: 100))
    let push = PushBehavior(items: [wide], mode: .continuous)
    push.pushDirection = Vector(dx: 1, dy: 0)
    pushed.addBehavior(push)
    for _ in 0..<60 { pushed.step(1.0 / 60) }
    print("continuous push 1 UIKit N on 200×100 for 1 s: \(r(wide.velocity.dx)) pt/s (50)")

    let springy = DynamicAnimator()
    let weight = try DynamicItem(
      identifier: "w", center: Point(x: 300, y: 0), size: Size(width: 100, height: 100))
    let spring = try AttachmentBehavior(item: weight, attachedToAnchor: .zero)
    spring.length = 200
    spring.frequency = 1
    springy.addBehavior(spring)
    var crossings: [Double] = []
    var previous = weight.center.x - 200
    for _ in 0..<(6 * 120) {
      springy.step(h)
      let x = weight.center.x - 200
      if previous > 0 && x <= 0 { crossings.append(springy.elapsedTime) }
      previous = x
    }
    let periods = zip(crossings.dropFirst(), crossings).map { $0 - $1 }
    let mean = periods.reduce(0, +) / Double(max(1, periods.count))
    print("spring 1 Hz, damping 0: period \(r(mean, 4)) s over \(periods.count) cycles (1)")

    let drop = LockScreenDrop(pull: 120)
    let counter = ContactCounter()
    drop.animator.delegate = counter
    var t = 0.0
    while drop.animator.isRunning && t < 10 {
      drop.animator.step(1.0 / 60)
      t += 1.0 / 60
    }
    print(
      "lock-screen drop from 120 pt: \(counter.began) floor contacts, at rest after \(r(t)) s, "
        + "bottom edge at \(r(drop.screen.center.y + 284)) (floor 569)")

    let snap = SnapScene()
    snap.tap(Point(x: 220, y: 400))
    var settle = 0.0
    while snap.animator.isRunning && settle < 10 {
      snap.animator.step(1.0 / 60)
      settle += 1.0 / 60
    }
    print(
      "snap (damping 0.5) to (220, 400): rests at (\(r(snap.label.center.x)), "
        + "\(r(snap.label.center.y))), angle \(r(snap.label.angle, 5)), paused after \(r(settle)) s"
    )
  }
}

final class ContactCounter: DynamicAnimatorDelegate {
  var began = 0
  func dynamicAnimator(_ animator: DynamicAnimator, didReport contact: ContactEvent) {
    if contact.phase == .began { began += 1 }
  }
}

func r(_ v: Double, _ digits: Int = 3) -> String {
  var scale = 1.0
  for _ in 0..<digits { scale *= 10 }
  return String((v * scale).rounded() / scale)
}
