import JSON
import PageScripts
import Primitives
import Wire

/// A `handoff` event, for checking: the finger's velocity, the item's, and the constraints
/// between them.
struct HandoffReport {
  let item: String
  let gesture: (Double, Double)
  let itemVelocity: (Double, Double)
  let constraints: [MotionConstraint]
  /// The daemon's |item velocity − finger velocity after the constraints|, before rounding.
  let velocityError: Double?
  /// How the daemon estimated the finger's velocity; nil when dynctl gave it.
  let estimate: ReleaseEstimate?
  /// Where the release projects the item to; the decay that stops it there (when a decay
  /// receives the release); the detent that chose and the spring that carries it there (a
  /// sheet's). Each nil when the handoff has none.
  let projection: Point?
  let decay: DecayModel?
  let detent: String?
  let spring: SpringParameters?

  /// The report of `message` if it is a `handoff` event.
  init?(_ message: Message) {
    guard case .event(.handoff(let handoff)) = message.content else { return nil }
    item = handoff.item
    gesture = (handoff.gestureVelocity.dx, handoff.gestureVelocity.dy)
    itemVelocity = (handoff.itemVelocity.dx, handoff.itemVelocity.dy)
    velocityError = handoff.velocityError
    constraints = handoff.constraints
    estimate = handoff.estimate
    projection = handoff.projection
    decay = handoff.decay
    detent = handoff.detent
    spring = handoff.spring
  }

  /// The finger's velocity after the constraints, in order — what the item should move with —
  /// and one sentence per constraint saying what it did (`HandoffWords`, which the pages share).
  var expectation: (velocity: (Double, Double), sentences: [String]) {
    var v = gesture
    var sentences: [String] = []
    for c in constraints {
      let before = v
      switch c {
      case .rail(let vector):
        let axis = (vector.dx, vector.dy)
        let dot = v.0 * axis.0 + v.1 * axis.1
        v = (axis.0 * dot, axis.1 * dot)
        sentences.append(
          HandoffWords.fill(
            HandoffWords.rail, ["axis": pair(axis), "before": pair(before), "after": pair(v)]))
      case .anchored:
        v = (0, 0)
        sentences.append(HandoffWords.anchored)
      case .speedLimit(let max):
        let speed = (v.0 * v.0 + v.1 * v.1).squareRoot()
        if speed > max { v = (v.0 * max / speed, v.1 * max / speed) }
        sentences.append(
          HandoffWords.fill(
            HandoffWords.speedLimit,
            ["max": format(max), "before": pair(before), "after": pair(v)]))
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
      + (releaseVelocitySentence(estimate).map { "; \($0)" } ?? "")
  }
}

/// Why the daemon's estimate of the finger's release velocity is zero or limited, in the
/// sentence the pages give too (`HandoffWords`): "release velocity 0 pt/s: the pointer was
/// still for 55 ms before lift-off (…)". Nil when the velocity is the fit (`estimated`), was
/// given, or the reason is one this dynctl does not know.
func releaseVelocitySentence(_ estimate: ReleaseEstimate?) -> String? {
  guard let estimate,
    let why = HandoffWords.reasonSentence(
      estimate.reason.rawValue, stillMilliseconds: estimate.stillMilliseconds,
      gapMilliseconds: estimate.gapMilliseconds)
  else { return nil }
  return "release velocity " + why
}

func distance(_ a: (Double, Double), _ b: (Double, Double)) -> Double {
  ((a.0 - b.0) * (a.0 - b.0) + (a.1 - b.1) * (a.1 - b.1)).squareRoot()
}

func format(_ value: Double) -> String {
  JSONValue.number((value * 1000).rounded() / 1000).jsonText
}

func pair(_ v: (Double, Double)) -> String { "(\(format(v.0)), \(format(v.1)))" }
