import Wire

/// `set_behavior`: changes properties of a behavior of a scene.
extension SetBehaviorRequest: SceneOp {
  func run(on scene: SceneModel, _ c: OpContext) throws(ProtocolError) -> ReplyBody? {
    let (entry, update) = try scene.update(of: self)
    try c.host.admitMemory(scene.memoryGrowth(scene.footprintChange(of: update, to: behavior)))
    try scene.apply(update, to: entry)
    return .empty
  }
}
