import Testing

/// Sessions whose owner leaves: closed with it, or kept and reaped once idle and unwatched.
@Suite("End to end: abandoned sessions")
struct EndToEndSessionLifetimeTests {
  private static func names(_ client: WireClient) throws -> [String] {
    let reply = try client.expectOK(#"{"op":"list"}"#).reply
    return (reply.object["sessions"] as? [[String: Any]] ?? []).compactMap {
      $0["session"] as? String
    }
  }

  @Test("a session closes with its owner; a kept one is reaped when idle, unless watched")
  func abandonedSessions() throws {
    try withDaemon(
      configured: { $0.idleTimeout = .seconds(1) },
      body: { daemon in
        let owner = try daemon.connect("owner")
        let bystander = try daemon.connect("bystander")
        let fan = try daemon.connect("fan")
        try owner.expectOK(
          #"{"op":"open","session":"watched","keep":true,"transition":"lock-screen"}"#)
        try owner.expectOK(#"{"op":"open","session":"plain","transition":"lock-screen"}"#)
        try owner.expectOK(
          #"{"op":"open","session":"kept","keep":true,"transition":"lock-screen"}"#)
        try fan.expectOK(#"{"op":"watch","session":"watched"}"#)
        #expect(try Self.names(bystander) == ["watched", "plain", "kept"])

        owner.close()
        // A request keeps "kept" active past the moment "plain" is gone.
        try bystander.expectOK(#"{"op":"get","session":"kept"}"#)
        #expect(try eventually { try Self.names(bystander) == ["watched", "kept"] })
        try bystander.expectOK(#"{"op":"get","session":"kept"}"#)

        // Unwatched and idle past the timeout: reaped. "watched" is older but has a watcher.
        #expect(try eventually { try Self.names(bystander) == ["watched"] })
        try bystander.expectError("unknown_session", #"{"op":"get","session":"kept"}"#)

        // Once its last watcher leaves, it is reaped too.
        fan.close()
        #expect(try eventually { try Self.names(bystander).isEmpty })
      })
  }
}
