import Wire

/// A `handoff` event: the finger's velocity, the item's, and the constraints between them.
struct Handoff {
  /// Something that keeps the item from taking the finger's velocity as it is.
  enum Constraint {
    case rail(axis: (Double, Double))
    case anchored
    case speedLimit(Double)
  }

  let item: String
  let gesture: (Double, Double)
  let itemVelocity: (Double, Double)
  let constraints: [Constraint]
  /// The daemon's |item velocity − finger velocity after the constraints|, before rounding.
  let velocityError: Double?

  init?(_ message: Message) {
    guard message.event == "handoff", let g = message.value["gesture_velocity"],
      let v = message.value["item_velocity"], let gx = g[0]?.number, let gy = g[1]?.number,
      let vx = v[0]?.number, let vy = v[1]?.number
    else { return nil }
    item = message.value["item"]?.string ?? "?"
    gesture = (gx, gy)
    itemVelocity = (vx, vy)
    velocityError = message.value["velocity_error"]?.number
    var constraints: [Constraint] = []
    if case .array(let list)? = message.value["constraints"] {
      for c in list {
        switch c["kind"]?.string {
        case "rail":
          if let x = c["axis"]?[0]?.number, let y = c["axis"]?[1]?.number {
            constraints.append(.rail(axis: (x, y)))
          }
        case "anchored": constraints.append(.anchored)
        case "speed_limit":
          if let m = c["max_speed"]?.number { constraints.append(.speedLimit(m)) }
        default: break
        }
      }
    }
    self.constraints = constraints
  }

  /// The finger's velocity after the constraints, in order — what the item should move with —
  /// and one sentence per constraint saying what it did.
  var expectation: (velocity: (Double, Double), sentences: [String]) {
    var v = gesture
    var sentences: [String] = []
    for c in constraints {
      let before = v
      switch c {
      case .rail(let axis):
        let dot = v.0 * axis.0 + v.1 * axis.1
        v = (axis.0 * dot, axis.1 * dot)
        sentences.append(
          "the item runs on a rail along \(pair(axis)): \(pair(before)) projected onto it is "
            + "\(pair(v)) pt/s")
      case .anchored:
        v = (0, 0)
        sentences.append("the item is anchored: it does not move")
      case .speedLimit(let max):
        let speed = (v.0 * v.0 + v.1 * v.1).squareRoot()
        if speed > max { v = (v.0 * max / speed, v.1 * max / speed) }
        sentences.append(
          "the engine moves nothing faster than \(format(max)) pt/s: \(pair(before)) is scaled "
            + "down to \(pair(v)) pt/s")
      }
    }
    return (v, sentences)
  }

  /// How far the reported item velocity is from the finger's, as written (rounded).
  var difference: Double { distance(gesture, itemVelocity) }

  var summary: String {
    "handoff \(item): gesture velocity \(pair(gesture)), item velocity \(pair(itemVelocity)), "
      + "difference \(format(difference)) pt/s"
      + (constraints.isEmpty ? "" : " (" + expectation.sentences.joined(separator: "; ") + ")")
  }
}

func distance(_ a: (Double, Double), _ b: (Double, Double)) -> Double {
  ((a.0 - b.0) * (a.0 - b.0) + (a.1 - b.1) * (a.1 - b.1)).squareRoot()
}

func format(_ value: Double) -> String {
  JSONValue.number((value * 1000).rounded() / 1000).jsonText
}

func pair(_ v: (Double, Double)) -> String { "(\(format(v.0)), \(format(v.1)))" }
