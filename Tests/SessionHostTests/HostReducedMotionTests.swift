import Foundation
import Testing
import Transitions

@testable import SessionHost

/// Reduced motion (issue 38, point 10): after a release (and a cancel, a taken tap or swipe) a
/// session shows where the motion ends, not the way there. The finger still moves items 1:1,
/// the `handoff` reports the velocities, and `done` comes with the same outcome: the motion is
/// the same, computed, only its frames are not shown. The bound: the first frame after the
/// release shows every item where the full motion has it when its `done` comes (within
/// 0.001 pt, the wire's rounding), and it carries that `done`.
@Suite("Host: reduced motion")
struct HostReducedMotionTests {
  /// One run: the frames' item centers after the release, the outcome, and the handoff.
  struct Run {
    var framesAfterRelease: [[String: [Double]]] = []
    var outcomeFrame: Int?
    var outcome: String?
    var handoff: String?
    var duringDrag: [[String: [Double]]] = []
  }

  /// A flick from the first item's center (clamped into the bounds) up and to the right, a frame
  /// between samples, then one-frame steps until a `done` and a second more, or 10 s.
  static func flick(_ transition: String, reduce: Bool) throws -> Run {
    let rig = HostRig()
    let client = rig.connect()
    let opened = try client.expectOK(
      #"{"op":"open","transition":"\#(transition)","session":"s","clock":"manual","#
        + #""reduce_motion":\#(reduce)}"#)
    let first = try #require(opened.reply.items.first)
    let c = try #require((first["center"] as? [NSNumber])?.map(\.doubleValue))
    let (x, y) = (min(max(c[0], 5), 315), min(max(c[1], 5), 563))
    var run = Run()
    func centers(_ frame: Message) -> [String: [Double]] {
      var out: [String: [Double]] = [:]
      for item in frame.items {
        out[item["id"] as! String] = (item["center"] as? [NSNumber])?.map(\.doubleValue)
      }
      return out
    }
    let g = #"{"op":"gesture","session":"s","#
    try client.expectOK(g + #""phase":"began","x":\#(x),"y":\#(y),"t":0}"#)
    for i in 1...6 {
      let stepped = try client.expectOK(#"{"op":"step","session":"s"}"#)
      run.duringDrag += stepped.events("frame").map(centers)
      try client.expectOK(
        g + #""phase":"changed","x":\#(x + 5 * Double(i)),"y":\#(y - 10 * Double(i)),"#
          + #""t":\#(Double(i) / 60)}"#)
    }
    let ended = try client.expectOK(
      g + #""phase":"ended","x":\#(x + 30),"y":\#(y - 60),"t":0.1,"vx":400,"vy":-900}"#)
    run.handoff = ended.events("handoff").first?.text
    var after = 0
    for _ in 0..<600 {
      let stepped = try client.expectOK(#"{"op":"step","session":"s"}"#)
      run.framesAfterRelease += stepped.events("frame").map(centers)
      if let done = stepped.events("done").first, run.outcome == nil {
        run.outcome = done.string("outcome")
        run.outcomeFrame = run.framesAfterRelease.count
      }
      if run.outcome != nil { after += 1 }
      if after > 60 || stepped.reply.bool("running") == false && run.outcome != nil { break }
    }
    return run
  }

  @Test("each transition: the same outcome, at rest in the first frame after the release")
  func everyTransition() throws {
    for type in TransitionRegistry.all {
      let full = try Self.flick(type.name, reduce: false)
      let reduced = try Self.flick(type.name, reduce: true)
      #expect(reduced.outcome == full.outcome, "\(type.name)")
      #expect(reduced.handoff == full.handoff, "\(type.name): the same handoff")
      #expect(reduced.duringDrag == full.duringDrag, "\(type.name): the finger moves items 1:1")
      guard let outcome = full.outcome, let at = full.outcomeFrame else { continue }
      #expect(reduced.outcomeFrame == 1, "\(type.name) (\(outcome)): done with the first frame")
      let shown = try #require(reduced.framesAfterRelease.first, "\(type.name)")
      let end = full.framesAfterRelease[at - 1]
      for (id, center) in end {
        let other = try #require(shown[id], "\(type.name).\(id)")
        let d = max(abs(center[0] - other[0]), abs(center[1] - other[1]))
        #expect(d <= 0.001, "\(type.name).\(id): \(other) shown, \(center) at the done")
      }
    }
  }

  @Test("a taken tap and a swipe show their end; without reduce_motion every frame is shown")
  func tapsAndSwipes() throws {
    for (reduce, expectFrames) in [(true, 1), (false, 2)] {
      let rig = HostRig()
      let client = rig.connect()
      try client.expectOK(
        #"{"op":"open","transition":"sidebar-menu","session":"m","clock":"manual","#
          + #""reduce_motion":\#(reduce)}"#)
      try client.expectOK(#"{"op":"swipe","session":"m","direction":"right"}"#)
      var frames = 0
      var outcome: String?
      for _ in 0..<300 where outcome == nil {
        let stepped = try client.expectOK(#"{"op":"step","session":"m"}"#)
        frames += stepped.events("frame").count
        outcome = stepped.events("done").first?.string("outcome")
      }
      #expect(outcome == "opened")
      #expect(reduce ? frames == 1 : frames >= expectFrames, "\(frames) frames")
    }
  }
}

/// What one skipped-to frame may carry, and how far a skip goes.
@Suite("Host: reduced motion's bounds")
struct HostReducedMotionBoundsTests {
  /// A ball that falls for ever, grippable, with a rule that emits an action every step.
  static let endless =
    #"{"bounds":[320,568],"items":[{"id":"ball","center":[160,100],"size":[20,20]}],"#
    + #""behaviors":[{"type":"gravity","id":"g","items":["ball"],"#
    + #""action":[{"when":{"always":true},"then":[{"emit":"tick"}],"repeat":true}]}]}"#

  @Test("a skip ends after 10 s of animator time, and its frame carries one frame's actions")
  func bounded() throws {
    let rig = HostRig()
    let client = rig.connect()
    try client.expectOK(
      #"{"op":"open","session":"e","clock":"manual","fps":240,"reduce_motion":true,"scene":"#
        + Self.endless + "}")
    let g = #"{"op":"gesture","session":"e","#
    try client.expectOK(g + #""phase":"began","x":160,"y":100,"t":0}"#)
    try client.expectOK(g + #""phase":"ended","x":160,"y":100,"t":0.01,"vx":0,"vy":0}"#)
    // A one-frame step at 240 fps: the motion never ends, so the skip runs 2 400 frames, to
    // 10 s of animator time, and sends one.
    var stepped = try client.expectOK(#"{"op":"step","session":"e"}"#)
    var t = try #require(stepped.reply.number("t"))
    #expect(t >= 10 && t <= 10 + 1.0 / 240 + 1e-9, "the skip stops at 10 s: t \(t)")
    #expect(stepped.events("frame").count == 1)
    #expect(stepped.events("action").count <= 2, "one frame's actions, not 2 400 frames'")
    // A long frame's step goes at most 10 s beyond its own span.
    try client.expectOK(g + #""phase":"began","x":160,"y":100,"t":1}"#)
    try client.expectOK(g + #""phase":"ended","x":160,"y":100,"t":1.01,"vx":0,"vy":0}"#)
    stepped = try client.expectOK(#"{"op":"step","session":"e","dt":10}"#)
    let start = t
    t = try #require(stepped.reply.number("t"))
    #expect(t - start <= 10 + 1e-9, "one frame of 10 s ends the skip: \(t - start)")
  }
}
