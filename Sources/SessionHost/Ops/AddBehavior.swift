import Wire

/// `add_behavior`: a behavior added to a scene; the reply names it.
extension AddBehaviorRequest: SceneOp {
  func run(on scene: SceneModel, _ c: OpContext) throws(ProtocolError) -> ReplyBody? {
    try c.host.admitMemory(SceneFootprint(behavior: behavior).bytes)
    return .addBehavior(behavior: try scene.addBehavior(behavior))
  }
}
