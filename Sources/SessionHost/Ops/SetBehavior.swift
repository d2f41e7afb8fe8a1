import Wire

extension SessionHost {
  /// `set_behavior`: changes properties of a behavior of a scene.
  func setBehavior(_ set: SetBehaviorRequest, _ c: OpContext) throws(ProtocolError) -> ReplyBody {
    try c.scene(set.session).setBehavior(set)
    return .empty
  }
}
