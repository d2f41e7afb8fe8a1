// A tour of the Dynamics engine: the seed scenes built with the Swift API, run in the fixed
// clock, and narrated. `make demo` runs it.
import Dynamics
import DynamicsScenes
import Primitives

/// Prints contacts and pauses as they happen, stamped with the animator's time.
final class Narrator: DynamicAnimatorDelegate {
  var bounces = 0
  func dynamicAnimatorDidPause(_ animator: DynamicAnimator) {
    print("  \(stamp(animator))  at rest: the animator pauses (no more steps until a change)")
  }
  func dynamicAnimatorWillResume(_ animator: DynamicAnimator) {}
  func dynamicAnimator(_ animator: DynamicAnimator, didReport contact: ContactEvent) {
    let other: String
    switch contact.other {
    case .item(let item): other = "item \(item.identifier)"
    case .boundary(let id): other = "boundary \(id.map { "'\($0)'" } ?? "<reference bounds>")"
    }
    var line =
      "  \(stamp(animator))  contact \(contact.phase.rawValue): \(contact.item.identifier) – \(other)"
    if let p = contact.point { line += " at \(show(p))" }
    if contact.phase == .began { bounces += 1 }
    print(line)
  }
}

func stamp(_ a: DynamicAnimator) -> String { "t=" + fixed(a.elapsedTime, 3) + "s" }

func fixed(_ v: Double, _ decimals: Int) -> String {
  var scale = 1.0
  for _ in 0..<decimals { scale *= 10 }
  let r = (v * scale).rounded() / scale
  var s = String(r == 0 ? 0 : r)
  if let dot = s.firstIndex(of: ".") {
    let have = s.distance(from: dot, to: s.endIndex) - 1
    s += String(repeating: "0", count: max(0, decimals - have))
  } else {
    s += "." + String(repeating: "0", count: decimals)
  }
  return s
}

func show(_ p: Point) -> String { "(\(fixed(p.x, 1)), \(fixed(p.y, 1)))" }

/// Runs 60 Hz frames until rest (or `limit` s), printing `items` every `every` frames.
func play(_ a: DynamicAnimator, _ items: [DynamicItem], every: Int = 6, limit: Double = 6) {
  var frame = 0
  while a.isRunning && a.elapsedTime < limit {
    if frame % every == 0 { sample(a, items) }
    a.step(1.0 / 60)
    frame += 1
  }
  sample(a, items)
}

func sample(_ a: DynamicAnimator, _ items: [DynamicItem]) {
  let parts = items.map { item in
    "\(item.identifier) \(show(item.center)) v=\(fixed(item.velocity.length, 0)) pt/s"
      + (item.angle != 0 ? " ∠\(fixed(item.angle, 3))" : "")
  }
  print("  \(stamp(a))  " + parts.joined(separator: "  "))
}

// MARK: - Lock screen

print("== Lock-screen drop (protocol/PROTOCOL.md, lock-screen; seeds 000, 001, 004) ==")
print("The 320×568 screen, pulled up 200 pt and released at rest: gravity 4 (4000 pt/s²),")
print("elasticity 0.4, a floor 1 pt below the bottom edge, a rail keeping it vertical.")
let drop = LockScreenDrop(pull: 200)
let dropNarrator = Narrator()
drop.animator.delegate = dropNarrator
play(drop.animator, [drop.screen], every: 3)
print(
  "  → \(dropNarrator.bounces) floor contacts; at rest with the center at y="
    + "\(fixed(drop.screen.center.y, 2)) (started at 284, floor 1 pt lower)\n")

// MARK: - Snake

print("== Spring snake (seed 000, BepBop's spring example) ==")
print("The orange block (no rotation) is dragged by a spring (damping 0.4, 1.5 Hz); four blocks")
print("are chained behind it; the green tail is light. Drag left-up for 1.5 s, then let go.")
let snake = SnakeScene()
let snakeNarrator = Narrator()
snake.animator.delegate = snakeNarrator
var finger = Point(x: 160, y: 410)
for frame in 0..<90 {
  finger = finger + Vector(dx: -1.4, dy: -2.2)
  snake.drag(to: finger)
  if frame % 15 == 0 { sample(snake.animator, [snake.orange, snake.blocks[3]]) }
  snake.animator.step(1.0 / 60)
}
print("  \(stamp(snake.animator))  finger lifted at \(show(finger))")
snake.release()
play(snake.animator, [snake.orange, snake.blocks[3]], every: 15)
print("")

// MARK: - Snap

print("== Snap (seed 000) ==")
print("The 95×47 label snaps to each tap; damping 0.5 (the default), then 0.1 and 1.0.")
let snap = SnapScene()
let snapNarrator = Narrator()
snap.animator.delegate = snapNarrator
for (damping, point) in [
  (0.5, Point(x: 80, y: 420)), (0.1, Point(x: 250, y: 160)), (1.0, Point(x: 160, y: 300)),
] {
  snap.damping = damping
  print("  tap at \(show(point)), damping \(damping)")
  snap.tap(point)
  play(snap.animator, [snap.label], every: 9)
}
