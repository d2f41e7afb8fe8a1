import Daemon
import Testing

/// Every connection slot taken (issue 39, point 5): forked processes holding idle connections
/// used to leave every other client's `hello` failing with a broken pipe. Now the connection idle
/// longest gives way, with an `evicted` error; one that holds anything (a request, a session it
/// watches) never does. A daemon with 4 slots stands for one with 4 096.
@Suite("End to end: a new client gets a slot when idle connections hold them all")
struct EndToEndConnectionSlotsTests {
  static let hello = #"{"op":"hello","id":1}"#

  /// A daemon with `count` connection slots.
  static func slots(_ count: Int) -> (inout Server.Options) -> Void {
    { $0.maxConnections = count }
  }

  @Test("the connection idle longest gives way with an evicted error; the new client is served")
  func idlestGivesWay() throws {
    try withDaemon(configured: Self.slots(4)) { daemon in
      // Four idle connections, each used once, the first one longest ago.
      let held = try (0..<4).map { try daemon.connect("held \($0)") }
      for client in held { try client.expectOK(Self.hello) }

      let newcomer = try daemon.connect("newcomer")
      try newcomer.expectOK(Self.hello)

      let evicted = try held[0].readToEnd()
      #expect(evicted.count == 1, "\(evicted.map(\.text))")
      #expect(evicted.first?.errorCode == "evicted", "\(evicted.map(\.text))")
      #expect(evicted.first?.object["id"] == nil)
      #expect(evicted.first?.errorMessage?.contains("4 connections, its most") == true)
      // The others are untouched and still served, the newcomer included.
      for client in held.dropFirst() + [newcomer] { try client.expectOK(Self.hello) }

      // The next newcomer takes the slot of the one idle longest now: held[1].
      let second = try daemon.connect("second newcomer")
      try second.expectOK(Self.hello)
      #expect(try held[1].readToEnd().first?.errorCode == "evicted")
    }
  }

  @Test("a connection watching a session never gives way; with none idle a newcomer is refused")
  func busyConnectionsStay() throws {
    try withDaemon(configured: Self.slots(2)) { daemon in
      let owner = try daemon.connect("owner")
      try owner.expectOK(
        #"{"op":"open","id":1,"session":"s","transition":"lock-screen","clock":"manual"}"#)
      let watcher = try daemon.connect("watcher")
      try watcher.expectOK(#"{"op":"watch","id":1,"session":"s"}"#)

      // Both hold a session: neither gives way, and the newcomer is closed unserved.
      let refused = try daemon.connect("refused")
      try? refused.send(Self.hello)
      #expect(try refused.readToEnd().isEmpty)
      try owner.expectOK(Self.hello)
      try watcher.expectOK(Self.hello)

      // Once the session is closed neither holds anything: the watcher, idle longest, gives
      // way to the next newcomer.
      try owner.expectOK(#"{"op":"close","id":2,"session":"s"}"#)
      _ = try watcher.read { $0.event == "closed" }
      try owner.expectOK(Self.hello)
      let newcomer = try daemon.connect("newcomer")
      try newcomer.expectOK(Self.hello)
      #expect(try watcher.readToEnd().first?.errorCode == "evicted")
      try owner.expectOK(Self.hello)
    }
  }
}
