import Testing

@testable import InspectorCore

@Suite struct AccessGuardTests {
  let access = AccessGuard(token: "0123456789abcdef0123456789abcdef", port: 8123)

  @Test func ownAddressWithTheTokenPasses() {
    #expect(access.check(host: "127.0.0.1:8123", token: access.token) == nil)
    #expect(access.check(host: "LOCALHOST:8123", token: access.token) == nil)
    #expect(
      access.check(host: "127.0.0.1:8123", token: access.token, origin: "http://127.0.0.1:8123")
        == nil)
  }

  @Test func foreignHostsAreRefusedBeforeTheToken() {
    // A rebinding page's name, another port, no Host at all.
    #expect(
      access.check(host: "evil.example:8123", token: access.token)
        == .foreignHost("evil.example:8123"))
    #expect(
      access.check(host: "127.0.0.1:8124", token: access.token) == .foreignHost("127.0.0.1:8124"))
    #expect(access.check(host: nil, token: access.token) == .foreignHost(nil))
  }

  @Test func missingWrongOrPrefixTokensAreRefused() {
    #expect(access.check(host: "127.0.0.1:8123", token: nil) == .badToken)
    #expect(access.check(host: "127.0.0.1:8123", token: "") == .badToken)
    #expect(
      access.check(host: "127.0.0.1:8123", token: String(access.token.dropLast())) == .badToken)
    #expect(
      access.check(host: "127.0.0.1:8123", token: String(access.token.dropLast()) + "0")
        == .badToken)
  }

  @Test func upgradesFromOtherOriginsAreRefused() {
    #expect(
      access.check(host: "127.0.0.1:8123", token: access.token, origin: "https://evil.example")
        == .foreignOrigin("https://evil.example"))
    #expect(
      access.check(host: "127.0.0.1:8123", token: access.token, origin: "http://127.0.0.1:9999")
        == .foreignOrigin("http://127.0.0.1:9999"))
  }

  @Test func severalHostsOrOriginsAreRefused() {
    let own = "127.0.0.1:8123"
    #expect(
      access.check(hosts: [own, own], token: access.token) == .severalHosts([own, own]))
    #expect(
      access.check(hosts: [own, "evil.example"], token: access.token)
        == .severalHosts([own, "evil.example"]))
    #expect(access.check(hosts: [], token: access.token) == .foreignHost(nil))
    #expect(
      access.check(
        hosts: [own], token: access.token, origins: ["http://" + own, "http://evil.example"])
        == .foreignOrigin("http://\(own), http://evil.example"))
    #expect(access.check(hosts: [own], token: access.token, origins: ["http://" + own]) == nil)
  }

  @Test func tokensAreFreshHex() {
    let a = AccessGuard.newToken()
    let b = AccessGuard.newToken()
    #expect(a.count == 32 && b.count == 32 && a != b)
    #expect(a.allSatisfy { $0.isHexDigit && !$0.isUppercase })
  }
}
