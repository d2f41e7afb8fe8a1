import Wire

extension SessionHost {
  /// `add_behavior`: a behavior added to a scene; the reply names it.
  func addBehavior(_ behavior: BehaviorSpec, to name: String, _ c: OpContext)
    throws(ProtocolError) -> ReplyBody
  {
    let scene = try c.scene(name)
    try admitMemory(SceneFootprint(behavior: behavior).bytes)
    return .addBehavior(behavior: try scene.addBehavior(behavior))
  }
}
