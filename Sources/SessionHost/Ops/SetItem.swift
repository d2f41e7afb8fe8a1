import Wire

/// `set_item`: moves or turns an item (UIKit's updateItemUsingCurrentState).
extension SetItemRequest: SceneOp {
  func run(on scene: SceneModel, _ c: OpContext) throws(ProtocolError) -> ReplyBody? {
    try scene.setItem(self)
    return .empty
  }
}
