import Primitives
import Testing

@Suite("Did-you-mean suggestions")
struct NameSuggestionTests {
  @Test("a swap of neighbours is one edit; insertions, deletions and substitutions count one each")
  func distances() {
    let d = { (a: String, b: String) in editDistance(Array(a.utf8), Array(b.utf8)) }
    #expect(d("stpe", "step") == 1)
    #expect(d("lock-scren", "lock-screen") == 1)
    #expect(d("gravty", "gravity") == 1)
    #expect(d("tpa", "tap") == 1)
    #expect(d("kitten", "sitting") == 3)
    #expect(d("", "abc") == 3)
    #expect(d("same", "same") == 0)
  }

  @Test("the closest name within 2 edits and one edit per two characters; the first of equals")
  func closest() {
    let commands = ["hello", "list", "open", "close", "get", "step", "swipe", "play"]
    #expect(closestName(to: "stpe", among: commands) == "step")
    #expect(closestName(to: "lsit", among: commands) == "list")
    #expect(closestName(to: "xyzzy", among: commands) == nil)
    // One letter suggests nothing: every other one-letter name is one edit away.
    #expect(closestName(to: "L", among: ["C", "M"]) == nil)
    #expect(closestName(to: "LL", among: ["C", "L"]) == "L")
    #expect(closestName(to: "ab", among: ["ax", "ay"]) == "ax")
    #expect(closestName(to: String(repeating: "a", count: 65), among: ["a"]) == nil)
  }
}
