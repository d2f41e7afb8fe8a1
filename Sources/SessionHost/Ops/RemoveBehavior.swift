import Wire

/// `remove_behavior`: one behavior of a scene, by id.
extension RemoveBehaviorRequest: SceneOp {
  func run(on scene: SceneModel, _ c: OpContext) throws(ProtocolError) -> ReplyBody? {
    try scene.removeBehavior(behavior, session: session)
    return .empty
  }
}
