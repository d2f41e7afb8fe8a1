import Wire

extension SessionHost {
  /// `add_velocity`: linear and angular velocity added to an item.
  func addVelocity(_ add: AddVelocityRequest, _ c: OpContext) throws(ProtocolError) -> ReplyBody {
    try c.scene(add.session).addVelocity(add)
    return .empty
  }
}
