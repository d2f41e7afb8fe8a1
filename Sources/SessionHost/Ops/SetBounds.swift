import Wire

/// `set_bounds`: new reference bounds for a scene (nil: none); collision behaviors that
/// translate them into a boundary collide with the new ones from the next step.
extension SetBoundsRequest: SceneOp {
  func run(on scene: SceneModel, _ c: OpContext) throws(ProtocolError) -> ReplyBody? {
    try scene.setBounds(bounds)
    return .empty
  }
}
