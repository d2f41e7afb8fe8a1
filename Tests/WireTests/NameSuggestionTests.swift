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

  @Test("the banded distance is the full one wherever that is within the bound, else nil")
  func bandedAgreesWithFull() {
    // The full table, written plainly, as the reference.
    func reference(_ a: [UInt8], _ b: [UInt8]) -> Int {
      var d = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
      for i in 0...a.count { d[i][0] = i }
      for j in 0...b.count { d[0][j] = j }
      for i in stride(from: 1, through: a.count, by: 1) {
        for j in stride(from: 1, through: b.count, by: 1) {
          d[i][j] = min(
            d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
          if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
            d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
          }
        }
      }
      return d[a.count][b.count]
    }
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    func next(_ bound: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((state >> 33) % UInt64(bound))
    }
    for _ in 0..<5_000 {
      // Short words over three letters, so that near misses, swaps and repeats are common.
      let a = (0..<next(9)).map { _ in UInt8(97 + next(3)) }
      let b = (0..<next(9)).map { _ in UInt8(97 + next(3)) }
      let full = reference(a, b)
      #expect(editDistance(a, b) == full, "\(a) \(b)")
      for limit in 0...3 {
        #expect(
          editDistance(a, b, atMost: limit) == (full <= limit ? full : nil),
          "\(a) \(b) within \(limit)")
      }
    }
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
