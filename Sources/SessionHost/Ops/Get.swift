import Wire

extension SessionHost {
  /// `get`: the animator's time, whether it runs, the items with their sizes, and (extension)
  /// the reference bounds and a transition's parameters.
  func get(_ name: String, _ c: OpContext) throws(ProtocolError) -> ReplyBody {
    let s = try c.session(name)
    var details = SessionDetails(bounds: s.animator.referenceBounds, params: s.params)
    if case .scene(let scene) = s.content { details.groups = scene.groupSpecs }
    return .get(
      t: s.animator.elapsedTime, running: s.animator.isRunning, items: s.states(),
      details: details)
  }
}
