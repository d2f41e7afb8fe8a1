import Foundation
import Testing
import TransitionDocuments

@testable import SessionHost

/// The transitions that exist only as documents (examples/transitions), opened by name at a
/// phone's, the seeds' and a desktop's size, and driven as a user would.
@Suite("Host: the document transitions of examples/transitions")
struct HostDocumentExamplesTests {
  static let sizes: [(Double, Double)] = [(320, 568), (412, 915), (1920, 1080)]

  static func rig() throws -> HostRig {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    let rig = HostRig()
    let (documents, problems) = DocumentDirectories.load(
      [root.appendingPathComponent("examples/transitions").path], missingIsFine: false)
    #expect(problems.isEmpty, "\(problems)")
    #expect(rig.host.replaceDocuments(documents).isEmpty)
    return rig
  }

  /// A pan from (x, y) by (dx, dy) over 6 frames, released with (vx, vy); then frames until
  /// a `done`, whose outcome it returns.
  func drag(
    _ client: HostClient, _ session: String, from: (Double, Double), by: (Double, Double),
    release: (Double, Double)
  ) throws -> String? {
    let g = #"{"op":"gesture","session":"\#(session)","#
    try client.expectOK(g + #""phase":"began","x":\#(from.0),"y":\#(from.1),"t":0}"#)
    for i in 1...6 {
      try client.expectOK(#"{"op":"step","session":"\#(session)"}"#)
      let f = Double(i) / 6
      try client.expectOK(
        g + #""phase":"changed","x":\#(from.0 + by.0 * f),"y":\#(from.1 + by.1 * f),"#
          + #""t":\#(Double(i) / 60)}"#)
    }
    try client.expectOK(
      g + #""phase":"ended","x":\#(from.0 + by.0),"y":\#(from.1 + by.1),"t":0.1,"#
        + #""vx":\#(release.0),"vy":\#(release.1)}"#)
    let stepped = try client.expectOK(#"{"op":"step","session":"\#(session)","count":600}"#)
    return stepped.events("done").first?.string("outcome")
  }

  @Test(
    "swipe-card: a flick dismisses it off the side, a short drag springs it back", arguments: sizes)
  func swipeCard(width: Double, height: Double) throws {
    let rig = try Self.rig()
    let client = rig.connect()
    let open =
      #"{"op":"open","transition":"swipe-card","clock":"manual","bounds":[\#(width),\#(height)],"session":"#
    try client.expectOK(open + #""a"}"#)
    let (x, y) = (width / 2, height / 2)
    #expect(try drag(client, "a", from: (x, y), by: (30, 0), release: (1500, 0)) == "dismissed")
    let card = try client.expectOK(#"{"op":"get","session":"a"}"#).reply
    let center = try #require(card.vector("center", of: "card"))
    #expect(center[0] > width && center[1] == y, "off the right side, at its height")
    try client.expectOK(open + #""b"}"#)
    #expect(try drag(client, "b", from: (x, y), by: (20, 40), release: (100, 200)) == "returned")
    let back = try client.expectOK(#"{"op":"get","session":"b"}"#).reply
    let home = try #require(back.vector("center", of: "card"))
    #expect(abs(home[0] - x) < 0.01 && abs(home[1] - y) < 0.01)
  }

  @Test("drawer: a flick from the edge opens it, a flick back closes it", arguments: sizes)
  func drawer(width: Double, height: Double) throws {
    let rig = try Self.rig()
    let client = rig.connect()
    try client.expectOK(
      #"{"op":"open","transition":"drawer","clock":"manual","bounds":[\#(width),\#(height)],"#
        + #""session":"d"}"#)
    let drawerWidth = min(width - 56, 320)
    #expect(
      try drag(client, "d", from: (10, height / 2), by: (60, 0), release: (900, 0)) == "opened")
    let open = try client.expectOK(#"{"op":"get","session":"d"}"#).reply
    #expect(abs((open.vector("center", of: "drawer")?[0] ?? 0) - drawerWidth / 2) < 0.01)
    #expect(
      try drag(client, "d", from: (drawerWidth - 10, height / 2), by: (-40, 0), release: (-900, 0))
        == "closed")
    let closed = try client.expectOK(#"{"op":"get","session":"d"}"#).reply
    #expect(abs((closed.vector("center", of: "drawer")?[0] ?? 0) - (20 - drawerWidth / 2)) < 0.01)
  }
}
