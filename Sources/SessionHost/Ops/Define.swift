import TransitionDocuments
import Wire

/// `define`: a transition document registered for new sessions, checked as `dynctl check`
/// checks it; refused (`invalid_scene`) with every error and its JSON pointer, or when its name
/// is taken (naming what holds it). Running sessions keep what they were opened with.
extension DefineRequest: DaemonOp {
  func run(_ c: OpContext) throws(ProtocolError) -> ReplyBody? {
    let document: TransitionDocument
    do throws(DocumentErrors) {
      document = try TransitionDocument.read(text: Array(self.document.utf8))
    } catch {
      throw ProtocolError(
        .invalidScene,
        "the document has \(error.errors.count) error\(error.errors.count == 1 ? "" : "s"): "
          + error.errors.map(\.description).joined(separator: "; "))
    }
    try c.host.define(document, source: "define by pid \(c.peer.pid)")
    return .empty
  }
}
