import Wire

/// `remove_group`: a group leaves its behaviors and the scene; its items stay where it left them.
extension RemoveGroupRequest: SceneOp {
  func run(on scene: SceneModel, _ c: OpContext) throws(ProtocolError) -> ReplyBody? {
    try scene.removeGroup(group, session: session)
    return .empty
  }
}
