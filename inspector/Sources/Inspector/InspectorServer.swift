import DaemonSocket
import HTTPTypes
import Hummingbird
import HummingbirdWebSocket
import InspectorCore
import Logging
import NIOCore
import Synchronization

/// The inspector's HTTP server on 127.0.0.1: `GET /?token=…` serves the page, `GET /ws?token=…`
/// upgrades to a WebSocket bridged to a new connection of the user's dynd (`DaemonBridge`).
/// Every request passes `AccessGuard` first; anything else is 404.
public struct InspectorServer: Sendable {
  public let socket: SocketLocation
  /// 0: the system chooses a free port.
  public let port: Int
  public let token: String
  let logger: Logger

  public init(socket: SocketLocation, port: Int, token: String = AccessGuard.newToken()) {
    self.socket = socket
    self.port = port
    self.token = token
    var logger = Logger(label: "dynd-inspect")
    // Notices: dynd gone and back (DaemonPresence); warnings; not the server's own chatter.
    logger.logLevel = .notice
    self.logger = logger
  }

  /// Serves until SIGINT or SIGTERM; `ready` gets the page's address once the server listens.
  public func run(ready: @escaping @Sendable (String) -> Void) async throws {
    let access = AccessBox()
    let router = Router(context: BasicWebSocketRequestContext.self)
    router.add(middleware: GuardMiddleware(access: access))
    router.get("/") { _, _ in
      var headers = HTTPFields()
      headers[.contentType] = "text/html; charset=utf-8"
      return Response(
        status: .ok, headers: headers,
        body: .init(byteBuffer: ByteBuffer(string: InspectorPage.html)))
    }
    let socket = self.socket
    let presence = DaemonPresence(logger: logger)
    router.ws("/ws") { inbound, outbound, _ in
      try await DaemonBridge.run(
        socket: socket, inbound: inbound, outbound: outbound, presence: presence)
    }
    let token = self.token
    let app = Application(
      router: router,
      server: .http1WebSocketUpgrade(
        webSocketRouter: router,
        configuration: .init(ws: .init(maxFrameSize: DaemonBridge.maxMessageBytes))),
      configuration: .init(address: .hostname("127.0.0.1", port: port), serverName: nil),
      onServerRunning: { channel in
        let bound = channel.localAddress?.port ?? 0
        access.mutex.withLock { $0 = AccessGuard(token: token, port: bound) }
        ready("http://127.0.0.1:\(bound)/?token=\(token)")
      },
      logger: logger)
    try await app.runService()
  }
}

/// Refuses what `AccessGuard` refuses (403, with the reason), and tells browsers not to cache
/// the page, frame it, or send its address (which holds the token) to anyone.
struct GuardMiddleware: RouterMiddleware {
  typealias Context = BasicWebSocketRequestContext
  let access: AccessBox

  func handle(
    _ request: Request, context: Context, next: (Request, Context) async throws -> Response
  ) async throws -> Response {
    // HTTP/1's first Host header is the request's authority; any other stays a header field.
    let hosts = (request.head.authority.map { [$0] } ?? []) + request.headers[values: Self.host]
    let refusal: AccessGuard.Refusal? = access.mutex.withLock { guardNow in
      guard let guardNow else { return .badToken }
      return guardNow.check(
        hosts: hosts, token: request.uri.queryParameters["token"].map(String.init),
        origins: request.headers[values: .origin])
    }
    if let refusal {
      var headers = HTTPFields()
      headers[.contentType] = "text/plain; charset=utf-8"
      return Response(
        status: .forbidden, headers: headers,
        body: .init(byteBuffer: ByteBuffer(string: AccessGuard.explanation(refusal))))
    }
    var response = try await next(request, context)
    response.headers[.cacheControl] = "no-store"
    response.headers[Self.referrerPolicy] = "no-referrer"
    response.headers[Self.frameOptions] = "DENY"
    response.headers[.contentSecurityPolicy] =
      "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
      + "connect-src 'self'; img-src data: blob:; frame-ancestors 'none'"
    return response
  }

  static let host = HTTPField.Name("Host")!
  static let referrerPolicy = HTTPField.Name("Referrer-Policy")!
  static let frameOptions = HTTPField.Name("X-Frame-Options")!
}

/// The guard, set once the server knows its port, shared by every request.
final class AccessBox: Sendable {
  let mutex = Mutex<AccessGuard?>(nil)
}
