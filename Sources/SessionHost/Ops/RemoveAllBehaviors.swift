import Wire

extension SessionHost {
  /// `remove_all_behaviors`: a scene's behaviors, all at once (its items stay).
  func removeAllBehaviors(_ name: String, _ c: OpContext) throws(ProtocolError) -> ReplyBody {
    try c.scene(name).removeAllBehaviors()
    return .empty
  }
}
