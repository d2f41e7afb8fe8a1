import Foundation
import Testing

/// The `debug` stream: the behaviors as geometry, matching the scene (moved from the daemon
/// tests: nothing in it is about sockets).
@Suite("Host: debug geometry")
struct HostDebugTests {
  static let scene =
    #"{"items":[{"id":"a","center":[100,100],"size":[50,50]},{"id":"b","center":[200,100],"#
    + #""size":[20,20]}],"behaviors":[{"type":"gravity","items":["a"]},"#
    + #"{"type":"collision","items":["a","b"],"reference_bounds":true,"#
    + #""boundaries":[{"id":"ledge","from":[0,300],"to":[320,320]},"#
    + #"{"id":"cup","path":[[20,400],[20,500],[120,500]]}]},"#
    + #"{"type":"attachment","item":"b","anchor":[200,50],"frequency":2,"damping":0.3},"#
    + #"{"type":"attachment","item":"a","to":"b","offset":[10,0],"to_offset":[0,5]},"#
    + #"{"type":"snap","item":"b","point":[250,90]},"#
    + #"{"type":"push","items":["a"],"mode":"continuous","direction":[0.5,0]}]}"#

  func numbers(_ value: Any?) -> [Double]? { (value as? [NSNumber])?.map(\.doubleValue) }

  @Test("the reply's geometry is the scene's: boundary ends, anchors, attachment points, snap")
  func geometryMatchesTheScene() throws {
    do {
      let daemon = HostRig()
      let client = daemon.connect()
      try client.expectOK(
        #"{"op":"open","session":"S","clock":"manual","scene":"# + Self.scene + "}")
      let reply = try client.expectOK(#"{"op":"debug","session":"S"}"#).reply
      let debug = try #require(reply.object["debug"] as? [String: Any])
      let boundaries = try #require(debug["boundaries"] as? [[String: Any]])
      #expect(boundaries.count == 3)
      #expect(boundaries[0]["id"] is NSNull && numbers(boundaries[0]["rect"]) == [0, 0, 320, 568])
      #expect(boundaries[1]["id"] as? String == "ledge")
      #expect(
        (boundaries[1]["points"] as? [[NSNumber]])?.map { $0.map(\.doubleValue) } == [
          [0, 300], [320, 320],
        ])
      #expect((boundaries[2]["points"] as? [[NSNumber]])?.count == 3)
      let attachments = try #require(debug["attachments"] as? [[String: Any]])
      #expect(attachments.count == 2)
      let spring = attachments[0]
      #expect(spring["item"] as? String == "b" && spring["to"] is NSNull)
      #expect(
        numbers(spring["to_point"]) == [200, 50] && numbers(spring["item_point"]) == [200, 100])
      #expect(spring["spring"] as? Bool == true && (spring["length"] as? NSNumber) == 50)
      let rod = attachments[1]
      #expect(rod["to"] as? String == "b" && rod["spring"] as? Bool == false)
      #expect(numbers(rod["item_point"]) == [110, 100] && numbers(rod["to_point"]) == [200, 105])
      let snap = try #require((debug["snaps"] as? [[String: Any]])?.first)
      #expect(snap["item"] as? String == "b" && numbers(snap["point"]) == [250, 90])
      let push = try #require((debug["pushes"] as? [[String: Any]])?.first)
      #expect(numbers(push["vector"]) == [0.5, 0] && push["active"] as? Bool == true)
      let gravity = try #require((debug["gravity"] as? [[String: Any]])?.first)
      #expect(numbers(gravity["vector"]) == [0, 1] && gravity["items"] as? [String] == ["a"])
      #expect((debug["contacts"] as? [Any])?.isEmpty == true)
    }
  }

  @Test("a debug event follows every frame, with moving attachment points and live contacts")
  func streamFollowsTheFrames() throws {
    do {
      let daemon = HostRig()
      let client = daemon.connect()
      let other = daemon.connect("other")
      try client.expectOK(
        #"{"op":"open","session":"S","clock":"manual","scene":"# + Self.scene + "}")
      try other.expectOK(#"{"op":"debug","session":"S"}"#)
      let stepped = try client.expectOK(#"{"op":"step","session":"S","count":40}"#)
      #expect(stepped.events("debug").isEmpty, "only the connection that asked gets the stream")
      let streamed = try other.read { $0.event == "frame" && $0.seq == 40 }
      let next = try #require(try other.readMessage())
      #expect(next.event == "debug" && next.seq == 40)
      let frames = (streamed + [next]).filter { $0.event == "frame" }
      let debugs = (streamed + [next]).filter { $0.event == "debug" }
      #expect(frames.count == 40 && debugs.map(\.seq) == frames.map(\.seq))
      // The spring's item end follows item b; its anchor stays.
      let b = try #require(frames.last?.vector("center", of: "b"))
      let spring = try #require((next.object["attachments"] as? [[String: Any]])?.first)
      #expect(numbers(spring["item_point"]) == b && numbers(spring["to_point"]) == [200, 50])
      let touched = debugs.contains { !(($0.object["contacts"] as? [Any]) ?? []).isEmpty }
      #expect(touched, "a swings into the right wall within 40 frames")
      try other.expectOK(#"{"op":"debug","session":"S","enable":false}"#)
      try client.expectOK(#"{"op":"step","session":"S","count":2}"#)
      let after = try other.read { $0.event == "frame" && $0.seq == 42 }
      #expect(after.allSatisfy { $0.event != "debug" }, "stopped; frames go on (it watches)")
    }
  }
}
