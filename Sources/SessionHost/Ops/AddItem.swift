import Wire

/// `add_item`: a new item in a scene (animated once a behavior holds it).
extension AddItemRequest: SceneOp {
  func run(on scene: SceneModel, _ c: OpContext) throws(ProtocolError) -> ReplyBody? {
    try c.host.admitMemory(SceneFootprint(item: item).bytes)
    try scene.addItem(item)
    return .empty
  }
}
