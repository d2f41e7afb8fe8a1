import ArgumentParser
import Dynamics
import EmbeddedHost
import Foundation
import Primitives

/// Issue 40's table: at each display rate, the frames a `step` of 1/Hz gives against those asked
/// and the displacement per frame of an item at 1000 pt/s (through the host, as a client sees
/// them); then, in the engine, how far a fall is from the parabola and how uneven its frames
/// are, how far springs and decays are from their closed forms, and how far a 2000 pt/s grip
/// lets the item trail the finger. The interpolation error is the fall's distance from the
/// engine's own 120 Hz steps joined by straight lines (what interpolating between them gives),
/// and the distance from the engine stepping at the display rate itself is shown beside it.
struct FrameRates: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "frame-rates",
    abstract: "Frames at 60 to 240 Hz: count, evenness, falls, springs, decays, grips.")

  @Option(help: "Display rates, Hz, comma-separated (fractional rates too).")
  var rates: String = "60,75,90,120,144,165,240,59.94,143.86"

  @Flag(help: "Print a Markdown table.")
  var markdown = false

  private var list: [Double] { rates.split(separator: ",").compactMap { Double($0) } }

  func validate() throws {
    guard !list.isEmpty, list.allSatisfy({ $0.isFinite && (1...240).contains($0) }) else {
      throw ValidationError("--rates takes rates from 1 to 240 Hz, e.g. 60,144")
    }
  }

  func run() throws {
    let header = [
      "display", "frames asked", "frames given", "displacement per frame at 1000 pt/s (pt)",
      "fall: from the parabola (pt)", "fall: 2nd difference − g·dt² (pt)",
      "fall: from 120 Hz steps interpolated (pt)", "fall: from the engine at the display rate (pt)",
      "spring, decay: from closed form (pt)", "grip at 2000 pt/s (pt)",
    ]
    print(markdown ? "| " + header.joined(separator: " | ") + " |" : header.joined(separator: "\t"))
    if markdown { print("|" + String(repeating: "---|", count: header.count)) }
    for hz in list {
      let (asked, given, moved) = try Self.constantVelocity(hz)
      let fall = Self.fall(hz)
      let cells = [
        "\(hz) Hz", "\(asked)", "\(given)",
        "\(r(moved.min() ?? 0, 3)) … \(r(moved.max() ?? 0, 3))", r(fall.parabola, 3),
        r(fall.judder, 4), r(fall.interpolation, 4), r(fall.displayRate, 3),
        r(try Self.closedForms(hz), 6), r(try Self.grip(hz), 4),
      ]
      print(markdown ? "| " + cells.joined(separator: " | ") + " |" : cells.joined(separator: "\t"))
    }
  }

  /// Through the host: a `step` of hz/6 frames of 1/hz; the frames given and each frame's
  /// displacement of an item at 1000 pt/s with no resistance.
  static func constantVelocity(_ hz: Double) throws -> (Int, Int, [Double]) {
    let host = EmbeddedHost()
    let peer = host.connect()
    _ = host.send(
      #"{"op":"open","session":"m","clock":"manual","scene":{"bounds":null,"items":[{"id":"a","#
        + #""center":[0,0],"size":[20,20]}],"behaviors":[{"type":"dynamic_item","items":["a"],"#
        + #""resistance":0}]}}"#, from: peer)
    _ = host.send(
      #"{"op":"add_velocity","session":"m","item":"a","velocity":[1000,0]}"#, from: peer)
    let asked = Int((hz / 6).rounded())
    let lines =
      host.send(#"{"op":"step","session":"m","dt":\#(1 / hz),"count":\#(asked)}"#, from: peer)[
        peer] ?? []
    var xs = [0.0]
    for line in lines where line.contains(#""ev":"frame""#) {
      guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
        let items = object["items"] as? [[String: Any]],
        let center = items.first?["center"] as? [Double]
      else { throw ValidationError("a frame without item a: \(line)") }
      xs.append(center[0])
    }
    return (asked, xs.count - 1, zip(xs.dropFirst(), xs).map { $0 - $1 })
  }

  /// A fall from rest under gravity (1000 pt/s²) over 1 s of frames of 1/hz: the largest
  /// distance from the parabola; of a second difference from g·dt²; from the 120 Hz steps joined
  /// by straight lines; and from Box2D's integrator stepped at 1/hz (semi-implicit Euler:
  /// y_n = g·dt²·n(n+1)/2 from rest).
  static func fall(_ hz: Double) -> (
    parabola: Double, judder: Double, interpolation: Double, displayRate: Double
  ) {
    let animator = DynamicAnimator()
    let ball = try! DynamicItem(
      identifier: "ball", center: .zero, size: Size(width: 20, height: 20))
    let material = DynamicItemBehavior(items: [ball])
    material.resistance = 0
    animator.addBehavior(material)
    animator.addBehavior(GravityBehavior(items: [ball]))
    let g = 1000.0
    let h = DynamicAnimator.stepInterval
    let dt = 1 / hz
    var ys = [0.0]
    var worst = (parabola: 0.0, judder: 0.0, interpolation: 0.0, displayRate: 0.0)
    for n in 1...Int(hz.rounded()) {
      animator.step(dt)
      let t = animator.time
      let y = ball.center.y
      ys.append(y)
      let k = (t / h + 1e-9).rounded(.down)
      let stepped = g * h * h * k * (k + 1) / 2 + (t - k * h) * g * h * (k + 1)
      let atDisplayRate = g * dt * dt * Double(n) * Double(n + 1) / 2
      worst.parabola = max(worst.parabola, abs(y - g * t * t / 2))
      worst.interpolation = max(worst.interpolation, abs(y - stepped))
      worst.displayRate = max(worst.displayRate, abs(y - atDisplayRate))
    }
    for k in 1..<(ys.count - 1) {
      worst.judder = max(worst.judder, abs(ys[k + 1] - 2 * ys[k] + ys[k - 1] - g * dt * dt))
    }
    return worst
  }

  /// The largest distance of a spring's item and a decay's item from their closed forms at the
  /// frames' times, over 2 s of frames of 1/hz.
  static func closedForms(_ hz: Double) throws -> Double {
    let animator = DynamicAnimator()
    let launch = Vector(dx: 500, dy: -300)
    let size = Size(width: 20, height: 20)
    let sprung = try DynamicItem(identifier: "s", center: Point(x: 100, y: 100), size: size)
    let coasting = try DynamicItem(identifier: "d", center: Point(x: 50, y: 300), size: size)
    let parameters = SpringParameters.response(0.5, dampingRatio: 0.3)
    let target = Point(x: 250, y: 420)
    let model = DecayModel.scrollView(decelerationRate: DecayModel.normalDecelerationRate)
    animator.addBehavior(
      try SpringBehavior(
        items: [sprung], target: target, parameters: parameters, initialVelocity: launch))
    animator.addBehavior(
      try DecayBehavior(items: [coasting], model: model, initialVelocity: launch))
    let spring = SpringMotion(parameters, from: sprung.center, velocity: launch, to: target)
    let decay = DecayMotion(model, from: coasting.center, velocity: launch)
    var worst = 0.0
    for _ in 0..<Int(2 * hz) {
      animator.step(1 / hz)
      let t = animator.time
      if !spring.isAtRest(at: t) {
        worst = max(worst, (sprung.center - spring.state(at: t).position).length)
      }
      if !decay.isStopped(at: t) {
        worst = max(worst, (coasting.center - decay.state(at: t).position).length)
      }
    }
    return worst
  }

  /// A finger's grip dragged at 2000 pt/s for 1/6 s, a sample a frame after a first frame at
  /// rest: the largest distance of the held point from the finger at a frame's end.
  static func grip(_ hz: Double) throws -> Double {
    let animator = DynamicAnimator()
    let card = try DynamicItem(
      identifier: "card", center: Point(x: 60, y: 300), size: Size(width: 80, height: 80))
    let grip = try AttachmentBehavior(item: card, attachedToAnchor: card.center)
    animator.addBehavior(grip)
    animator.step(1 / hz)
    var worst = 0.0
    for k in 1...Int(hz / 6) {
      grip.anchorPoint = Point(x: 60 + 2000 * Double(k) / hz, y: 300)
      animator.step(1 / hz)
      worst = max(worst, (card.center - grip.anchorPoint).length)
    }
    return worst
  }
}
