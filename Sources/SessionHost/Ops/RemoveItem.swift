import Wire

/// `remove_item`: the item leaves the scene and every behavior (attachments and snaps that need
/// it go with it).
extension RemoveItemRequest: SceneOp {
  func run(on scene: SceneModel, _ c: OpContext) throws(ProtocolError) -> ReplyBody? {
    try scene.removeItem(item, session: session)
    return .empty
  }
}
