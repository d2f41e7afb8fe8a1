import Wire

/// `add_velocity`: linear and angular velocity added to an item.
extension AddVelocityRequest: SceneOp {
  func run(on scene: SceneModel, _ c: OpContext) throws(ProtocolError) -> ReplyBody? {
    try scene.addVelocity(self)
    return .empty
  }
}
