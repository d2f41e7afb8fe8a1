import Transitions
import Wire

/// What an op is handed besides its payload: who asked, and the session the request names,
/// looked up once.
struct OpContext {
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

  /// The named session's transition; `invalid_scene` for a scripted scene.
  func transition(_ name: String) throws(ProtocolError) -> (Session, Transition) {
    let s = try session(name)
    guard case .transition(let t) = s.content else {
      throw ProtocolError(
        .invalidScene,
        "session '\(name)' is a scripted scene; gestures drive named transitions")
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
  /// Runs the op of `request`: its reply body, or nil when the reply comes later (`step`).
  /// Each op validates fully before changing anything. One op per file in this folder.
  func dispatch(_ request: Request, _ c: OpContext) throws(ProtocolError) -> ReplyBody? {
    switch request.op {
    case .hello: return hello()
    case .open(let open): return try self.open(open, request: request, c)
    case .close(let name): return try close(name, c)
    case .list(let request): return list(request)
    case .get(let name): return try get(name, c)
    case .debug(let name, let enable): return try debug(name, enable: enable, c)
    case .watch(let name): return try watch(name, c)
    case .step(let step):
      try self.step(step, request: request, c)
      return nil
    case .gesture(let gesture): return try self.gesture(gesture, c)
    case .tap(let tap): return try self.tap(tap, c)
    case .swipe(let swipe): return try self.swipe(swipe, c)
    case .addItem(let name, let item): return try addItem(item, to: name, c)
    case .removeItem(let name, let item): return try removeItem(item, from: name, c)
    case .addBehavior(let name, let behavior): return try addBehavior(behavior, to: name, c)
    case .removeBehavior(let name, let behavior):
      return try removeBehavior(behavior, from: name, c)
    case .removeAllBehaviors(let name): return try removeAllBehaviors(name, c)
    case .setBehavior(let set): return try setBehavior(set, c)
    case .setItem(let set): return try setItem(set, c)
    case .addVelocity(let add): return try addVelocity(add, c)
    case .behaviors(let name): return try behaviors(name, c)
    case .addGroup(let name, let group): return try addGroup(group, to: name, c)
    case .removeGroup(let name, let group): return try removeGroup(group, from: name, c)
    case .itemsInRect(let name, let rect): return try itemsInRect(rect, of: name, c)
    case .setBounds(let name, let bounds): return try setBounds(bounds, of: name, c)
    }
  }
}
