import Wire

/// `add_behavior`: a behavior added to a scene; the reply names it.
extension AddBehaviorRequest: SceneOp {
  func run(on scene: SceneModel, _ c: OpContext) throws(ProtocolError) -> ReplyBody? {
    try c.host.admitMemory(scene.memoryGrowth(SceneFootprint(behavior: behavior)))
    return .addBehavior(behavior: try scene.addBehavior(behavior))
  }
}
