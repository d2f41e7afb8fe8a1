import Wire

extension SessionHost {
  /// `remove_item`: the item leaves the scene and every behavior (attachments and snaps that
  /// need it go with it).
  func removeItem(_ item: String, from name: String, _ c: OpContext) throws(ProtocolError)
    -> ReplyBody
  {
    try c.scene(name).removeItem(item, session: name)
    return .empty
  }
}
