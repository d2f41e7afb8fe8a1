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

  @Test(
    "pull-to-refresh: a long pull is rubber-banded and held at the refresh detent until a tap",
    arguments: sizes)
  func pullToRefresh(width: Double, height: Double) throws {
    let rig = try Self.rig()
    let client = rig.connect()
    let open =
      #"{"op":"open","transition":"pull-to-refresh","clock":"manual","bounds":[\#(width),\#(height)],"session":"#
    try client.expectOK(open + #""p"}"#)
    let (x, y) = (width / 2, height / 2)
    // The rubber band: a 200 pt pull moves the list (1 − 1/(200·0.55/h + 1))·h.
    try client.expectOK(#"{"op":"gesture","session":"p","phase":"began","x":\#(x),"y":100,"t":0}"#)
    try client.expectOK(#"{"op":"step","session":"p"}"#)
    try client.expectOK(
      #"{"op":"gesture","session":"p","phase":"changed","x":\#(x),"y":300,"t":0.2}"#)
    try client.expectOK(#"{"op":"step","session":"p"}"#)
    let pulled = try client.expectOK(#"{"op":"get","session":"p"}"#).reply
    let banded = (1 - 1 / (200 * 0.55 / height + 1)) * height
    #expect(abs((pulled.vector("center", of: "content")?[1] ?? 0) - (y + banded)) < 0.01)
    try client.expectOK(
      #"{"op":"gesture","session":"p","phase":"ended","x":\#(x),"y":300,"t":0.3,"vx":0,"vy":0}"#)
    let held = try client.expectOK(#"{"op":"step","session":"p","count":300}"#)
    #expect(held.events("done").first?.string("outcome") == "refreshing")
    let detent = try client.expectOK(#"{"op":"get","session":"p"}"#).reply
    #expect(abs((detent.vector("center", of: "content")?[1] ?? 0) - (y + 60)) < 0.01)
    let tap = try client.expectOK(#"{"op":"tap","session":"p","x":\#(x),"y":\#(y)}"#).reply
    #expect(tap.bool("taken") == true)
    let idle = try client.expectOK(#"{"op":"step","session":"p","count":300}"#)
    #expect(idle.events("done").first?.string("outcome") == "idle")
    // A short pull springs back: idle, and a tap then does nothing.
    try client.expectOK(open + #""q"}"#)
    #expect(try drag(client, "q", from: (x, 100), by: (0, 40), release: (0, 0)) == "idle")
    let ignored = try client.expectOK(#"{"op":"tap","session":"q","x":\#(x),"y":\#(y)}"#).reply
    #expect(ignored.bool("taken") == false)
  }
}
