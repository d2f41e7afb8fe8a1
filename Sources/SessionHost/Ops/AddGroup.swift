import Wire

extension SessionHost {
  /// `add_group`: several items of a scene made one rigid body (UIDynamicItemGroup), named like
  /// an item by behaviors.
  func addGroup(_ group: GroupSpec, to name: String, _ c: OpContext) throws(ProtocolError)
    -> ReplyBody
  {
    let scene = try c.scene(name)
    try admitMemory(scene.footprint(adding: group).bytes)
    try scene.addGroup(group)
    return .empty
  }
}
