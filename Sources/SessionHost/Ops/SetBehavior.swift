import Wire

extension SessionHost {
  /// `set_behavior`: changes properties of a behavior of a scene.
  func setBehavior(_ set: SetBehaviorRequest, _ c: OpContext) throws(ProtocolError) -> ReplyBody {
    let scene = try c.scene(set.session)
    try admitMemory(scene.footprintChange(of: set.update, to: set.behavior).bytes)
    try scene.setBehavior(set)
    return .empty
  }
}
