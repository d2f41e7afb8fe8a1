import Wire

extension SessionHost {
  /// `behaviors` (extension): a scene's behaviors in the order they were added, each with the
  /// current value of every field `set_behavior` can set.
  func behaviors(_ name: String, _ c: OpContext) throws(ProtocolError) -> ReplyBody {
    .behaviors(try c.scene(name).behaviorStates())
  }
}
