import Wire

extension SessionHost {
  /// `add_item`: a new item in a scene (animated once a behavior holds it).
  func addItem(_ item: ItemSpec, to name: String, _ c: OpContext) throws(ProtocolError)
    -> ReplyBody
  {
    let scene = try c.scene(name)
    try admitMemory(SceneFootprint(item: item).bytes)
    try scene.addItem(item)
    return .empty
  }
}
