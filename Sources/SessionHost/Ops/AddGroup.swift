import Wire

extension SessionHost {
  /// `add_group`: several items of a scene made one rigid body (UIDynamicItemGroup), named like
  /// an item by behaviors.
  func addGroup(_ group: GroupSpec, to name: String, _ c: OpContext) throws(ProtocolError)
    -> ReplyBody
  {
    try c.scene(name).addGroup(group)
    return .empty
  }
}
