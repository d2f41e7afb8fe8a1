import Wire

extension SessionHost {
  /// `add_behavior`: a behavior added to a scene; the reply names it.
  func addBehavior(_ behavior: BehaviorSpec, to name: String, _ c: OpContext)
    throws(ProtocolError) -> ReplyBody
  {
    .addBehavior(behavior: try c.scene(name).addBehavior(behavior))
  }
}
