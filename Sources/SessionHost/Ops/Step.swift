import Wire

/// `step`: advances a manual session by `count` frames. Frames are computed on a worker in
/// batches (`runFrames`) and sent to the requester as they come, never coalesced; the reply
/// follows the last (nil here). The next batch waits while the requester's output is backed up,
/// and the peer's further requests wait for the reply.
extension StepRequest: AnySessionOp {
  func run(on s: Session, _ c: OpContext) throws(ProtocolError) -> ReplyBody? {
    guard s.clock == .manual else {
      throw ProtocolError(
        .busy,
        "session '\(session)' runs on its realtime clock; only manual sessions take 'step'")
    }
    try check(fps: s.fps)
    c.peer.inProgress = .step(
      Peer.ManualStep(
        request: c.request, session: s, count: count, remaining: count, dt: dt ?? 1 / s.fps))
    c.host.continueStep(c.peer)
    return nil
  }
}

extension SessionHost {
  /// Runs the peer's step's next batch, unless one is running or the peer's output is backed
  /// up (then `outputDrained` calls again); replies after the last batch.
  func continueStep(_ peer: Peer) {
    guard var step = peer.step, !step.computing else { return }
    if step.session.isClosed {
      finishStep(
        peer,
        Reply(
          id: step.request.id,
          error: ProtocolError(
            .unknownSession, "session '\(step.session.name)' was closed during the step")))
      return
    }
    if step.remaining == 0 {
      let p = step.session.published
      finishStep(peer, Reply(id: step.request.id, .step(t: p.t, running: p.running)))
      return
    }
    if environment.isBackedUp(peer.id, beyond: Limits.stepBacklog) { return }
    step.computing = true
    peer.inProgress = .step(step)
    let session = step.session
    session.waitUntilIdle { [unowned self] in
      guard !peer.isGone, peer.step?.session === session else { return }
      guard !session.isClosed else {
        var idle = step
        idle.computing = false
        peer.inProgress = .step(idle)
        continueStep(peer)
        return
      }
      let priority: WorkPriority = step.remaining == step.count ? .due : .continuing
      runFrames(
        of: session, step.remaining, dt: step.dt, requester: peer, priority: priority
      ) { [unowned self] done in
        guard !peer.isGone, var current = peer.step, current.session === session else { return }
        current.remaining -= done
        current.computing = false
        peer.inProgress = .step(current)
        // The frames go out before the backlog is looked at; a batch run inside the request
        // itself leaves them to go out with its reply, in one write.
        if inlineDepth == 0 { deliver() }
        continueStep(peer)
      }
    }
  }

  private func finishStep(_ peer: Peer, _ reply: Reply) {
    peer.inProgress = nil
    outbox.reply(reply, to: peer.id)
    runQueued(peer)
  }
}
