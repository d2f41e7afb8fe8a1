import Testing

/// The reaper on the daemon's own timer. Which sessions close with their owner, which are kept,
/// and that a watched one is not reaped are the host's rules, checked with a hand-driven clock
/// (`SessionHostTests/HostSessionLifetimeTests`); here nobody advances time but the daemon.
@Suite("End to end: abandoned sessions")
struct EndToEndSessionLifetimeTests {
  private static func names(_ client: WireClient) throws -> [String] {
    let reply = try client.expectOK(#"{"op":"list"}"#).reply
    return (reply.object["sessions"] as? [[String: Any]] ?? []).compactMap {
      $0["session"] as? String
    }
  }

  @Test("the daemon's timer reaps a kept session left idle past the timeout")
  func reaperRunsOnTheDaemonsTimer() throws {
    try withDaemon(
      configured: { $0.idleTimeout = .seconds(1) },
      body: { daemon in
        let owner = try daemon.connect("owner")
        let bystander = try daemon.connect("bystander")
        try owner.expectOK(
          #"{"op":"open","session":"kept","keep":true,"transition":"lock-screen"}"#)
        let left = ContinuousClock.now
        owner.close()
        try bystander.expectOK(#"{"op":"get","session":"kept"}"#)
        #expect(
          try eventually { try Self.names(bystander).isEmpty },
          "the kept session was not reaped within 10 s of its owner leaving")
        #expect(ContinuousClock.now - left >= .seconds(1), "reaped before the idle timeout")
        try bystander.expectError("unknown_session", #"{"op":"get","session":"kept"}"#)
      })
  }
}
