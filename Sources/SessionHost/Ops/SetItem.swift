import Wire

extension SessionHost {
  /// `set_item`: moves or turns an item (UIKit's updateItemUsingCurrentState).
  func setItem(_ set: SetItemRequest, _ c: OpContext) throws(ProtocolError) -> ReplyBody {
    try c.scene(set.session).setItem(set)
    return .empty
  }
}
