import Primitives
import TransitionDocuments
import Transitions
import Wire

/// `open`: a session from a scene or a named transition, owned and watched by the peer; the reply
/// holds its name and items with their sizes. Every bound is checked from the request before
/// anything is built; a large scene is then built on a worker while the requester waits (nil:
/// the reply comes later), others being served meanwhile.
extension OpenRequest: DaemonOp {
  func run(_ c: OpContext) throws(ProtocolError) -> ReplyBody? {
    try c.host.open(self, c)
  }
}

extension SessionHost {
  /// Scenes whose `SceneFootprint.buildCost` is above this (about a millisecond of building)
  /// are built on a worker, so that an `open` never holds the loop for long; smaller ones are
  /// built at once, as every other request is carried out.
  static let openOnLoopCost = 1_000

  /// `open`, with what it needs of the host.
  func open(_ open: OpenRequest, _ c: OpContext) throws(ProtocolError) -> ReplyBody? {
    let name = open.session ?? freshSessionName()
    guard sessions[name] == nil else { throw .sessionExists(name) }
    try admitSession(owner: c.peer)
    let content: Session.Content
    switch open.source {
    case .scene(let spec):
      let footprint = try SceneModel.check(spec, shapeRoom: shapeRoom)
      try admitMemory(MemoryCost.session + footprint.bytes)
      if footprint.buildCost > Self.openOnLoopCost {
        buildOnWorker(name: name, open, request: c.request, for: c.peer, bytes: footprint.bytes) {
          () throws(ProtocolError) in .scene(try SceneModel(spec, checked: footprint))
        }
        return nil
      }
      content = .scene(try SceneModel(spec, checked: footprint))
    case .transition(let transitionName, let params):
      let bounds = open.bounds ?? TransitionBounds.standard
      let transition: Transition
      if let type = TransitionRegistry.type(named: transitionName) {
        transition = try makeTransition(type, params, bounds: bounds)
      } else if let document = transitions.document(named: transitionName) {
        let (spec, values, footprint) = try documentScene(document, params, bounds: bounds)
        let build = { () throws(ProtocolError) -> Session.Content in
          .transition(
            try DocumentTransition(document, scene: spec, values: values, bounds: bounds))
        }
        if footprint.buildCost > Self.openOnLoopCost {
          buildOnWorker(
            name: name, open, request: c.request, for: c.peer, bytes: footprint.bytes, build)
          return nil
        }
        guard case .transition(let made) = try build() else { return nil }
        transition = made
      } else {
        throw .unknownTransition(transitionName, known: transitions.names)
      }
      try SceneModel.admitShapes(transition.animator.shapeCount, to: 0, room: shapeRoom)
      content = .transition(transition)
    }
    return makeSession(name, open, content, owner: c.peer)
  }

  /// Refuses a session beyond `Limits.maxSessions` or the owner's `maxSessionsPerClient`.
  private func admitSession(owner: Peer) throws(ProtocolError) {
    guard sessions.count < Limits.maxSessions else {
      throw ProtocolError(
        .busy, "dynd holds \(Limits.maxSessions) sessions, its most; close some first")
    }
    guard sessionCount(ownedBy: owner.pid) < Limits.maxSessionsPerClient else {
      throw ProtocolError(
        .busy,
        "this client process (pid \(owner.pid)) has \(Limits.maxSessionsPerClient) sessions "
          + "open, the most one client may hold; close some first")
    }
  }

  /// The session `open` asked for, made of `content`; its reply.
  private func makeSession(
    _ name: String, _ open: OpenRequest, _ content: Session.Content, owner: Peer
  ) -> ReplyBody {
    let session = makeSession(
      name: name, content: content, clock: open.clock, fps: open.fps, keep: open.keep,
      owner: owner)
    if case .transition(let t) = content, case .transition(_, let params) = open.source {
      session.params = Self.resolved(t, params)
    }
    session.reduceMotion = open.reduceMotion ?? configuration.reduceMotion
    return .open(session: name, items: session.states())
  }

  /// Builds a scene's or a document's session on a worker (the engine objects are made there
  /// and handed over once), then, on the host's thread, checks again what may have changed
  /// meanwhile (the name, the session quotas, the shape total, the memory budget: `bytes`),
  /// opens the session and replies. A requester gone meanwhile gets nothing and it is dropped.
  private func buildOnWorker(
    name: String, _ open: OpenRequest, request: Request, for peer: Peer, bytes: Int,
    _ build: @escaping () throws(ProtocolError) -> Session.Content
  ) {
    let build = UncheckedBox(build)
    peer.inProgress = .opening(request)
    jobStarted()
    let environment = self.environment
    let host = UncheckedBox(self)
    // Behind due frames: a scene being built must not make anyone's frame late.
    environment.runOnWorker(.continuing) {
      let built: Result<Session.Content, ProtocolError>
      do throws(ProtocolError) {
        let content = try build.value()
        // The animator makes its Box2D bodies and joints when first asked for its items: here,
        // rather than on the loop at the session's first request.
        _ = content.animator.items
        built = .success(content)
      } catch {
        built = .failure(error)
      }
      let result = UncheckedBox(built)
      environment.post {
        host.value.finishBuild(
          result.value, name: name, open, request: request, for: peer, bytes: bytes)
      }
    }
  }

  private func finishBuild(
    _ built: Result<Session.Content, ProtocolError>, name: String, _ open: OpenRequest,
    request: Request, for peer: Peer, bytes: Int
  ) {
    jobFinished()
    guard !peer.isGone, case .opening = peer.inProgress else { return }
    peer.inProgress = nil
    let reply: Reply
    do throws(ProtocolError) {
      let content = try built.get()
      var name = name
      if sessions[name] != nil {
        guard open.session == nil else { throw .sessionExists(name) }
        name = freshSessionName()
      }
      try admitSession(owner: peer)
      try SceneModel.admitShapes(content.animator.shapeCount, to: 0, room: shapeRoom)
      try admitMemory(MemoryCost.session + bytes)
      reply = Reply(id: request.id, makeSession(name, open, content, owner: peer))
    } catch {
      reply = Reply(id: request.id, error: error)
    }
    outbox.reply(reply, to: peer.id)
    runQueued(peer)
    deliver()
  }

  /// Every parameter of `transition` in declaration order: the client's value or the default
  /// (in the transition's bounds).
  private static func resolved(_ transition: Transition, _ given: TransitionParams)
    -> TransitionParams
  {
    TransitionParams(
      transition.declaredParameters.map { declared in
        TransitionParam(
          name: declared.name,
          value: given[declared.name]
            ?? declared.resolved(in: transition.bounds.size).defaultValue)
      })
  }

  /// A document's scene laid out for the parameters in `bounds`, checked and charged as a
  /// scene's (`SceneModel.check`, the memory budget) before it is built.
  private func documentScene(
    _ document: TransitionDocument, _ params: TransitionParams, bounds: Rect
  ) throws(ProtocolError) -> (SceneSpec, ParameterValues, SceneFootprint) {
    let values = try parameterValues(params, declared: document.parameters, in: bounds)
    let spec: SceneSpec
    do throws(DocumentError) {
      spec = try document.scene(values, in: bounds)
    } catch {
      throw ProtocolError(.invalidScene, "transition '\(document.name)': \(error)")
    }
    let footprint = try SceneModel.check(spec, shapeRoom: shapeRoom)
    try admitMemory(MemoryCost.session + footprint.bytes)
    return (spec, values, footprint)
  }

  /// `params` checked against `declared` in `bounds`, as the protocol's errors.
  private func parameterValues(
    _ params: TransitionParams, declared: [TransitionParameter], in bounds: Rect
  ) throws(ProtocolError) -> ParameterValues {
    var overrides: [String: ParameterValue] = [:]
    for p in params.entries { overrides[p.name] = p.value }
    do {
      return try ParameterValues(overrides, declared: declared, in: bounds.size)
    } catch {
      throw Self.protocolError(error)
    }
  }

  /// A transition's refusal of its parameters as the protocol's error.
  private static func protocolError(_ error: any Error) -> ProtocolError {
    guard let error = error as? TransitionError else {
      return ProtocolError(.invalidScene, "\(error)")
    }
    switch error.kind {
    case .unknownParameter: return ProtocolError(.unknownField, error.message)
    case .wrongType: return ProtocolError(.wrongType, error.message)
    case .outOfRange: return ProtocolError(.outOfRange, error.message)
    case .conflicting: return ProtocolError(.conflictingFields, error.message)
    }
  }

  private func makeTransition(_ type: Transition.Type, _ params: TransitionParams, bounds: Rect)
    throws(ProtocolError) -> Transition
  {
    let values = try parameterValues(params, declared: type.parameters, in: bounds)
    do {
      return try type.init(parameters: values, bounds: bounds)
    } catch {
      throw Self.protocolError(error)
    }
  }
}
