import Wire

extension SessionHost {
  /// `remove_behavior`: one behavior of a scene, by id.
  func removeBehavior(_ behavior: String, from name: String, _ c: OpContext)
    throws(ProtocolError) -> ReplyBody
  {
    try c.scene(name).removeBehavior(behavior, session: name)
    return .empty
  }
}
