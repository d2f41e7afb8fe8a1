import Dynamics
import Primitives
import Wire

/// What a realtime frame of a scene costs without the daemon around it: one 60 Hz step of the
/// engine, then the item states and the frame line (`MessageEncoder.frame`), timed on this
/// thread alone. The `sessions` benchmark divides dynd's CPU time per frame by this.
///
/// With `worlds` above 1, that many copies of the scene are stepped in turn, a frame of each per
/// round, as dynd steps its sessions: their memory no longer stays in the caches between two
/// frames of one world, which is what a frame costs dynd at that session count.
struct RawFrameCost {
  /// Copies of the scene stepped in turn.
  let worlds: Int
  /// Frames timed, over all runs.
  let frames: Int
  /// Mean time of `animator.step(1/60)`, in µs.
  let step: Double
  /// Mean time of building the item states and encoding the frame, in µs.
  let encode: Double

  var total: Double { step + encode }

  /// Steps and encodes `runs` times `worlds` fresh copies of `scene`, in turn, for `seconds` of
  /// simulated time each.
  init(_ scene: BouncingScene, worlds: Int = 1, runs: Int, seconds: Double) {
    var stepTotal = 0.0
    var encodeTotal = 0.0
    var frames = 0
    var encoder = MessageEncoder()
    for _ in 0..<runs {
      let copies = (0..<max(1, worlds)).map { _ in scene.animator() }
      for seq in 1...max(1, Int(seconds * 60)) {
        for (animator, items) in copies {
          let t0 = now()
          animator.step(1.0 / 60)
          let t1 = now()
          let states = items.map(Self.state)
          encoder.frame(session: "b0", seq: UInt64(seq), t: animator.elapsedTime, items: states)
          let t2 = now()
          encoder.removeAll()
          stepTotal += t1 - t0
          encodeTotal += t2 - t1
          frames += 1
        }
      }
    }
    self.worlds = max(1, worlds)
    self.frames = frames
    step = stepTotal / Double(frames)
    encode = encodeTotal / Double(frames)
  }

  /// What the daemon's `Session.states()` builds for each item.
  private static func state(_ item: DynamicItem) -> ItemState {
    ItemState(
      id: item.identifier, center: item.center, angle: item.angle, velocity: item.velocity,
      angularVelocity: item.angularVelocity, size: item.size)
  }

  var sentence: String {
    let copies = worlds == 1 ? "this scene" : "\(worlds) copies of this scene in turn"
    return "raw step + encode of \(copies): \(fmt(step)) + \(fmt(encode)) = \(fmt(total)) µs per "
      + "frame (mean of \(frames) frames, one thread, no daemon)"
  }
}
