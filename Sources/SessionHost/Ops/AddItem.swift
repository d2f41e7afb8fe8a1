import Wire

extension SessionHost {
  /// `add_item`: a new item in a scene (animated once a behavior holds it).
  func addItem(_ item: ItemSpec, to name: String, _ c: OpContext) throws(ProtocolError)
    -> ReplyBody
  {
    try c.scene(name).addItem(item)
    return .empty
  }
}
