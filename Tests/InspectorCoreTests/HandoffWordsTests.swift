import PageScripts
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
