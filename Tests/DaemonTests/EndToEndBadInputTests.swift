import Foundation
import TestSupport
import Testing

private func utf8(_ text: String) -> [UInt8] { Array(text.utf8) }

/// The lines whose framing a socket could change (empty lines, NUL bytes, a line cut inside a
/// character, a line longer than one read), sent to a daemon whose connection holds the manual
/// scene session `s`. Every line of this list and the rest of the corpus (what the codec and the
/// host decide alone) is also sent to an embedded host by `Host bad input corpus`
/// (`SessionHostTests/HostBadInputTests`).
let daemonBadLines: [BadLine] = [
  BadLine("empty line", "", "bad_json"),
  BadLine("blank line", " \t ", "bad_json"),
  BadLine(
    "NUL inside a string", bytes: utf8(#"{"op":"li"#) + [0] + utf8(#"st"}"#), "bad_json"),
  BadLine("NUL after the object", bytes: utf8(#"{"op":"list"}"#) + [0], "bad_json"),
  BadLine(
    "invalid UTF-8: truncated at the end", bytes: utf8(#"{"op":"list","id":""#) + [0xE2, 0x82],
    "bad_json"),
  BadLine("invalid UTF-8: a 0xFF byte", bytes: utf8(#"{"op":"list"}"#) + [0xFF], "bad_json"),
  BadLine(
    "nesting 100 000 deep",
    String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000), "bad_json"),
  BadLine(
    "a huge array where an id belongs",
    #"{"op":"list","id":["# + Array(repeating: "0", count: 200_000).joined(separator: ",") + "]}",
    "wrong_type"),
]

@Suite("End to end: bad input corpus")
struct EndToEndBadInputTests {
  @Test("every framing-sensitive bad line gets its code; the connection and another carry on")
  func corpus() throws {
    try withDaemon { daemon in
      let client = try daemon.connect("bad")
      let neighbour = try daemon.connect("neighbour")
      try client.expectOK(
        #"{"op":"open","session":"s","clock":"manual","scene":{"items":["#
          + #"{"id":"a","center":[100,100],"size":[20,20]},"#
          + #"{"id":"b","center":[150,100],"size":[20,20]}],"behaviors":["#
          + #"{"type":"gravity","id":"g","items":["a","b"]},"#
          + #"{"type":"collision","id":"c","items":["a","b"],"reference_bounds":true}]}}"#)
      try neighbour.expectOK(
        #"{"op":"open","session":"other","clock":"manual","scene":"#
          + Scenes.endlessFall(items: 1) + "}")
      let before = try client.expectOK(#"{"op":"get","session":"s"}"#).reply.text
      var seq = 0
      for line in daemonBadLines {
        try client.send(bytes: line.bytes + [0x0A])
        let reply = try #require(try client.readMessage(), "\(line)")
        #expect(reply.isReply && reply.errorCode == line.code, "\(line): \(reply.text)")
        // The same connection answers the next request, and nothing changed.
        let probe = try client.request(#"{"op":"get","session":"s","id":"probe"}"#)
        #expect(probe.reply.id == "probe" && probe.events.isEmpty, "\(line): \(probe.reply.text)")
        #expect(
          probe.reply.text
            == before.replacingOccurrences(
              of: "{\"ok\":true,", with: "{\"ok\":true,\"id\":\"probe\","),
          "\(line) changed the session")
        // Another connection's session keeps stepping.
        let step = try neighbour.expectOK(#"{"op":"step","session":"other"}"#)
        seq += 1
        #expect(step.events("frame").map(\.seq) == [seq], "\(line)")
      }
      #expect(try client.expectOK(#"{"op":"get","session":"s"}"#).reply.text == before)
      // No bad line added a session or a behavior ("b1" is the first name the daemon gives).
      let sessions =
        try client.expectOK(#"{"op":"list"}"#).reply.object["sessions"] as? [[String: Any]]
      #expect(sessions?.compactMap { $0["session"] as? String } == ["s", "other"])
      try client.expectError(
        "unknown_behavior", #"{"op":"remove_behavior","session":"s","behavior":"b1"}"#)

      // An over-long line (1 MiB is the default limit) is answered first, then closed.
      let long = try daemon.connect("long")
      // The daemon stops reading at the limit and closes, so the rest of the write may fail.
      try? long.send(bytes: [0x7B] + [UInt8](repeating: 0x20, count: 1 << 20) + [0x7D, 0x0A])
      let answer = try long.readToEnd()
      #expect(answer.map(\.errorCode) == ["line_too_long"], "\(answer.map(\.text))")
      try client.expectOK(#"{"op":"get","session":"s"}"#)
      try neighbour.expectOK(#"{"op":"step","session":"other"}"#)
    }
  }

  @Test("a line over --max-line is answered line_too_long, then closed; others are unaffected")
  func configuredLineLimit() throws {
    try withDaemon(
      configured: { $0.maxLine = 4096 },
      body: { daemon in
        let client = try daemon.connect()
        let other = try daemon.connect("other")
        try client.expectOK(#"{"op":"hello"}"#)
        try client.send(String(repeating: " ", count: 5000) + #"{"op":"hello"}"#)
        let rest = try client.readToEnd()
        #expect(rest.count == 1)
        #expect(rest.first?.errorCode == "line_too_long", "\(rest.map(\.text))")
        try other.expectOK(#"{"op":"list"}"#)
      })
  }
}
