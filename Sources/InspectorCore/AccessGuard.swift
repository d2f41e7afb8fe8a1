/// Who may use the inspector: a page from this machine that knows the token.
///
/// The server listens on 127.0.0.1 only, yet any web page the user visits could make the browser
/// send requests there, so, as notebook servers do, every request must carry the random token
/// printed at start (`?token=…`), and its `Host` must name the loopback address and port the
/// inspector listens on (a page of another site that rebinds its own name to 127.0.0.1 sends
/// its own name as `Host`), in exactly one `Host` header (two, even equal, are refused: a proxy
/// or cache may read the other). Every request that has an `Origin` — so every WebSocket
/// upgrade attempt a browser makes, whatever its `Upgrade` and `Connection` headers say — must
/// come from that same address, in exactly one `Origin` header, as a browser sends it for pages
/// the inspector served.
public struct AccessGuard: Sendable {
  /// 128 random bits as 32 lowercase hex digits.
  public let token: String
  /// The port the server listens on (known once it runs: it may be chosen by the system).
  public let port: Int

  public init(token: String, port: Int) {
    self.token = token
    self.port = port
  }

  /// A fresh token from the system's random source.
  public static func newToken() -> String {
    var generator = SystemRandomNumberGenerator()
    return (0..<16).map { _ in
      let byte = UInt8.random(in: 0...255, using: &generator)
      let hex = String(byte, radix: 16)
      return byte < 16 ? "0" + hex : hex
    }.joined()
  }

  /// Why a request may not be served, or nil if it may.
  public enum Refusal: Equatable, Sendable {
    /// The Host header is missing or names another host or port.
    case foreignHost(String?)
    /// Several Host headers (equal or not).
    case severalHosts([String])
    /// The token is missing or wrong.
    case badToken
    /// A request (a WebSocket upgrade, from a browser) from a page of another origin, or with
    /// several Origin headers (joined with ", ").
    case foreignOrigin(String)
  }

  /// The hosts a browser on this machine sends for the inspector's own address.
  var ownHosts: [String] { ["127.0.0.1:\(port)", "localhost:\(port)"] }

  /// Checks a request's `Host` headers (`hosts`: every one, the request's authority first),
  /// `token` query value and `Origin` headers (`origins`: every one; none from a client that
  /// is not a browser).
  public func check(hosts: [String], token candidate: String?, origins: [String] = [])
    -> Refusal?
  {
    guard hosts.count <= 1 else { return .severalHosts(hosts) }
    guard let host = hosts.first, ownHosts.contains(host.lowercased()) else {
      return .foreignHost(hosts.first)
    }
    guard let candidate, Self.constantTimeEqual(candidate, token) else { return .badToken }
    if !origins.isEmpty {
      guard origins.count == 1, ownHosts.map({ "http://" + $0 }).contains(origins[0].lowercased())
      else { return .foreignOrigin(origins.joined(separator: ", ")) }
    }
    return nil
  }

  /// `check(hosts:token:origins:)` for a request with at most one Host and one Origin header.
  public func check(host: String?, token candidate: String?, origin: String? = nil) -> Refusal? {
    check(hosts: host.map { [$0] } ?? [], token: candidate, origins: origin.map { [$0] } ?? [])
  }

  /// Compares without stopping at the first difference, so timing does not reveal a prefix.
  static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
    let x = Array(a.utf8)
    let y = Array(b.utf8)
    guard x.count == y.count else { return false }
    var difference: UInt8 = 0
    for i in x.indices { difference |= x[i] ^ y[i] }
    return difference == 0
  }

  /// What the refused client is told (plain text, status 403).
  public static func explanation(_ refusal: Refusal) -> String {
    switch refusal {
    case .foreignHost(let host):
      return "dynd-inspect answers only requests addressed to 127.0.0.1 or localhost on its "
        + "port (this one named \(host.map { "'\($0)'" } ?? "no host")).\n"
    case .severalHosts(let hosts):
      return "dynd-inspect answers only requests with one Host header (this one had "
        + "\(hosts.count)).\n"
    case .badToken:
      return "dynd-inspect needs the token it printed when it started: open the whole address "
        + "it printed, http://127.0.0.1:PORT/?token=….\n"
    case .foreignOrigin(let origin):
      return "dynd-inspect refuses requests and WebSocket connections from pages of other "
        + "origins (this one came from '\(origin)').\n"
    }
  }
}
