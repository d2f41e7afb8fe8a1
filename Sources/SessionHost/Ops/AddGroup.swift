import Wire

/// `add_group`: several items of a scene made one rigid body (UIDynamicItemGroup), named like an
/// item by behaviors.
extension AddGroupRequest: SceneOp {
  func run(on scene: SceneModel, _ c: OpContext) throws(ProtocolError) -> ReplyBody? {
    try c.host.admitMemory(scene.memoryGrowth(scene.footprint(adding: group)))
    try scene.addGroup(group)
    return .empty
  }
}
