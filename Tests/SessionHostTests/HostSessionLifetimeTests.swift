import SessionHost
import Testing

/// Sessions whose owner leaves: closed with it, or kept and reaped once idle and unwatched.
@Suite("Host: abandoned sessions")
struct HostSessionLifetimeTests {
  private static func names(_ client: HostClient) throws -> [String] {
    let reply = try client.expectOK(#"{"op":"list"}"#).reply
    return (reply.object["sessions"] as? [[String: Any]] ?? []).compactMap {
      $0["session"] as? String
    }
  }

  @Test("a session closes with its owner; a kept one is reaped when idle, unless watched")
  func abandonedSessions() throws {
    // The reaper measures idleness on the wall clock (`ContinuousClock`), not the environment's:
    // with a zero timeout, every unwatched kept session is idle at the reaper's next tick.
    var configuration = SessionHost.Configuration()
    configuration.idleTimeout = .zero
    do {
      let daemon = HostRig(configuration: configuration)
      let owner = daemon.connect("owner")
      let bystander = daemon.connect("bystander")
      let fan = daemon.connect("fan")
      try owner.expectOK(
        #"{"op":"open","session":"watched","keep":true,"transition":"lock-screen"}"#)
      try owner.expectOK(#"{"op":"open","session":"plain","transition":"lock-screen"}"#)
      try owner.expectOK(
        #"{"op":"open","session":"kept","keep":true,"transition":"lock-screen"}"#)
      try fan.expectOK(#"{"op":"watch","session":"watched"}"#)
      #expect(try Self.names(bystander) == ["watched", "plain", "kept"])

      owner.close()
      // "plain" closes with its owner at once; the kept ones wait for the reaper.
      #expect(try Self.names(bystander) == ["watched", "kept"])
      try bystander.expectOK(#"{"op":"get","session":"kept"}"#)

      // Unwatched and idle past the timeout: reaped. "watched" is older but has a watcher.
      daemon.advance(by: .milliseconds(100))
      #expect(try Self.names(bystander) == ["watched"])
      try bystander.expectError("unknown_session", #"{"op":"get","session":"kept"}"#)

      // Once its last watcher leaves, it is reaped too.
      fan.close()
      daemon.advance(by: .milliseconds(100))
      #expect(try Self.names(bystander).isEmpty)
    }
  }
}
