import Primitives
import Transitions
import Wire

/// `gesture`: one pan sample, for the transition or the scene (whose pan grips the item under
/// the finger: `ScenePan`); a release hands the finger's velocity over (`handoff`, before the
/// reply).
extension GestureRequest: AnySessionOp {
  func run(on s: Session, _ c: OpContext) throws(ProtocolError) -> ReplyBody? {
    let driver: Transition
    switch s.content {
    case .transition(let t): driver = t
    case .scene(let scene): driver = scene.pan
    }
    if sample.phase == .began {
      s.endSkipping()
      s.outcome = nil
    }
    s.queue(driver.handle(sample, now: s.inputTime))
    if sample.phase == .ended || sample.phase == .cancelled { s.startSkipping() }
    return .empty
  }
}
