import TransitionDocuments
import Wire

/// `define`: a transition document registered for new sessions, checked as `dynctl check`
/// checks it, on a worker (reading a large document at the corners of its parameter box takes
/// longer than a loop turn should): the requester's reply comes when it is checked, its later
/// requests wait behind it, and every other connection is served meanwhile. Refused
/// (`invalid_scene`) with every error and its JSON pointer, or when its name is taken (naming
/// what holds it, checked again when the document is back). Running sessions keep what they
/// were opened with.
extension DefineRequest: DaemonOp {
  func run(_ c: OpContext) throws(ProtocolError) -> ReplyBody? {
    c.host.defineOnWorker(document, request: c.request, for: c.peer)
    return nil
  }
}

extension SessionHost {
  func defineOnWorker(_ text: String, request: Request, for peer: Peer) {
    peer.inProgress = .defining(request)
    jobStarted()
    let host = UncheckedBox(self)
    let environment = self.environment
    environment.runOnWorker(.continuing) {
      let read: Result<TransitionDocument, ProtocolError>
      do throws(DocumentErrors) {
        read = .success(try TransitionDocument.read(text: Array(text.utf8)))
      } catch {
        read = .failure(
          ProtocolError(
            .invalidScene,
            "the document has \(error.total) error\(error.total == 1 ? "" : "s"): "
              + error.errors.map(\.description).joined(separator: "; ")
              + (error.total > error.errors.count
                ? "; and \(error.total - error.errors.count) more" : "")))
      }
      environment.post { host.value.finishDefine(read, request: request, for: peer) }
    }
  }

  private func finishDefine(
    _ read: Result<TransitionDocument, ProtocolError>, request: Request, for peer: Peer
  ) {
    jobFinished()
    guard !peer.isGone, case .defining = peer.inProgress else { return }
    peer.inProgress = nil
    let reply: Reply
    do throws(ProtocolError) {
      try define(try read.get(), source: "define by pid \(peer.pid)")
      reply = Reply(id: request.id, .empty)
    } catch {
      reply = Reply(id: request.id, error: error)
    }
    outbox.reply(reply, to: peer.id)
    runQueued(peer)
    deliver()
  }
}
