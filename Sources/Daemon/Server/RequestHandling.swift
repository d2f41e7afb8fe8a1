import Dynamics
import Primitives
import Transitions
import Wire

/// One handler per op. Each validates fully before changing anything, writes the events the
/// request causes, then exactly one reply.
extension Client {
  /// Carries out `request` now (its session, if any, is idle).
  func respond(to request: Request) {
    do {
      if let name = request.op.session, let session = server.sessions[name] {
        if case .scene(let scene) = session.content {
          scene.shapeRoom = server.shapeRoom
        }
        defer { server.recount(session) }
        try session.handling(self) { () throws(ProtocolError) in try dispatch(request) }
      } else {
        try dispatch(request)
      }
    } catch {
      encoder.errorReply(id: request.id, error)
    }
  }

  private func dispatch(_ request: Request) throws(ProtocolError) {
    let id = request.id
    switch request.op {
    case .hello:
      encoder.helloReply(
        id: id, version: server.options.version, transitions: TransitionRegistry.names)
    case .open(let open):
      try self.open(open, requestID: id)
    case .close(let name):
      _ = try server.session(name)
      server.closeSession(name, reason: "closed")
      encoder.reply(id: id)
    case .list:
      encoder.listReply(id: id, sessions: server.sessionsInOrder.map(\.summary))
    case .get(let name):
      let s = try server.session(name)
      encoder.getReply(
        id: id, t: s.animator.elapsedTime, running: s.animator.isRunning, items: s.states())
    case .debug(let name, let enable):
      let s = try server.session(name)
      if enable { s.addWatcher(self) }  // the geometry comes with the frames
      s.setDebug(self, enabled: enable)
      encoder.reply(id: id, enable ? [ReplyField("debug", .object(s.debugFields))] : [])
    case .watch(let name):
      let s = try server.session(name)
      s.addWatcher(self)
      encoder.watchReply(id: id, items: s.states())
    case .step(let step):
      try self.step(step, request: request)
    case .gesture(let g):
      let (s, t) = try transition(g.session)
      let event = GestureEvent(
        phase: g.phase, point: g.point,
        time: g.t, velocity: g.velocity,
        estimator: g.estimator)
      s.send(t.handle(event, now: s.inputTime))
      flush()
      encoder.reply(id: id)
    case .tap(let tap):
      let (s, t) = try transition(tap.session)
      s.send(t.tap(at: tap.point))
      flush()
      encoder.reply(id: id)
    case .swipe(let swipe):
      let (s, t) = try transition(swipe.session)
      s.send(
        t.swipe(
          swipe.direction,
          at: swipe.point, velocity: swipe.velocity))
      flush()
      encoder.reply(id: id)
    case .addItem(let name, let item):
      try scene(name).addItem(item)
      encoder.reply(id: id)
    case .removeItem(let name, let item):
      try scene(name).removeItem(item, session: name)
      encoder.reply(id: id)
    case .addBehavior(let name, let behavior):
      let behaviorID = try scene(name).addBehavior(behavior)
      encoder.addBehaviorReply(id: id, behavior: behaviorID)
    case .removeBehavior(let name, let behavior):
      try scene(name).removeBehavior(behavior, session: name)
      encoder.reply(id: id)
    case .removeAllBehaviors(let name):
      try scene(name).removeAllBehaviors()
      encoder.reply(id: id)
    case .setBehavior(let set):
      try scene(set.session).setBehavior(set)
      encoder.reply(id: id)
    case .setItem(let set):
      try scene(set.session).setItem(set)
      encoder.reply(id: id)
    case .addVelocity(let add):
      try scene(add.session).addVelocity(add)
      encoder.reply(id: id)
    }
  }

  // MARK: open and step

  private func open(_ open: OpenRequest, requestID: RequestID?) throws(ProtocolError) {
    let name = open.session ?? server.freshSessionName()
    guard server.sessions[name] == nil else { throw .sessionExists(name) }
    guard server.sessions.count < Limits.maxSessions else {
      throw ProtocolError(
        .busy, "dynd holds \(Limits.maxSessions) sessions, its most; close some first")
    }
    guard server.sessionCount(ownedBy: pid) < Limits.maxSessionsPerClient else {
      throw ProtocolError(
        .busy,
        "this client process (pid \(pid)) has \(Limits.maxSessionsPerClient) sessions open, the "
          + "most one client may hold; close some first")
    }
    let content: Session.Content
    switch open.source {
    case .scene(let spec):
      content = .scene(try SceneModel(spec, shapeRoom: server.shapeRoom))
    case .transition(let transitionName, let params):
      guard let type = TransitionRegistry.type(named: transitionName) else {
        throw .unknownTransition(transitionName)
      }
      content = .transition(try makeTransition(type, params))
    }
    if case .transition(let t) = content, t.animator.shapeCount > server.shapeRoom {
      throw ProtocolError(
        .busy,
        "dynd holds \(Limits.maxShapesTotal - server.shapeRoom) Box2D shapes in all its sessions "
          + "and takes at most \(Limits.maxShapesTotal); close some sessions first")
    }
    let session = server.makeSession(
      name: name, content: content, clock: open.clock, fps: open.fps, keep: open.keep,
      owner: self)
    session.addWatcher(self)
    encoder.openReply(id: requestID, session: name, items: session.states())
  }

  private func makeTransition(_ type: Transition.Type, _ params: TransitionParams)
    throws(ProtocolError) -> Transition
  {
    var overrides: [String: ParameterValue] = [:]
    for p in params.entries {
      switch p.value {
      case .number(let v): overrides[p.name] = .number(v)
      case .bool(let v): overrides[p.name] = .bool(v)
      case .string(let v): overrides[p.name] = .string(v)
      }
    }
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

  private func step(_ step: StepRequest, request: Request) throws(ProtocolError) {
    let s = try server.session(step.session)
    guard s.clock == .manual else {
      throw ProtocolError(
        .busy,
        "session '\(step.session)' runs on its realtime clock; only manual sessions take 'step'")
    }
    try step.check(fps: s.fps)
    beginStep(request, session: s, count: step.count, dt: step.dt ?? 1 / s.fps)
  }

  // MARK: lookups

  private func transition(_ name: String) throws(ProtocolError) -> (Session, Transition) {
    let s = try server.session(name)
    guard case .transition(let t) = s.content else {
      throw ProtocolError(
        .invalidScene,
        "session '\(name)' is a scripted scene; gestures drive named transitions")
    }
    return (s, t)
  }

  private func scene(_ name: String) throws(ProtocolError) -> SceneModel {
    let s = try server.session(name)
    guard case .scene(let scene) = s.content else {
      throw ProtocolError(
        .invalidScene,
        "session '\(name)' runs the transition '\(s.transitionName ?? "")'; scene ops apply to "
          + "sessions opened with a scene")
    }
    return scene
  }
}

extension Session {
  /// The time standing in for a gesture's missing client timestamp. On the manual clock, the
  /// animator's time, so that the same requests give the same output. On the realtime clock, the
  /// sample's arrival: seconds on the daemon's monotonic clock (`ContinuousClock`, counted from
  /// its first such reading), since the animator's time stands still between frame ticks and
  /// would give several samples one time.
  var inputTime: Double {
    switch clock {
    case .manual:
      return animator.elapsedTime
    case .realtime:
      let elapsed = Self.arrivalEpoch.duration(to: .now).components
      return Double(elapsed.seconds) + Double(elapsed.attoseconds) * 1e-18
    }
  }

  /// Where realtime arrival times count from; only differences between them matter.
  private static let arrivalEpoch = ContinuousClock.now
}
