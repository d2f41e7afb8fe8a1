import PageScripts
import Primitives
import Testing

/// The handoff's sentences are written once: the pages' script carries the very templates that
/// `dynctl handoff` fills.
struct HandoffWordsTests {
  @Test func theScriptEmbedsEveryTemplate() {
    let templates =
      [HandoffWords.rail, HandoffWords.anchored, HandoffWords.speedLimit]
      + HandoffWords.reasons.map(\.sentence)
    for template in templates {
      #expect(HandoffWords.source.contains("\"" + template + "\""), "\(template)")
    }
    for reason in HandoffWords.reasons.map(\.reason) {
      #expect(HandoffWords.source.contains("\"" + reason + "\": "), "\(reason)")
    }
  }

  @Test func fillingReplacesEveryPlaceholder() {
    let values = ["axis": "(0, 1)", "before": "(3, 4)", "after": "(0, 4)"]
    #expect(
      HandoffWords.fill(HandoffWords.rail, values)
        == "the item runs on a rail along (0, 1): (3, 4) projected onto it is (0, 4) pt/s")
    #expect(
      HandoffWords.reasonSentence("pointer_stopped", stillMilliseconds: 55.0004)
        == "0 pt/s: the pointer was still for 55 ms before lift-off "
        + "(Android's and Flutter's 40 ms rule)")
    #expect(HandoffWords.reasonSentence("estimated", stillMilliseconds: nil) == nil)
  }
}

/// The pages' estimator and the handoff's sentences hold no copy of the estimator's constants:
/// Swift gives them its own (`VelocityEstimator`).
struct EstimatorConstantsTests {
  @Test func theScriptIsGivenTheConstants() {
    let source = FingerVelocityScript.source
    #expect(source.hasPrefix("const DYND_ESTIMATOR = {horizon: \(VelocityEstimator.horizon), "))
    #expect(source.contains("history_size: \(VelocityEstimator.historySize)"))
    #expect(source.contains("stopped_after: \(VelocityEstimator.stoppedAfter)"))
    // The script's own text names the constants only through DYND_ESTIMATOR.
    let script = source.split(separator: "\n", maxSplits: 1).last.map(String.init) ?? ""
    for literal in ["0.1,", "= 20", "0.04", "1e-9"] {
      #expect(!script.contains(literal), "\(literal)")
    }
  }

  @Test func theSentencesQuoteTheConstants() {
    let sentences = Dictionary(uniqueKeysWithValues: HandoffWords.reasons.map { ($0, $1) })
    #expect(
      sentences["pointer_stopped"]?.contains(
        "\(Int(VelocityEstimator.stoppedAfter * 1000)) ms rule") == true)
    #expect(
      sentences["stale_samples"]?.contains("\(Int(VelocityEstimator.horizon * 1000)) ms horizon")
        == true)
    #expect(sentences["limited"]?.contains("\(Int(VelocityEstimator.maxSpeed)) pt/s") == true)
  }
}
