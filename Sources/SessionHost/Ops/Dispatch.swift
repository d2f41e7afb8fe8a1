import Transitions
import Wire

/// What an op does in the host. Each op's request type (`Wire`'s `Op.registry`) conforms in its
/// file in this folder, through the protocol of the target it declares (`OpRequest.target`); the
/// host finds the session and checks its kind before it runs the op, so an op never looks its
/// session up itself.
protocol HostedOp: OpRequest {}

/// An op on the daemon itself (`hello`, `list`, `open`).
protocol DaemonOp: HostedOp {
  /// Runs the op: its reply body, or nil when the reply comes later.
  func run(_ c: OpContext) throws(ProtocolError) -> ReplyBody?
}

/// An op on a session of either kind.
protocol AnySessionOp: HostedOp, SessionOpRequest {
  func run(on session: Session, _ c: OpContext) throws(ProtocolError) -> ReplyBody?
}

/// An op on a session opened with a transition.
protocol TransitionOp: HostedOp, SessionOpRequest {
  func run(on session: Session, _ transition: Transition, _ c: OpContext) throws(ProtocolError)
    -> ReplyBody?
}

/// An op on a session opened with a scene.
protocol SceneOp: HostedOp, SessionOpRequest {
  func run(on scene: SceneModel, _ c: OpContext) throws(ProtocolError) -> ReplyBody?
}

/// What an op is handed besides its request's fields: the request, who asked, and the session
/// the request names, looked up once.
struct OpContext {
  let request: Request
  let peer: Peer
  /// The session named by the request, if it names one that exists.
  let named: Session?
  unowned let host: SessionHost

  /// The named session; `unknown_session` when there is none by that name (suggesting a
  /// close one).
  func session(_ name: String) throws(ProtocolError) -> Session {
    guard let session = named else {
      throw .unknownSession(name, open: host.sessionNamesForSuggestions(near: name))
    }
    session.lastActivity = host.environment.now
    return session
  }

  /// The named session's transition (for a tap or a swipe); `invalid_scene` for a scene.
  func transition(_ name: String) throws(ProtocolError) -> (Session, Transition) {
    let s = try session(name)
    guard case .transition(let t) = s.content else {
      throw ProtocolError(
        .invalidScene,
        "session '\(name)' is a scene; taps and swipes drive named transitions (a scene's "
          + "gesture grips the item under the finger)")
    }
    return (s, t)
  }

  /// The named session's scene; `invalid_scene` for a transition.
  func scene(_ name: String) throws(ProtocolError) -> SceneModel {
    let s = try session(name)
    guard case .scene(let scene) = s.content else {
      throw ProtocolError(
        .invalidScene,
        "session '\(name)' runs the transition '\(s.transitionName ?? "")'; scene ops apply to "
          + "sessions opened with a scene")
    }
    return scene
  }
}

extension SessionHost {
  /// Runs the op of `c.request` on what it targets: its reply body, or nil when the reply comes
  /// later (`step`, an `open` built on a worker). Each op validates fully before changing
  /// anything.
  func dispatch(_ c: OpContext) throws(ProtocolError) -> ReplyBody? {
    switch c.request.op.request {
    case let op as any DaemonOp: return try op.run(c)
    case let op as any AnySessionOp: return try op.run(on: c.session(op.session), c)
    case let op as any TransitionOp:
      let (session, transition) = try c.transition(op.session)
      return try op.run(on: session, transition, c)
    case let op as any SceneOp: return try op.run(on: c.scene(op.session), c)
    default:
      // Every op of the registry is hosted (HostedOpTests); a new one without its file here.
      throw ProtocolError(.unknownOp, "op '\(c.request.op.name)' is not served by this daemon")
    }
  }
}
