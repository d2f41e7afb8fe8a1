import Wire

/// `add_item`: a new item in a scene (animated once a behavior holds it).
extension AddItemRequest: SceneOp {
  func run(on scene: SceneModel, _ c: OpContext) throws(ProtocolError) -> ReplyBody? {
    try c.host.admitMemory(scene.memoryGrowth(SceneFootprint(item: item)))
    try scene.addItem(item)
    return .empty
  }
}
