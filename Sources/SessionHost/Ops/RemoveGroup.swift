import Wire

extension SessionHost {
  /// `remove_group`: a group leaves its behaviors and the scene; its items stay where it left
  /// them.
  func removeGroup(_ group: String, from name: String, _ c: OpContext) throws(ProtocolError)
    -> ReplyBody
  {
    try c.scene(name).removeGroup(group, session: name)
    return .empty
  }
}
