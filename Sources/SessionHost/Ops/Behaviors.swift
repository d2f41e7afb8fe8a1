import Wire

/// `behaviors` (extension): a scene's behaviors in the order they were added, each with the
/// current value of every field `set_behavior` can set.
extension BehaviorsRequest: SceneOp {
  func run(on scene: SceneModel, _ c: OpContext) throws(ProtocolError) -> ReplyBody? {
    let bound = scene.behaviorsReplyBound()
    guard bound <= Limits.maxBehaviorsReplyBytes else {
      throw ProtocolError(
        .outOfRange,
        "the behaviors of '\(session)' would make a reply of up to \(bound) bytes, more than the "
          + "\(Limits.maxBehaviorsReplyBytes) a behaviors reply may be (their item lists are "
          + "long); read them from the scene you sent, or remove some")
    }
    return .behaviors(scene.behaviorStates())
  }
}
