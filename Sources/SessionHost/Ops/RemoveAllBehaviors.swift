import Wire

/// `remove_all_behaviors`: a scene's behaviors, all at once (its items stay).
extension RemoveAllBehaviorsRequest: SceneOp {
  func run(on scene: SceneModel, _ c: OpContext) throws(ProtocolError) -> ReplyBody? {
    scene.removeAllBehaviors()
    return .empty
  }
}
