import Primitives
import Transitions
import Wire

extension SessionHost {
  /// `open`: a session from a scene or a named transition, owned and watched by the peer; the
  /// reply holds its name and items with their sizes.
  func open(_ open: OpenRequest, _ c: OpContext) throws(ProtocolError) -> ReplyBody {
    let name = open.session ?? freshSessionName()
    guard sessions[name] == nil else { throw .sessionExists(name) }
    guard sessions.count < Limits.maxSessions else {
      throw ProtocolError(
        .busy, "dynd holds \(Limits.maxSessions) sessions, its most; close some first")
    }
    guard sessionCount(ownedBy: c.peer.pid) < Limits.maxSessionsPerClient else {
      throw ProtocolError(
        .busy,
        "this client process (pid \(c.peer.pid)) has \(Limits.maxSessionsPerClient) sessions "
          + "open, the most one client may hold; close some first")
    }
    let content: Session.Content
    switch open.source {
    case .scene(let spec):
      content = .scene(try SceneModel(spec, shapeRoom: shapeRoom))
    case .transition(let transitionName, let params):
      guard let type = TransitionRegistry.type(named: transitionName) else {
        throw .unknownTransition(transitionName, known: TransitionRegistry.names)
      }
      content = .transition(try makeTransition(type, params))
    }
    if case .transition(let t) = content, t.animator.shapeCount > shapeRoom {
      throw ProtocolError(
        .busy,
        "dynd holds \(Limits.maxShapesTotal - shapeRoom) Box2D shapes in all its sessions "
          + "and takes at most \(Limits.maxShapesTotal); close some sessions first")
    }
    let session = makeSession(
      name: name, content: content, clock: open.clock, fps: open.fps, keep: open.keep,
      owner: c.peer)
    if case .transition(let t) = content, case .transition(_, let params) = open.source {
      session.params = Self.resolved(t, params)
    }
    return .open(session: name, items: session.states())
  }

  /// Every parameter of `transition` in declaration order: the client's value or the default.
  private static func resolved(_ transition: Transition, _ given: TransitionParams)
    -> TransitionParams
  {
    TransitionParams(
      type(of: transition).parameters.map { declared in
        TransitionParam(
          name: declared.name, value: given[declared.name] ?? declared.defaultValue)
      })
  }

  private func makeTransition(_ type: Transition.Type, _ params: TransitionParams)
    throws(ProtocolError) -> Transition
  {
    var overrides: [String: ParameterValue] = [:]
    for p in params.entries { overrides[p.name] = p.value }
    do {
      let values = try ParameterValues(overrides, declared: type.parameters)
      return try type.init(parameters: values, bounds: SceneModel.defaultBounds)
    } catch let error as TransitionError {
      switch error.kind {
      case .unknownParameter: throw ProtocolError(.unknownField, error.message)
      case .wrongType: throw ProtocolError(.wrongType, error.message)
      case .outOfRange: throw ProtocolError(.outOfRange, error.message)
      }
    } catch {
      throw ProtocolError(.invalidScene, "\(error)")
    }
  }
}
